import { parseJsonProperty } from '../graph/mappers';
import { derivedUuid } from '../ids';

/**
 * Marquez's response shapes (../shared/marquez-api/CONTRACT.md, read from Marquez 0.51.1) and the
 * pure mapping from Tributary's rows to them. Every optional value is written out as null, as
 * Marquez's object mapper does; times are Tributary's event times (ISO-8601 UTC, milliseconds).
 */

export type Json = Record<string, unknown>;
export interface MarquezDatasetId {
  namespace: string;
  name: string;
}

/** `[[key, json], ...]` as the marquez/*.cypher queries read facet lists → `{key: parsed}`. */
export function facetsOf(pairs: [string, string][] | null | undefined): Json {
  const out: Json = {};
  for (const [key, json] of pairs ?? []) out[key] = parseJsonProperty(json);
  return out;
}

/** Marquez's source name of a dataset without a dataSource facet. */
export const DEFAULT_SOURCE = 'default';

/** Marquez's run state of an OpenLineage event type (START and RUNNING are both RUNNING). */
export function runState(state: string | null): string {
  switch (state) {
    case 'START':
    case 'RUNNING':
      return 'RUNNING';
    case 'COMPLETE':
      return 'COMPLETED';
    case 'FAIL':
      return 'FAILED';
    case 'ABORT':
      return 'ABORTED';
    case 'OTHER':
      return 'OTHER';
    default:
      return 'NEW';
  }
}

/** The Tributary run states (OpenLineage event types) a Marquez run state stands for. */
export const TRIBUTARY_STATES: Record<string, string[]> = {
  NEW: [],
  RUNNING: ['START', 'RUNNING'],
  COMPLETED: ['COMPLETE'],
  FAILED: ['FAIL'],
  ABORTED: ['ABORT'],
  OTHER: ['OTHER'],
};

/** The version UUID of a dataset as a run wrote it (null run: the dataset before any run wrote it). */
export const datasetVersionUuid = (dsId: string, runNodeId: string | null): string => derivedUuid(runNodeId ? `${dsId}#${runNodeId}` : dsId);

export interface RunRow {
  run: {
    id: string;
    runId: string;
    state: string | null;
    startedAt: string | null;
    endedAt: string | null;
    firstSeen: string | null;
    lastSeen: string | null;
    nominalStartTime: string | null;
    nominalEndTime: string | null;
    facets: [string, string][];
  };
  job: { id: string; namespace: string; name: string };
  versionId: string | null;
  inputs: IoRow[];
  outputs: IoRow[];
}
interface IoRow {
  datasetId: string;
  namespace: string;
  name: string;
  versionRunId: string | null;
  facets: [string, string][];
}

export function runShape(row: RunRow): Json {
  const r = row.run;
  const started = r.startedAt ? Date.parse(r.startedAt) : NaN;
  const ended = r.endedAt ? Date.parse(r.endedAt) : NaN;
  const io = (rows: IoRow[]) =>
    rows.map((x) => ({
      datasetVersionId: { namespace: x.namespace, name: x.name, version: datasetVersionUuid(x.datasetId, x.versionRunId) },
      facets: facetsOf(x.facets),
    }));
  return {
    id: r.runId,
    createdAt: r.firstSeen,
    updatedAt: r.lastSeen,
    nominalStartTime: r.nominalStartTime ?? null,
    nominalEndTime: r.nominalEndTime ?? null,
    state: runState(r.state),
    startedAt: r.startedAt ?? null,
    endedAt: r.endedAt ?? null,
    durationMs: Number.isNaN(started) || Number.isNaN(ended) ? null : ended - started,
    args: {},
    jobVersion: row.versionId ? { namespace: row.job.namespace, name: row.job.name, version: derivedUuid(row.versionId) } : null,
    inputDatasetVersions: io(row.inputs),
    outputDatasetVersions: io(row.outputs),
    facets: facetsOf(r.facets),
  };
}

