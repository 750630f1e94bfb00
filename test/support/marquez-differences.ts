import fs from 'node:fs';
import path from 'node:path';
import type { ContractFixture, RecordedResponse } from '../../tools/marquez-contract/capture';
import type { Diff } from '../../tools/marquez-contract/compare';
import type { NodeRef } from '../../tools/marquez-contract/requests';
import { repoRoot } from './corpus';

/**
 * What real Marquez 0.50.0 answered (test/fixtures/marquez-0.50, captured by
 * tools/marquez-contract/capture.ts) and the explained classes of difference between its answers
 * and Tributary's (ALLOWED), for test/api/marquez-contract.test.ts. Some classes depend on facts
 * read off the replayed events: the test gives every accepted event to `collectFacts`, then calls
 * `settleFacts` once, before it compares anything.
 */

export const fixtureDir = path.join(repoRoot, 'test', 'fixtures', 'marquez-0.50');
export const contract = JSON.parse(fs.readFileSync(path.join(fixtureDir, 'contract.json'), 'utf8')) as ContractFixture;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Facts read off the accepted events, which some classes below are about. */
const facts = {
  /** `ns:name` of every symlink identifier (Spark's catalog names of a table path). */
  symlinks: new Set<string>(),
  /** `ns:name:field` of every field a columnLineage facet reads from. */
  columnInputFields: new Set<string>(),
  /** `ns:name` of every dataset an event lists as input or output. */
  listed: new Set<string>(),
  /** Per job (`ns:name`): the datasets its events list, and those its outputs' column lineage reads without listing them. */
  jobListed: new Map<string, Set<string>>(),
  columnOnly: new Map<string, Set<string>>(),
  /** `ns:name:field` of fields column lineage reads that no schema facet of their dataset has. */
  columnOnlyFields: new Set<string>(),
  schemaFields: new Map<string, Set<string>>(),
  /** `ns:name` of datasets that carry a symlinks facet (the physical names). */
  symlinked: new Set<string>(),
  /** Per dataset: the jobs whose events sent a columnLineage facet for it. */
  columnWriters: new Map<string, Set<string>>(),
  /** Jobs (`ns:name`) none of whose runs completed, failed or aborted. */
  neverFinished: new Set<string>(),
  finished: new Set<string>(),
  /** Per dataset: the keys of the inputFacets events sent for it. */
  inputFacets: new Map<string, Set<string>>(),
};
const columnOnlyAny = () => new Set([...facts.columnOnly.values()].flatMap((x) => [...x]));

// ---------------------------------------------------------------------------------------------
// The explained differences. Each class: why Tributary's answer differs from Marquez 0.50's, and
// the diffs it covers (matched on the diff and the request). A class marked BUG is a Tributary
// defect that is reported and tolerated here until it is fixed; remove it then.
// ---------------------------------------------------------------------------------------------

export interface Ctx {
  r: RecordedResponse;
  /** Marquez's whole body. */
  m: any;
  /** The node a lineage request starts from. */
  start: NodeRef | null;
  /** Tributary's whole body, normalised. */
  t: any;
  note?: string;
}
interface Rule {
  id: string;
  why: string;
  bug?: true;
  match(d: Diff, c: Ctx): boolean;
}

const last = (shape: string) => shape.slice(shape.lastIndexOf('.') + 1).replace(/\[\]$/, '');
const isTime = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) && !Number.isNaN(Date.parse(v));
const nil = (v: unknown) => v === null || v === undefined;
/** A value diff, or a key one side leaves out (Marquez's Java client writes NON_NULL, so null is absent there). */
const valueLike = (d: Diff) => d.kind === 'value' || d.kind === 'missing-key' || d.kind === 'extra-key';
const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
/** The `ns:name` (or `type:ns:name`) key of a keyed path's last item. */
const lastKey = (p: string) => /\[([^\]]*)\]$/.exec(p)?.[1] ?? '';
const captureStart = Date.parse(contract.capturedAt) - (contract.timings.total ?? 600) * 1000;
/** A Marquez time that is the wall clock of the capture (after every event time), not an event time. */
const isCaptureTime = (v: unknown) => isTime(v) && Date.parse(v) >= captureStart && Date.parse(v) <= Date.parse(contract.capturedAt);

