"""Capture what openlineage-python sends for column lineage with the deprecated transformation type.

A real client (pip install openlineage-python==1.54.0) serialises the event with its own Serde and
writes it through its FileTransport, so the JSON is what a producer emits; the result is committed
as test/fixtures/openlineage-python-1.54-column-lineage.json (pretty-printed). Run:
    python3 -m venv /tmp/ol && /tmp/ol/bin/pip install openlineage-python==1.54.0
    /tmp/ol/bin/python tools/capture/openlineage_python_column_lineage.py
"""
import glob
import json

from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import Job, InputDataset, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, schema_dataset
from openlineage.client.transport.file import FileConfig, FileTransport

client = OpenLineageClient(transport=FileTransport(FileConfig(log_file_path="/tmp/ol-python-cll", append=False)))
cll = column_lineage_dataset.ColumnLineageDatasetFacet(fields={
    "total": column_lineage_dataset.Fields(
        inputFields=[column_lineage_dataset.InputField(namespace="postgres://db:5432", name="public.orders", field="amount")],
        transformationType="IDENTITY",
        transformationDescription="identical",
    ),
})
schema = schema_dataset.SchemaDatasetFacet(fields=[schema_dataset.SchemaDatasetFacetFields(name="total", type="numeric")])
client.emit(RunEvent(
    eventType=RunState.COMPLETE,
    eventTime="2024-05-01T12:00:00.000Z",
    run=Run(runId="0190f2a3-8a8e-7bbb-9c2a-6f1e2d3c4b5a"),
    job=Job(namespace="python-jobs", name="orders_total"),
    producer="https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python",
    inputs=[InputDataset(namespace="postgres://db:5432", name="public.orders")],
    outputs=[OutputDataset(namespace="postgres://db:5432", name="public.orders_total", facets={"columnLineage": cll, "schema": schema})],
))
written = sorted(glob.glob("/tmp/ol-python-cll*"))[-1]  # FileTransport appends a timestamp to the name
print(json.dumps(json.loads(open(written).read()), indent=2))