export interface JobRow {
  job: {
    id: string;
    namespace: string;
    name: string;
    description: string | null;
    processingType: string | null;
    jobType: string | null;
    integration: string | null;
    sourceCodeUrl: string | null;
    firstSeen: string | null;
    lastSeen: string | null;
    facets: [string, string][];
  };
  inputs: MarquezDatasetId[];
  outputs: MarquezDatasetId[];
  runIds: string[];
  versionId: string | null;
  parent: { id: string; namespace: string; name: string } | null;
  tags: string[];
  hidden: boolean;
}

/** Marquez's job type: STREAM for a streaming job (processingType), BATCH otherwise. */
export const jobType = (processingType: string | null): string => (processingType?.toUpperCase() === 'STREAMING' ? 'STREAM' : 'BATCH');

/** The fields Marquez's Job and its lineage JobData share. */
function jobCore(row: JobRow, latestRun: Json | null): Json {
  const j = row.job;
  return {
    id: { namespace: j.namespace, name: j.name },
    type: jobType(j.processingType),
    name: j.name,
    simpleName: row.parent && j.name.startsWith(`${row.parent.name}.`) ? j.name.slice(row.parent.name.length + 1) : j.name,
    parentJobName: row.parent?.name ?? null,
    parentJobUuid: row.parent ? derivedUuid(row.parent.id) : null,
    createdAt: j.firstSeen,
    updatedAt: j.lastSeen,
    namespace: j.namespace,
    inputs: row.inputs,
    outputs: row.outputs,
    location: j.sourceCodeUrl ?? null,
    description: j.description ?? null,
    latestRun,
  };
}

/** Marquez's Job; `runs` are the job's newest runs in Run shape, newest first (at most ten). */
export function jobShape(row: JobRow, runs: Json[]): Json {
  return {
    ...jobCore(row, runs[0] ?? null),
    latestRuns: runs.length ? runs : null,
    facets: facetsOf(row.job.facets),
    currentVersion: row.versionId ? derivedUuid(row.versionId) : null,
    // Marquez's labels: the jobType facet's jobType and integration (QUERY, SQL; SQL_JOB, SPARK).
    labels: [row.job.jobType, row.job.integration].filter((l): l is string => typeof l === 'string' && l.length > 0),
    tags: row.tags,
  };
}

/** A job node's `data` in Marquez's table lineage. */
export function jobData(row: JobRow, latestRun: Json | null): Json {
  return { ...jobCore(row, latestRun), currentRunUuid: latestRun ? latestRun.id : null };
}

export interface DatasetRow {
  dataset: {
    id: string;
    namespace: string;
    name: string;
    description: string | null;
    sourceName: string | null;
    lifecycleState: string | null;
    firstSeen: string | null;
    lastSeen: string | null;
    facets: [string, string][];
  };
  fields: { name: string; type: string | null; description: string | null; tags: string[] }[];
  tags: string[];
  hidden: boolean;
  latestWrite: { runId: string; at: string | null } | null;
  /** The input facets of the dataset's latest read (Marquez merges them into the dataset's facets). */
  inputFacets: [string, string][];
  columnLineage: { field: string; inputs: { namespace: string; dataset: string; field: string; transformations: string | null }[] }[];
}

/** Marquez's transformationType and Description of an edge's transformations (spec 1-2-0 list as stored). */
export function transformationOf(json: string | null): { transformationDescription: string | null; transformationType: string | null } {
  const list = parseJsonProperty(json);
  const entries = Array.isArray(list) ? (list as { type?: unknown; subtype?: unknown; description?: unknown }[]) : [];
  const first = entries.find((t) => t?.type === 'DIRECT') ?? entries[0];
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  return { transformationDescription: text(first?.description), transformationType: text(first?.subtype) ?? text(first?.type) };
}

/** What every Marquez shape of a dataset (Dataset, DatasetData, DatasetVersion) says of its identity. */
function datasetIdentity(d: DatasetRow['dataset']): Json {
  return { id: { namespace: d.namespace, name: d.name }, type: 'DB_TABLE', name: d.name, physicalName: d.name, namespace: d.namespace, sourceName: d.sourceName ?? DEFAULT_SOURCE };
}