const JOB_GROUPS = new Set(['job', 'jobs', 'jobs-all', 'runs', 'versions', 'lineage']);
const DATASET_GROUPS = new Set(['dataset', 'datasets']);
const IO_LISTS = new Set(['inputs', 'outputs', 'inputDatasetVersions', 'outputDatasetVersions']);
/** The dataset (`ns:name`) a dataset-keyed path item or a datasetField node id names. */
function datasetOfKey(key: string): string {
  const k = key.replace(/->.*$/, '');
  if (k.startsWith('datasetField:')) return k.slice('datasetField:'.length).replace(/:[^:]*$/, '');
  return k.replace(/^dataset:/, '');
}
/** Every `[key]` of a concrete path. */
const keysOf = (path: string) => [...path.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!);
/** The dataset a request is about (its path `namespaces/{ns}/datasets/{ds}`), as `ns:name`. */
function requestDataset(c: Ctx): string | null {
  const seg = c.r.spec.path;
  const i = seg.indexOf('datasets');
  const ns = seg[1];
  return i === 2 && typeof seg[3] === 'string' && ns && typeof ns === 'object' && 'ns' in ns ? `${ns.ns}:${seg[3]}` : null;
}
/** The namespace a request lists (`namespaces/{ns}/...`). */
function requestNamespace(c: Ctx): string | null {
  const ns = c.r.spec.path[1];
  return c.r.spec.path[0] === 'namespaces' && ns && typeof ns === 'object' && 'ns' in ns ? ns.ns : null;
}
/** Marquez's updatedAt of each job of a jobs list, by `ns:name`. */
function jobTimes(c: Ctx): Map<string, string> {
  return new Map(((c.m?.jobs ?? []) as { namespace: string; name: string; updatedAt: string }[]).map((j) => [`${j.namespace}:${j.name}`, j.updatedAt]));
}
/** The Marquez job object a job path is about (GET job, or an item of a jobs list). */
function mJob(d: Diff, c: Ctx): { latestRun?: { state?: string } | null } | undefined {
  if (c.r.group === 'job') return c.m;
  const key = keysOf(d.path)[0];
  return ((c.m?.jobs ?? []) as { namespace: string; name: string; latestRun?: { state?: string } | null }[]).find((j) => `${j.namespace}:${j.name}` === key);
}
/** The field name of a datasetField id. */
const fieldOf = (id: string) => id.replace(/^.*:/, '');
const ICEBERG_METADATA = new Set(['_file', '_pos', '_deleted', '_spec_id', '_partition', '_row_id', '_last_updated_sequence_number']);

/**
 * Column lineage: the field nodes of Tributary's graph that are reached from the request's dataset
 * only through an input its job's events do not list (see class column-lineage-inputs). Computed on
 * Tributary's graph: a walk from the requested dataset's fields along inEdges (upstream) and
 * outEdges (downstream) that does not take an edge into a column-lineage-only dataset.
 */
function behindColumnOnly(c: Ctx): Set<string> {
  const graph = (c.t?.graph ?? []) as { id: string; inEdges: { destination: string }[]; outEdges: { destination: string }[] }[];
  const byId = new Map(graph.map((n) => [n.id, n]));
  const startDs = c.start ? `${c.start.ns}:${c.start.name}` : '';
  const onlyFor = (outputDs: string, inputDs: string) => [...(facts.columnWriters.get(outputDs) ?? [])].some((job) => facts.columnOnly.get(job)?.has(inputDs));
  const seen = new Set(graph.filter((n) => datasetOfKey(n.id) === startDs).map((n) => n.id));
  const queue = [...seen];
  while (queue.length) {
    const n = byId.get(queue.shift()!);
    if (!n) continue;
    const next = [
      ...n.inEdges.filter((e) => !onlyFor(datasetOfKey(n.id), datasetOfKey(e.destination))).map((e) => e.destination),
      ...n.outEdges.filter((e) => !onlyFor(datasetOfKey(e.destination), datasetOfKey(n.id))).map((e) => e.destination),
    ];
    for (const x of next) {
      if (seen.has(x)) continue;
      seen.add(x);
      queue.push(x);
    }
  }
  return new Set(graph.map((n) => n.id).filter((id) => !seen.has(id)));
}
/** Column lineage: each field node's distance downstream (along Tributary's outEdges) from the requested dataset's fields. */
function downstreamDistance(c: Ctx): Map<string, number> {
  const graph = (c.t?.graph ?? []) as { id: string; outEdges: { destination: string }[] }[];
  const byId = new Map(graph.map((n) => [n.id, n]));
  const startDs = c.start ? `${c.start.ns}:${c.start.name}` : '';
  const dist = new Map(graph.filter((n) => datasetOfKey(n.id) === startDs).map((n) => [n.id, 0]));
  const queue = [...dist.keys()];
  while (queue.length) {
    const id = queue.shift()!;
    for (const e of byId.get(id)?.outEdges ?? []) {
      if (dist.has(e.destination)) continue;
      dist.set(e.destination, dist.get(id)! + 1);
      queue.push(e.destination);
    }
  }
  return dist;
}
const symlinkNamespaces = () => new Set([...facts.symlinks].map((s) => s.replace(/:[^:]*$/, '')));

