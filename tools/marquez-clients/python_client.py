#!/usr/bin/env python3
"""Calls every read method of Marquez's own Python client (marquez-python 0.50.0, PyPI) against a
Marquez-compatible server and prints one JSON document:

    {call_name: {"ok": bool, "status": int|null, "result": ..., "error": str|null, "request": str|null}}

`status` and `request` are the HTTP status and "GET <path?query>" of the last request the call made
(recorded with a hook on requests' Session.send; the client itself does not expose them). `result` is
what the client method returned (for this client: the parsed JSON body, unchanged). Each call runs in
its own try/except, so one failure does not stop the others.

Usage:
    python_client.py --url http://127.0.0.1:5100 --plan plan.json [--namespace NS] [--job J]
                     [--dataset D] [--field F] [--run-id UUID] [--source S] [--depth N] [--out FILE]

Plan (JSON object; command-line flags override it): namespace, job, dataset, field, runId, and
optionally source, datasetVersion, depth (default 20). Missing values are taken from earlier answers
where possible (runId from the job's latestRun, source from the dataset's sourceName,
datasetVersion from the first listed version).

Run it with the venv that tools/marquez-clients/clients.ts (ensurePythonClient) prepares:
~/.cache/tributary/marquez-clients/venv/bin/python.
"""
import argparse
import json
import sys
import traceback
from urllib.parse import urlsplit

import requests
import marquez_client
from marquez_client import MarquezClient

_last = {"status": None, "request": None}
_orig_send = requests.sessions.Session.send


def _recording_send(self, request, **kwargs):
    parts = urlsplit(request.url)
    _last["request"] = f"{request.method} {parts.path}" + (f"?{parts.query}" if parts.query else "")
    _last["status"] = None
    response = _orig_send(self, request, **kwargs)
    _last["status"] = response.status_code
    return response


requests.sessions.Session.send = _recording_send


def _error_text(exc):
    cause = exc.__cause__ or exc.__context__
    response = getattr(cause, "response", None)
    if response is not None:
        body = response.text[:500] if response.text else ""
        return f"{type(exc).__name__}: HTTP {response.status_code}: {body}"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="server base URL, e.g. http://127.0.0.1:5100")
    parser.add_argument("--plan", help="JSON plan file")
    parser.add_argument("--namespace")
    parser.add_argument("--job")
    parser.add_argument("--dataset")
    parser.add_argument("--field")
    parser.add_argument("--run-id", dest="runId")
    parser.add_argument("--source")
    parser.add_argument("--dataset-version", dest="datasetVersion")
    parser.add_argument("--depth", type=int)
    parser.add_argument("--timeout-ms", type=int, default=60000)
    parser.add_argument("--out", help="write the JSON here instead of stdout")
    args = parser.parse_args()

    plan = {}
    if args.plan:
        with open(args.plan, encoding="utf-8") as f:
            plan = json.load(f)
    for key in ("namespace", "job", "dataset", "field", "runId", "source", "datasetVersion", "depth"):
        value = getattr(args, key)
        if value is not None:
            plan[key] = value
    depth = plan.get("depth") or 20

    client = MarquezClient(url=args.url.rstrip("/"), timeout_ms=args.timeout_ms)
    out = {}

    def call(name, fn):
        _last["status"] = None
        _last["request"] = None
        try:
            result = fn()
            out[name] = {"ok": True, "status": _last["status"], "result": result, "error": None,
                         "request": _last["request"]}
            return result
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none stops the run
            out[name] = {"ok": False, "status": _last["status"], "result": None, "error": _error_text(exc),
                         "request": _last["request"]}
            if _last["status"] is None:
                out[name]["trace"] = traceback.format_exc(limit=3)
            return None

    ns, job, ds, field = plan.get("namespace"), plan.get("job"), plan.get("dataset"), plan.get("field")

    call("list_namespaces", lambda: client.list_namespaces())
    call("get_namespace", lambda: client.get_namespace(ns))
    call("list_sources", lambda: client.list_sources())
    call("list_datasets", lambda: client.list_datasets(ns))
    dataset = call("get_dataset", lambda: client.get_dataset(ns, ds))
    source = plan.get("source") or (dataset or {}).get("sourceName")
    call("get_source", lambda: client.get_source(source))
    versions = call("list_dataset_versions", lambda: client.list_dataset_versions(ns, ds))
    version = plan.get("datasetVersion")
    if not version and versions and versions.get("versions"):
        version = versions["versions"][0].get("version")
    call("get_dataset_version", lambda: client.get_dataset_version(ns, ds, version))
    call("list_jobs", lambda: client.list_jobs(ns))
    job_obj = call("get_job", lambda: client.get_job(ns, job))
    runs = call("list_job_runs", lambda: client.list_job_runs(ns, job))
    run_id = plan.get("runId")
    if not run_id:
        run_id = ((job_obj or {}).get("latestRun") or {}).get("id")
    if not run_id and runs and runs.get("runs"):
        run_id = runs["runs"][0].get("id")
    call("get_job_run", lambda: client.get_job_run(run_id))
    call("get_column_lineage_by_dataset",
         lambda: client.get_column_lineage_by_dataset(ns, ds, depth=depth))
    call("get_column_lineage_by_dataset_downstream",
         lambda: client.get_column_lineage_by_dataset(ns, ds, depth=depth, with_downstream=True))
    # Two different "versions": DatasetVersion.version (what /versions lists and serves) and
    # Dataset.currentVersion (the dataset_versions row uuid). Marquez's versioned column lineage
    # takes only the latter (it answers 404 "Could not find node" to the former).
    current = (dataset or {}).get("currentVersion")
    call("get_column_lineage_by_dataset_version",
         lambda: client.get_column_lineage_by_dataset(ns, ds, depth=depth, version=version))
    call("get_column_lineage_by_dataset_current_version",
         lambda: client.get_column_lineage_by_dataset(ns, ds, depth=depth, version=current))
    call("get_column_lineage_by_dataset_field",
         lambda: client.get_column_lineage_by_dataset_field(ns, ds, field, depth=depth))
    call("get_column_lineage_by_dataset_field_downstream",
         lambda: client.get_column_lineage_by_dataset_field(ns, ds, field, depth=depth, with_downstream=True))
    call("get_column_lineage_by_dataset_field_current_version",
         lambda: client.get_column_lineage_by_dataset_field(ns, ds, field, depth=depth, version=current))
    call("get_column_lineage_by_job", lambda: client.get_column_lineage_by_job(ns, job, depth=depth))
    call("list_tags", lambda: client.list_tags())
    # Both paths below are what the client sends; Marquez serves neither (it has /events/lineage).
    call("list_events", lambda: client.list_events())
    call("list_events_namespace", lambda: client.list_events(ns))

    text = json.dumps(out, indent=2, sort_keys=False, default=str)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    sys.stderr.write(f"marquez-python {marquez_client.__version__}: "
                     f"{sum(1 for v in out.values() if v['ok'])}/{len(out)} calls ok\n")


if __name__ == "__main__":
    main()