/** The fields Marquez's Dataset and its lineage DatasetData share. */
function datasetCore(row: DatasetRow): Json {
  const d = row.dataset;
  return {
    ...datasetIdentity(d),
    createdAt: d.firstSeen,
    updatedAt: d.lastSeen,
    fields: inSchemaOrder(row).map((f) => ({ name: f.name, type: f.type ?? null, tags: f.tags, description: f.description ?? null })),
    tags: row.tags,
    lastModifiedAt: row.latestWrite?.at ?? null,
    lastLifecycleState: d.lifecycleState ?? null,
    description: d.description ?? null,
  };
}

/** The fields in the order of the latest schema facet (as Marquez lists them), the others after by name. */
function inSchemaOrder(row: DatasetRow): DatasetRow['fields'] {
  const schema = row.dataset.facets.find(([key]) => key === 'schema');
  const listed = (parseJsonProperty(schema?.[1]) as { fields?: { name?: unknown }[] } | null)?.fields;
  if (!Array.isArray(listed)) return row.fields;
  const position = new Map(listed.map((f, i) => [typeof f?.name === 'string' ? f.name : '', i]));
  const at = (name: string) => position.get(name) ?? Number.MAX_SAFE_INTEGER;
  return [...row.fields].sort((a, b) => at(a.name) - at(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Marquez's Dataset: columnLineage null (never []) when the dataset has none, as the UI tests truthiness. */
export function datasetShape(row: DatasetRow): Json {
  const d = row.dataset;
  const columnLineage = row.columnLineage.map((c) => {
    const inputFields = c.inputs.map((i) => ({ namespace: i.namespace, dataset: i.dataset, field: i.field, ...transformationOf(i.transformations) }));
    return { name: c.field, inputFields, ...(inputFields[0] ? { transformationDescription: inputFields[0].transformationDescription, transformationType: inputFields[0].transformationType } : { transformationDescription: null, transformationType: null }) };
  });
  return {
    ...datasetCore(row),
    currentVersion: row.latestWrite ? datasetVersionUuid(d.id, row.latestWrite.runId) : null,
    columnLineage: columnLineage.length ? columnLineage : null,
    // The dataset facets win over the input facets of its latest read (dataQualityAssertions, inputStatistics).
    facets: { ...facetsOf(row.inputFacets), ...facetsOf(d.facets) },
    deleted: d.lifecycleState?.toUpperCase() === 'DROP',
  };
}

/** A dataset node's `data` in Marquez's table lineage (no facets, column lineage or deleted). */
export const datasetData = (row: DatasetRow): Json => datasetCore(row);

export interface VersionRow {
  runId: string;
  createdAt: string | null;
  fields: string[] | null;
}

/**
 * Marquez's DatasetVersion: one per run that wrote the dataset; `run` in Run shape (null if unknown),
 * `facets` the dataset facets that run's events sent for it (its lifecycleState comes from them).
 */
export function datasetVersionShape(ds: DatasetRow, v: VersionRow, run: Json | null, facets: Json): Json {
  const d = ds.dataset;
  const types = new Map(ds.fields.map((f) => [f.name, f]));
  const names = v.fields ?? ds.fields.map((f) => f.name);
  const lifecycle = (facets.lifecycleStateChange as { lifecycleStateChange?: unknown } | undefined)?.lifecycleStateChange;
  return {
    ...datasetIdentity(d),
    createdAt: v.createdAt,
    version: datasetVersionUuid(d.id, v.runId),
    fields: names.map((name) => {
      const f = types.get(name);
      return { name, type: f?.type ?? null, tags: f?.tags ?? [], description: f?.description ?? null };
    }),
    tags: ds.tags,
    lifecycleState: typeof lifecycle === 'string' ? lifecycle : null,
    description: d.description ?? null,
    currentSchemaVersion: null,
    createdByRun: run,
    facets,
  };
}