const ALLOWED: Rule[] = [
  // --- representation -----------------------------------------------------------------------
  {
    id: 'time-precision',
    why: 'The same instant written differently: Marquez writes microseconds (nanoseconds in events) and drops a zero fraction (`11:55:00Z`), Tributary stores and writes milliseconds (`11:55:00.000Z`).',
    match: (d) => d.kind === 'value' && isTime(d.m) && isTime(d.t) && Date.parse(d.m) === Date.parse(d.t),
  },
  {
    id: 'derived-uuids',
    why: "Version and parent uuids: Marquez's are random or hashed from its own rows, Tributary derives its own (UUID v5 of the version's identity). Compared as shape (both UUIDs), not value.",
    match: (d) => d.kind === 'value' && isUuid(d.m) && isUuid(d.t) && ['version', 'currentVersion', 'parentJobUuid', 'currentSchemaVersion', 'datasetVersion'].includes(last(d.shape)),
  },
  {
    id: 'storage-order',
    why: "Order of a dataset's fields and column lineage and of a job's inputs, outputs and dataset versions: Marquez lists them in its tables' storage order (neither the schema's nor by name), Tributary in the schema facet's order (fields) or by name.",
    match: (d) => d.kind === 'order' && (['fields', 'columnLineage', 'inputFields'].includes(last(d.shape)) || IO_LISTS.has(last(d.shape))),
  },
  {
    id: 'lifecycle-state-empty',
    why: 'A dataset (version) without a lifecycle state: Marquez writes "" (its column default), Tributary null.',
    match: (d) => valueLike(d) && ['lastLifecycleState', 'lifecycleState'].includes(last(d.shape)) && d.m === '' && nil(d.t),
  },
  // --- times ---------------------------------------------------------------------------------
  {
    id: 'ingestion-time',
    why: 'Marquez stamps some updatedAt values with the wall clock of ingestion (a job whose last event was a RUNNING one, a dataset named only as an input), Tributary always with event times. On /jobs (ordered by updatedAt) this also changes which jobs make the first page, and on /search the updatedAt shown.',
    match: (d, c) =>
      (d.kind === 'value' && isCaptureTime(d.m) && isTime(d.t)) ||
      (c.r.group === 'jobs-all' && (d.shape === 'jobs' || d.shape === 'jobs[]') && (d.kind === 'order' || d.kind === 'missing-item' || d.kind === 'extra-item')) ||
      (d.kind === 'order' && d.shape === 'jobs' && (() => {
        const times = jobTimes(c);
        const keep = (keys: unknown) => (keys as string[]).filter((k) => !isCaptureTime(times.get(k)));
        return JSON.stringify(keep(d.m)) === JSON.stringify(keep(d.t)) && keep(d.m).length < (d.m as string[]).length;
      })()),
  },
  {
    id: 'updated-at-ties',
    why: 'Jobs with the same updatedAt (the seed completes four jobs at 22:44:52) come in another order: Marquez breaks the tie by its row order, Tributary by job id.',
    match: (d, c) => d.kind === 'order' && d.shape === 'jobs' && JSON.stringify((d.m as string[]).map((k) => jobTimes(c).get(k))) === JSON.stringify((d.t as string[]).map((k) => jobTimes(c).get(k))),
  },
  {
    id: 'first-ingested-vs-earliest',
    why: "Marquez's createdAt of a namespace, job or dataset is the event time of the first event INGESTED that named it (the 1.53 Spark capture, older, was sent after the seed-stack one), and a namespace's updatedAt never moves; Tributary's createdAt is the earliest event time and updatedAt the latest.",
    match: (d, c) => d.kind === 'value' && isTime(d.m) && isTime(d.t) && ((last(d.shape) === 'createdAt' && Date.parse(d.t) < Date.parse(d.m)) || (c.r.group === 'namespaces' && last(d.shape) === 'updatedAt' && Date.parse(d.t) > Date.parse(d.m))),
  },
  {
    id: 'run-started-at',
    why: "A run's startedAt: Marquez moves it to every START or RUNNING event (so durationMs counts from the last RUNNING event), Tributary keeps the first START (durationMs is the whole run).",
    match: (d) => d.kind === 'value' && ((last(d.shape) === 'startedAt' && isTime(d.m) && isTime(d.t) && Date.parse(d.t) < Date.parse(d.m)) || (last(d.shape) === 'durationMs' && typeof d.m === 'number' && typeof d.t === 'number' && d.t > d.m)),
  },
  {
    id: 'nominal-times',
    why: "Run.nominalStartTime/nominalEndTime: Marquez 0.50 leaves them null (it keeps the nominalTime facet's values only in `args`), Tributary reads them from the nominalTime facet.",
    match: (d) => valueLike(d) && ['nominalStartTime', 'nominalEndTime'].includes(last(d.shape)) && !d.shape.includes('facets.') && nil(d.m) && isTime(d.t),
  },
  {
    id: 'last-modified-at',
    why: "Dataset.lastModifiedAt: Marquez 0.50 leaves it null (none of these writes set it), Tributary gives the time of the latest run that wrote the dataset.",
    match: (d) => valueLike(d) && last(d.shape) === 'lastModifiedAt' && nil(d.m) && isTime(d.t),
  },
  {
    id: 'schema-versions',
    why: "DatasetVersion.currentSchemaVersion: Tributary keeps no schema versions (null, which the contract allows); Marquez names one.",
    match: (d, c) => c.r.group === 'versions' && d.kind === 'value' && last(d.shape) === 'currentSchemaVersion' && isUuid(d.m) && d.t === null,
  },
  {
    id: 'column-lineage-union',
    why: "Column lineage of a dataset written by several jobs whose column lineage differs (Spark's CTAS and its adaptive plan, Iceberg's overwrite then row-level replace): Marquez's ColumnLineage/inputFields come from the dataset's current version (and its downstream walk follows only the current version's lineage), Tributary's are the union over every writer, so its graphs hold the older writers' edges and the fields they reach too.",
    match: (d, c) => {
      const multi = (ds: string) => (facts.columnWriters.get(ds)?.size ?? 0) > 1;
      // Column-lineage graphs: the extra nodes and edges of a field of such a dataset.
      if (c.r.group === 'column-lineage' && d.kind === 'extra-item' && ['graph', 'inEdges', 'outEdges'].includes(last(d.shape))) {
        if (lastKey(d.path).split('->').some((id) => id.startsWith('datasetField:') && multi(datasetOfKey(id)))) return true;
        // A node whose every edge leads to a field of such a dataset.
        const n = d.t as { id?: string; inEdges?: { destination: string }[]; outEdges?: { destination: string }[] };
        const others = [...(n.inEdges ?? []), ...(n.outEdges ?? [])].map((e) => e.destination).filter((x) => x !== n.id);
        return last(d.shape) === 'graph' && others.length > 0 && others.every((x) => multi(datasetOfKey(x)));
      }
      if (last(d.shape) !== 'inputFields' || (d.kind !== 'length' && d.kind !== 'extra-item')) return false;
      // The dataset whose column lineage it is: the requested one (GET dataset), else the path's first item (a dataset row or a field node).
      const first = keysOf(d.path)[0];
      return multi((c.r.group === 'dataset' ? requestDataset(c) : first && datasetOfKey(first)) ?? '');
    },
  },
  {
    id: 'dataset-list-facets',
    why: "/namespaces/{ns}/datasets rows: Marquez's list leaves out the facets of some datasets (those its list query does not join to a current version: public.restaurants, public.top_delivery_times ...) that GET /datasets/{ds} shows; Tributary answers the same facets in both.",
    match: (d, c) => c.r.group === 'datasets' && d.kind === 'extra-key' && /^datasets\[\]\.facets\.[^.]+$/.test(d.shape),
  },
  {
    id: 'job-facets-running',
    why: "Job.facets of a job whose runs never completed (Spark's map_partitions_parallel_collection): Marquez shows none (it attaches job facets to a job version, made on completion), Tributary the facets its events sent.",
    match: (d, c) => (c.r.group === 'job' || c.r.group === 'jobs') && d.kind === 'extra-key' && /(^|\.)facets\.[^.]+$/.test(d.shape) && !d.shape.includes('Run') && mJob(d, c)?.latestRun?.state === 'RUNNING',
  },
  {
    id: 'lineage-unfinished-jobs',
    why: "Table lineage walks Marquez's job versions, so a job none of whose runs finished (no version: Spark's map_partitions_parallel_collection) is not in Marquez's graph; Tributary walks the jobs' inputs and outputs and includes it, with its edges.",
    match: (d, c) => {
      if (c.r.group !== 'lineage' || d.kind !== 'extra-item') return false;
      const key = lastKey(d.path);
      const jobs = key.split('->').filter((k) => k.startsWith('job:')).map((k) => k.slice(4));
      return jobs.some((j) => facts.neverFinished.has(j));
    },
  },
  {
    id: 'fields-union',
    why: "Dataset.fields: Marquez lists the schema of the dataset's current version; Tributary the union of every schema an event sent for it (an Iceberg table read with its metadata columns `_file`, `_pos` by a row-level plan).",
    match: (d, c) => {
      if (d.kind !== 'extra-item' || last(d.shape) !== 'fields') return false;
      const owner = keysOf(d.path).slice(0, -1).map(datasetOfKey).pop() ?? requestDataset(c) ?? '';
      return facts.schemaFields.get(owner)?.has(lastKey(d.path)) ?? false;
    },
  },
  {
    id: 'metadata-columns',
    why: "Column lineage: Tributary's field walks leave out table formats' metadata columns (Iceberg `_file`, `_pos` ..., src/lineage/metadata-columns.ts); Marquez draws them as nodes and edges.",
    match: (d, c) => c.r.group === 'column-lineage' && d.kind === 'missing-item' && lastKey(d.path).split('->').some((id) => id.startsWith('datasetField:') && ICEBERG_METADATA.has(fieldOf(id))),
  },
  {
    id: 'column-lineage-behind-unlisted-inputs',
    why: "Column lineage through an input the job's column lineage reads but its events do not list (Spark MERGE's source table, the seed's public.menu_item_id and public.restaurants.menu_item_id): Marquez drops that input field (it keeps only fields of the run's input datasets), so an output field fed only by such inputs has no lineage, and nothing upstream of it is reached; Tributary follows it: extra nodes, edges and inputFields.",
    match: (d, c) => {
      if (c.r.group !== 'column-lineage' || d.kind !== 'extra-item') return false;
      const behind = behindColumnOnly(c);
      const key = lastKey(d.path);
      if (last(d.shape) === 'inputFields') return columnOnlyAny().has(key.replace(/:[^:]*$/, '')) || behind.has(`datasetField:${key}`);
      const onlyInput = (i: { namespace: string; dataset: string; field: string }) => columnOnlyAny().has(`${i.namespace}:${i.dataset}`) || facts.columnOnlyFields.has(`${i.namespace}:${i.dataset}:${i.field}`);
      if (last(d.shape) === 'graph') {
        const n = d.t as { id: string; data?: { inputFields?: { namespace: string; dataset: string; field: string }[] } };
        const inputs = n.data?.inputFields ?? [];
        if (facts.columnOnlyFields.has(n.id.replace(/^datasetField:/, '')) || (inputs.length > 0 && inputs.every(onlyInput))) return true;
      }
      return key.split('->').some((id) => behind.has(id) || (id.startsWith('datasetField:') && columnOnlyAny().has(datasetOfKey(id)) && !facts.listed.has(datasetOfKey(id))));
    },
  },
  {
    id: 'column-lineage-downstream-depth',
    why: "/column-lineage?withDownstream=true&depth=2: Marquez's downstream walk stops one edge short of `depth` (it reaches fields 1 edge downstream, while upstream it goes 2 edges); Tributary walks `depth` edges both ways, so the fields 2 edges downstream (and the edges to them) are only in Tributary's graph.",
    match: (d, c) => {
      if (c.r.group !== 'column-lineage' || d.kind !== 'extra-item') return false;
      const depth = Number((c.r.spec.query ?? []).find(([k]) => k === 'depth')?.[1] ?? 20);
      const dist = downstreamDistance(c);
      const key = lastKey(d.path);
      const target = key.includes('->') ? key.split('->')[1]! : key;
      return last(d.shape) !== 'inputFields' && dist.get(target) === depth;
    },
  },
  {
    id: 'column-lineage-depth-boundary',
    why: "Column lineage: a node at the depth limit lists in Tributary all its inputFields, in Marquez only those whose node the walk reached.",
    match: (d, c) => {
      if (c.r.group !== 'column-lineage' || d.kind !== 'extra-item' || last(d.shape) !== 'inputFields') return false;
      const id = `datasetField:${lastKey(d.path)}`;
      return ![...(c.m?.graph ?? []), ...(c.t?.graph ?? [])].some((n: { id: string }) => n.id === id);
    },
  },
  // --- lineage -------------------------------------------------------------------------------
  {
    id: 'lineage-dataset-start',
    why: "Table lineage from a dataset: Marquez starts from ONE job that touches the dataset, Tributary from all of them (src/marquez/lineage.ts), so Tributary's graph is a superset: extra nodes, and the extra edges that reach them.",
    match: (d, c) => {
      if (c.r.group !== 'lineage' || c.start?.type !== 'dataset' || d.kind !== 'extra-item') return false;
      if (d.shape === 'graph[]') return true;
      const mIds = new Set(((c.m?.graph ?? []) as { id: string }[]).map((n) => n.id));
      const edge = d.t as { origin?: string; destination?: string };
      return (last(d.shape) === 'inEdges' || last(d.shape) === 'outEdges') && (!mIds.has(edge.origin ?? '') || !mIds.has(edge.destination ?? ''));
    },
  },
  {
    id: 'lineage-current-run-uuid',
    why: "JobData.currentRunUuid: Tributary writes it (Marquez 0.51, the contract's version, has it), Marquez 0.50 does not.",
    match: (d, c) => c.r.group === 'lineage' && d.kind === 'extra-key' && d.shape === 'graph[].data.currentRunUuid',
  },
  {
    id: 'lineage-light-run',
    why: "JobData.latestRun in table lineage: Marquez 0.50 gives a light Run (args {}, no dataset versions, facets {}, jobVersion of another kind) or null for jobs whose latest run it cannot join (Spark child jobs); Tributary gives the job's latest run in full, as /jobs does.",
    match: (d, c) =>
      c.r.group === 'lineage' &&
      d.shape.startsWith('graph[].data.latestRun') &&
      ((d.shape === 'graph[].data.latestRun' && d.m === null && d.t !== null) ||
        ((d.kind === 'extra-item' || d.kind === 'extra-key') && /latestRun\.(inputDatasetVersions|outputDatasetVersions|facets|args)/.test(d.shape))),
  },
  // --- runs and versions ---------------------------------------------------------------------
  {
    id: 'run-args',
    why: "Run.args: Marquez copies the nominalTime facet (`nominal_start_time`, as `2020-02-22T22:00Z[UTC]`) and the parent facet (`run_id`, `name`, `namespace`) into string args; Tributary's args are {} (the same data is in the run's facets).",
    match: (d) => d.kind === 'missing-key' && /(^|\.)args\.[a-z_]+$/.test(d.shape),
  },
  {
    id: 'job-versions-when',
    why: "When a job has a version: Marquez makes one for every run that completes (none while a run is only RUNNING, whatever its datasets), Tributary versions a job by its inputs and outputs (none for a run that names no dataset, such as Spark's application-level parent run; one for a running run). So jobVersion/currentVersion are null on one side.",
    match: (d, c) => d.kind === 'value' && (last(d.shape) === 'jobVersion' || (last(d.shape) === 'currentVersion' && JOB_GROUPS.has(c.r.group))) && (d.m === null) !== (d.t === null),
  },
  {
    id: 'dataset-versions-for-reads',
    why: "Marquez also creates a dataset version when a run only READS a dataset (an input-only dataset has a currentVersion and a version listed); Tributary's dataset versions are the runs that wrote it, so an input-only dataset has none.",
    match: (d, c) =>
      (d.kind === 'value' && last(d.shape) === 'currentVersion' && DATASET_GROUPS.has(c.r.group) && isUuid(d.m) && d.t === null) ||
      (c.r.group === 'versions' && ((d.kind === 'missing-item' && d.shape === 'versions[]') || (d.kind === 'value' && d.path === 'totalCount' && (d.m as number) > (d.t as number)))),
  },
  {
    id: 'version-facets-output-only',
    why: "DatasetVersion.facets: Tributary lists the writing run's outputFacets (outputStatistics, icebergCommitReport), which Marquez leaves out of its versions.",
    match: (d, c) => c.r.group === 'versions' && d.kind === 'extra-key' && /^(versions\[\]\.|\[\]\.)?facets\.[^.]+$/.test(d.shape),
  },
  {
    id: 'version-facets-later-reads',
    why: "DatasetVersion.facets: Marquez attaches to a dataset version every facet sent while it was the current version, reads included (a reader's inputStatistics and icebergScanReport, a reader's catalog and schema view of the table); Tributary's version carries the dataset facets its writing run sent, and the input facets that run sent for it.",
    match: (d, c) =>
      c.r.group === 'versions' &&
      (/^(versions\[\]\.|\[\]\.)?facets\.[^.]+\./.test(d.shape) ||
        (d.kind === 'missing-key' && /^(versions\[\]\.|\[\]\.)?facets\.(inputStatistics|icebergScanReport|dataQualityMetrics|dataQualityAssertions|columnLineage)$/.test(d.shape))),
  },
  {
    id: 'column-lineage-versions',
    why: "Column lineage datasetVersion: Marquez names the dataset version each field node belongs to, Tributary keeps no versions of column lineage (null, which the contract allows).",
    match: (d, c) => c.r.group === 'column-lineage' && d.kind === 'value' && last(d.shape) === 'datasetVersion' && isUuid(d.m) && d.t === null,
  },
  // --- jobs ----------------------------------------------------------------------------------
  {
    id: 'documentation-description',
    why: "description of a job or dataset: Marquez 0.50 leaves it null although a documentation facet sent one, Tributary reads it from that facet.",
    match: (d) => valueLike(d) && last(d.shape) === 'description' && !d.shape.includes('facets.') && nil(d.m) && typeof d.t === 'string',
  },
  {
    id: 'job-labels-latest-event',
    why: "Job.labels: Marquez reads them from the LATEST event's jobType facet only (none when that event has none, as for Spark's RDD job orders_by_country.map_partitions_parallel_collection); Tributary keeps the jobType facet it was last sent.",
    match: (d) => d.kind === 'extra-item' && last(d.shape) === 'labels',
  },
  {
    id: 'stream-job-type',
    why: "Job.type: Marquez takes it from the LATEST event's jobType facet and falls back to BATCH when that event has none, so Flink's streaming enrich-orders (only its START carries processingType STREAMING) is BATCH there, while Debezium's pg.0 (every event carries it) is STREAM; Tributary keeps STREAM from the facet it was sent.",
    match: (d) => d.kind === 'value' && last(d.shape) === 'type' && d.m === 'BATCH' && d.t === 'STREAM',
  },
  {
    id: 'column-lineage-inputs',
    why: "Datasets and fields that a job's columnLineage facet reads but its events do not list (the seed's public.menu_item_id, Spark MERGE's source table, the field public.restaurants.menu_item_id that no schema has): Tributary records them, so they are job inputs, input dataset versions, table-lineage nodes and edges, listed datasets and dataset fields; Marquez ignores them.",
    match: (d, c) => {
      if (DATASET_GROUPS.has(c.r.group) && d.kind === 'value' && d.path === 'totalCount') return (d.t as number) > (d.m as number);
      if (d.kind !== 'extra-item' || c.r.group === 'column-lineage') return false;
      const key = lastKey(d.path);
      const owner = keysOf(d.path).slice(0, -1).map(datasetOfKey).pop() ?? requestDataset(c) ?? '';
      switch (last(d.shape)) {
        case 'fields':
          return facts.columnOnlyFields.has(`${owner}:${key}`);
        case 'columnLineage': {
          // An output field whose inputs are all datasets or fields only column lineage names.
          const inputs = ((d.t as { inputFields?: { namespace: string; dataset: string; field: string }[] })?.inputFields ?? []);
          return inputs.length > 0 && inputs.every((i) => columnOnlyAny().has(`${i.namespace}:${i.dataset}`) || facts.columnOnlyFields.has(`${i.namespace}:${i.dataset}:${i.field}`));
        }
        case 'inputFields':
          return columnOnlyAny().has(key.replace(/:[^:]*$/, '')) || facts.columnOnlyFields.has(key);
        case 'datasets':
        case 'inputs':
        case 'inputDatasetVersions':
          return columnOnlyAny().has(key);
        case 'graph':
          return key.startsWith('dataset:') && columnOnlyAny().has(datasetOfKey(key));
        case 'inEdges':
        case 'outEdges': {
          const [from, to] = key.split('->') as [string, string];
          return from.startsWith('dataset:') && to.startsWith('job:') && (facts.columnOnly.get(to.slice(4))?.has(datasetOfKey(from)) ?? false);
        }
        default:
          return false;
      }
    },
  },
  // --- datasets ------------------------------------------------------------------------------
  {
    id: 'symlink-datasets',
    why: "Symlinks (Spark's catalog name of a table path, e.g. `file:/…/warehouse:shop.revenue_audit` for `file:/…/warehouse/shop/revenue_audit`): Marquez makes each identifier a dataset of its own, with the physical dataset's fields, facets, physicalName and source, lists it among the job's inputs and outputs and in search, and leaves non-primary symlinks out of column lineage. Tributary keeps a symlink name as an alias of the physical dataset: listed in its namespace, but without fields or facets of its own, not a job input or output, one search hit with its physical name.",
    match: (d, c) => {
      const req = requestDataset(c);
      if (req && facts.symlinks.has(req)) return true;
      if (requestNamespace(c) && symlinkNamespaces().has(requestNamespace(c)!) && DATASET_GROUPS.has(c.r.group)) return true;
      if (c.r.group === 'search') return keysOf(d.path).some((k) => facts.symlinked.has(datasetOfKey(k)) || facts.symlinks.has(datasetOfKey(k)));
      return keysOf(d.path).some((k) => facts.symlinks.has(datasetOfKey(k)));
    },
  },
  {
    id: 'dataset-facets-merge',
    why: "Dataset.facets: Marquez shows the facets of the dataset's current version (the latest event that wrote or read it); Tributary merges the dataset facets of every event that named it (the latest of each key). So a facet only an earlier write sent (lifecycleStateChange, storage) is only in Tributary's.",
    match: (d, c) => DATASET_GROUPS.has(c.r.group) && d.kind === 'extra-key' && /(^|\.)facets\.[^.]+$/.test(d.shape),
  },
  {
    id: 'lifecycle-state-latest',
    why: "Dataset.lastLifecycleState: Marquez takes it from the current version only (\"\" when the latest write sent none), Tributary keeps the last lifecycle state any event sent (CREATE from Spark's CREATE TABLE).",
    match: (d) => d.kind === 'value' && last(d.shape) === 'lastLifecycleState' && d.m === '' && typeof d.t === 'string',
  },
  {
    id: 'transformations',
    why: "Column lineage transformationType/Description: Marquez 0.50 reads only the 1-0-x fields (null here), Tributary also reads spec 1-2-0 `transformations` (subtype IDENTITY, AGGREGATION ...).",
    match: (d) => valueLike(d) && ['transformationType', 'transformationDescription'].includes(last(d.shape)) && nil(d.m) && typeof d.t === 'string',
  },
  {
    id: 'column-field-type',
    why: "Column lineage fieldType of a pure input node: Marquez writes \"\", Tributary the field's type.",
    match: (d, c) => c.r.group === 'column-lineage' && d.kind === 'value' && last(d.shape) === 'fieldType' && d.m === '' && typeof d.t === 'string',
  },
  // --- lists across namespaces ----------------------------------------------------------------
  {
    id: 'marquez-default-namespace',
    why: "Marquez always has a `default` namespace (created by its schema migration; its empty dataset list answers 200); Tributary lists only namespaces that hold jobs or datasets (404 for the datasets of `default`).",
    match: (d, c) => (c.r.group === 'namespaces' && d.kind === 'missing-item' && (d.path === 'namespaces[default]' || d.path === '[default]')) || (requestNamespace(c) === 'default' && d.path === '(status)' && d.m === 200 && d.t === 404),
  },
  {
    id: 'events-as-received',
    why: "/events/lineage: Marquez re-serializes each event through its OpenLineage model, writing every absent optional field and known facet as null (`inputs: null`, `parent: null`, `schemaURL: null` ...); Tributary returns the event exactly as received.",
    match: (d, c) => c.r.group === 'events' && d.kind === 'missing-key' && d.m === null,
  },
  {
    id: 'events-tie-order',
    why: '/events/lineage: events with the same eventTime come in another order (Marquez: insertion; Tributary: event id).',
    match: (d, c) => {
      if (c.r.group !== 'events' || d.kind !== 'order') return false;
      const time = (k: string) => k.replace(/^.*@/, '');
      return JSON.stringify((d.m as string[]).map(time)) === JSON.stringify((d.t as string[]).map(time));
    },
  },
  {
    id: 'search-ranking',
    why: "/search order: Marquez orders by type then name (its `sort` is a no-op), Tributary ranks by how the name matches (exact, prefix, segment, word).",
    match: (d, c) => c.r.group === 'search' && d.kind === 'order',
  },
  {
    id: 'search-matching',
    why: "/search matching: Marquez matches a substring of the job or dataset name, Tributary the words of names, namespaces and descriptions by prefix (so it also finds a job whose description says 'customers'). totalCount, being the page length, follows.",
    match: (d, c) => c.r.group === 'search' && ((d.kind === 'extra-item' && d.shape === 'results[]') || (d.kind === 'value' && d.path === 'totalCount')),
  },
  {
    id: 'shared-database',
    why: "Test environment, not Tributary: tags and sources are global (other tests' tags are listed; a source's times span every test's datasets of that source), and when a list across namespaces that the test cannot page itself (a search, or a client's namespaces or events) is full, other tests' copies of the same names push some of this test's out of the page.",
    match: (d, c) => (c.r.group === 'tags' && d.kind === 'extra-item') || (c.r.group === 'sources' && d.kind === 'value' && ['createdAt', 'updatedAt'].includes(d.path) && isTime(d.m) && isTime(d.t)) || (c.note === 'crowded' && (d.kind === 'missing-item' || d.kind === 'order' || (d.kind === 'length' && (d.t as number) < (d.m as number)) || (d.path === 'totalCount' && (d.t as number) < (d.m as number)))),
  },
  {
    id: 'source-type',
    why: "Source.type: Marquez 0.50 types every source it learns from OpenLineage POSTGRESQL (its default), Tributary by the connection URI's scheme (POSTGRES, KAFKA, FILE ...).",
    match: (d, c) => c.r.group === 'sources' && d.kind === 'value' && d.path === 'type' && d.m === 'POSTGRESQL' && typeof d.t === 'string',
  },
  {
    id: 'job-version-latest-run-facets',
    why: "JobVersion.latestRun.facets (Java client's getJobVersion/listJobVersions): Marquez fills them with that run's JOB facets (sql, jobType, documentation), Tributary with its run facets, as in every other Run.",
    match: (d, c) => c.r.group === 'job-versions' && (d.kind === 'missing-key' || d.kind === 'extra-key') && /latestRun\.facets\.[^.]+$/.test(d.shape),
  },
  {
    id: 'java-client-sets',
    why: "Marquez's Java client models lineage graphs and edges as Sets: their order in the client's re-serialized result is the set's, not the server's.",
    match: (d, c) => c.r.request.startsWith('java ') && d.kind === 'order',
  },
  // --- errors and Marquez's own failures -------------------------------------------------------
  {
    id: 'marquez-5xx',
    why: "Marquez 0.50 answers GET /api/v1/sources with 500 (NullPointerException: connectionUrl) once any dataset had no dataSource facet (its `default` source has no URL); Tributary answers the list.",
    match: (d, c) => d.path === '(status)' && typeof d.m === 'number' && d.m >= 500 && d.t === 200 && c.r.group === 'sources',
  },
  {
    id: 'run-facets-empty',
    why: "/jobs/runs/{id}/facets of a run whose events sent no facets of that type: Marquez answers 200 with an empty body, Tributary `{runId, facets: {}}`.",
    match: (d, c) => c.r.group === 'run-facets' && d.path === '' && d.m === null && Object.keys((d.t as { facets?: object })?.facets ?? { x: 1 }).length === 0,
  },
  {
    id: 'column-lineage-downstream-of-sources',
    why: "/column-lineage?withDownstream=true on a dataset whose fields have no upstream lineage (public.categories): Marquez answers {graph: []}, Tributary the downstream fields.",
    match: (d, c) => c.r.group === 'errors' && c.r.request.includes('column-lineage') && d.kind === 'extra-item' && d.shape === 'graph[]' && Array.isArray(c.m?.graph) && c.m.graph.length === 0,
  },
];

export function explain(d: Diff, c: Ctx): Rule | undefined {
  return ALLOWED.find((rule) => rule.match(d, c));
}

export function collectFacts(event: Record<string, any>): void {
  const job = `${event.job?.namespace}:${event.job?.name}`;
  const listed = facts.jobListed.get(job) ?? new Set<string>();
  facts.jobListed.set(job, listed);
  const reads = new Set<string>();
  for (const d of [...(event.inputs ?? []), ...(event.outputs ?? [])]) {
    facts.listed.add(`${d.namespace}:${d.name}`);
    listed.add(`${d.namespace}:${d.name}`);
    const schema = facts.schemaFields.get(`${d.namespace}:${d.name}`) ?? new Set<string>();
    facts.schemaFields.set(`${d.namespace}:${d.name}`, schema);
    for (const f of d.facets?.schema?.fields ?? []) schema.add(f.name);
    for (const s of d.facets?.symlinks?.identifiers ?? []) {
      facts.symlinks.add(`${s.namespace}:${s.name}`);
      facts.symlinked.add(`${d.namespace}:${d.name}`);
    }
    if (d.inputFacets && typeof d.inputFacets === 'object') {
      const keys = facts.inputFacets.get(`${d.namespace}:${d.name}`) ?? new Set<string>();
      facts.inputFacets.set(`${d.namespace}:${d.name}`, keys);
      for (const k of Object.keys(d.inputFacets)) keys.add(k);
    }
    if (d.facets?.columnLineage) {
      const writers = facts.columnWriters.get(`${d.namespace}:${d.name}`) ?? new Set<string>();
      facts.columnWriters.set(`${d.namespace}:${d.name}`, writers.add(job));
    }
    // Dataset-level column lineage (spec 1-2-0 `dataset`) names fields too.
    for (const i of (d.facets?.columnLineage?.dataset ?? []) as { namespace: string; name: string; field: string }[]) facts.columnInputFields.add(`${i.namespace}:${i.name}:${i.field}`);
    for (const f of Object.values((d.facets?.columnLineage?.fields ?? {}) as Record<string, { inputFields?: { namespace: string; name: string; field: string }[] }>)) {
      for (const i of f.inputFields ?? []) {
        facts.columnInputFields.add(`${i.namespace}:${i.name}:${i.field}`);
        reads.add(`${i.namespace}:${i.name}`);
      }
    }
  }
  if (['COMPLETE', 'FAIL', 'ABORT'].includes(event.eventType)) facts.finished.add(job);
  const only = facts.columnOnly.get(job) ?? new Set<string>();
  facts.columnOnly.set(job, only);
  for (const r of reads) only.add(r);
}

/** After all events: what column lineage reads that the events do not list, per job; the fields no schema has. */
export function settleFacts(): void {
  for (const job of facts.jobListed.keys()) if (!facts.finished.has(job)) facts.neverFinished.add(job);
  for (const [job, only] of facts.columnOnly) for (const d of [...only]) if (facts.jobListed.get(job)?.has(d)) only.delete(d);
  for (const f of facts.columnInputFields) {
    const ds = f.replace(/:[^:]*$/, '');
    if (!facts.schemaFields.get(ds)?.has(f.slice(ds.length + 1))) facts.columnOnlyFields.add(f);
  }
}
