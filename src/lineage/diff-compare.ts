import { cmp } from './common';
import { coverageFigures, type CoverageFigures } from './coverage-service';
import { ChangeCause, DiffChangeKind, IoDirection } from './types';

/**
 * Lineage diff, the pure part: a scope's lineage at one time (a snapshot: one row per job edge,
 * read by cypher/analytics/diff-snapshot.cypher) and the changes between two snapshots. No I/O.
 */

/** One row of diff-snapshot.cypher. */
export interface SnapshotRow {
  jobId: string;
  namespace: string;
  engine: string;
  direction: IoDirection;
  datasetId: string;
  /** The run whose IO this edge is (null: a static edge from JobEvents). */
  runId: string | null;
  /** Whether that run's report of the dataset was kept (runs projected before reports were kept: no). */
  recorded: boolean;
  decidedRunId: string | null;
  decidedRecorded: boolean | null;
  cllFields: string[] | null;
  cllWhole: boolean | null;
  /** Distinct fields of the run's schema and the deciding run's column lineage. */
  reportedFields: number | null;
  anyCll: boolean | null;
  anyFields: number | null;
  anyWithInputs: number | null;
}

/** A job's edge to a dataset at one time (the run as in its snapshot row). */
export interface EdgeState extends Pick<SnapshotRow, 'jobId' | 'namespace' | 'engine' | 'direction' | 'datasetId' | 'runId' | 'recorded'> {
  /** Outputs only (else false / null / 0). */
  columnLevel: boolean;
  /** The run that decided the granularity (null: none did; then the job's column lineage seen by then counts). */
  decidedRunId: string | null;
  decidedRecorded: boolean;
  /** The run's schema paths, once read (withReports); null until then or when not recorded. */
  fields: string[] | null;
  /** Column-lineage pairs `[inputFieldId, outputField | null]` of the deciding run, once read; else null. */
  pairs: [string, string | null][] | null;
  outputFields: number;
  fieldsWithInputs: number;
}

export interface Snapshot {
  /** The time (null: current lineage). */
  at: string | null;
  edges: Map<string, EdgeState>;
  /** True when the scope had more edges than the cap: the snapshot is partial. */
  truncated: boolean;
}

export interface DiffChange {
  kind: DiffChangeKind;
  jobId: string | null;
  datasetId: string | null;
  direction: IoDirection | null;
  /** FIELD_*: the dataset's field; FIELD_EDGE_*: the output field (null: the whole output). */
  field: string | null;
  /** FIELD_EDGE_*: the input field id. */
  inputFieldId: string | null;
  /** The runs the edge was read from at each end (null where absent or static). */
  fromRunId: string | null;
  toRunId: string | null;
  /** GRANULARITY_*: the likely cause, and the producers of the two deciding runs. */
  cause: ChangeCause | null;
  fromProducer: string | null;
  toProducer: string | null;
}

/** What produced a run (cypher/analytics/run-provenance.cypher). */
export interface Provenance {
  runId: string;
  producer: string | null;
  engineName: string | null;
  engineVersion: string | null;
  adapterVersion: string | null;
  codeSig: string | null;
}

const edgeKey = (jobId: string, direction: string, datasetId: string) => `${jobId}\u0000${direction}\u0000${datasetId}`;

/**
 * Edge states from snapshot rows. Column level (some output field with an input through the job,
 * as coverage counts it): with a time, from the deciding run's report when it was recorded, else
 * from any column lineage of the job into the dataset seen by then; for current lineage (at null),
 * from the figures coverage keeps on the edge, so they equal `coverage`.
 */
export function toSnapshot(rows: SnapshotRow[], at: string | null, truncated: boolean): Snapshot {
  const edges = new Map<string, EdgeState>();
  for (const r of rows) {
    const output = r.direction === IoDirection.OUTPUT;
    const recorded = output && at !== null && r.decidedRecorded === true;
    const cllFields = r.cllFields ?? [];
    let outputFields = 0;
    let fieldsWithInputs = 0;
    if (recorded) {
      outputFields = r.reportedFields ?? 0;
      fieldsWithInputs = r.cllWhole ? outputFields : cllFields.length;
    } else if (output) {
      outputFields = r.anyFields ?? 0;
      fieldsWithInputs = r.anyWithInputs ?? 0;
    }
    // As coverage counts it: column level when some output field has an input through the job.
    const columnLevel = output && (recorded ? fieldsWithInputs > 0 : r.anyCll === true);
    edges.set(edgeKey(r.jobId, r.direction, r.datasetId), {
      jobId: r.jobId,
      namespace: r.namespace,
      engine: r.engine,
      direction: r.direction,
      datasetId: r.datasetId,
      runId: r.runId,
      recorded: r.recorded,
      fields: null,
      columnLevel,
      decidedRunId: output ? r.decidedRunId : null,
      decidedRecorded: output && r.decidedRecorded === true,
      pairs: null,
      outputFields,
      fieldsWithInputs,
    });
  }
  return { at, edges, truncated };
}

/** Coverage of a snapshot's output edges, like `coverage` for the same scope. */
export function snapshotCoverage(key: string, s: Snapshot): CoverageFigures {
  return coverageBy(s, () => key).get(key) ?? coverageFigures(key, 0, 0, 0, 0);
}

/** Coverage of a snapshot's output edges per group (`groupOf` of each edge), in one pass; groups without output edges absent. */
export function coverageBy(s: Snapshot, groupOf: (e: EdgeState) => string): Map<string, CoverageFigures> {
  // As coverage counts them: the output edges of a job without inputs apart (noInputEdges).
  const reading = new Set([...s.edges.values()].filter((e) => e.direction === IoDirection.INPUT).map((e) => e.jobId));
  const sums = new Map<string, [number, number, number, number, number]>();
  for (const e of s.edges.values()) {
    if (e.direction !== IoDirection.OUTPUT) continue;
    const key = groupOf(e);
    const t = sums.get(key) ?? [0, 0, 0, 0, 0];
    if (!reading.has(e.jobId)) {
      t[4]++;
    } else {
      t[0]++;
      if (e.columnLevel) t[1]++;
      t[2] += e.outputFields;
      t[3] += e.fieldsWithInputs;
    }
    sums.set(key, t);
  }
  return new Map(
    [...sums].map(([key, [edges, columnLevel, outputFields, withInputs, noInput]]) => [key, coverageFigures(key, edges, columnLevel, outputFields, withInputs, noInput)]),
  );
}

export interface Comparison {
  /** Every change, in the order of DiffChangeKind, then job id, dataset id, field, input field id. */
  changes: DiffChange[];
  /** Edges present at both times whose fields or field edges could not be compared (runs projected before reports were kept). */
  unrecorded: number;
}

const KIND_ORDER = Object.values(DiffChangeKind);

/** The changes from snapshot `a` to snapshot `b`. */
export function compare(a: Snapshot, b: Snapshot): Comparison {
  const changes: DiffChange[] = [];
  const add = (kind: DiffChangeKind, c: Partial<DiffChange>) =>
    changes.push({
      kind,
      jobId: null,
      datasetId: null,
      direction: null,
      field: null,
      inputFieldId: null,
      fromRunId: null,
      toRunId: null,
      cause: null,
      fromProducer: null,
      toProducer: null,
      ...c,
    });
  const nodes = (s: Snapshot, f: (e: EdgeState) => string) => new Set([...s.edges.values()].map(f));
  for (const [kind, gone, f] of [
    [DiffChangeKind.JOB_APPEARED, DiffChangeKind.JOB_DISAPPEARED, (e: EdgeState) => e.jobId],
    [DiffChangeKind.DATASET_APPEARED, DiffChangeKind.DATASET_DISAPPEARED, (e: EdgeState) => e.datasetId],
  ] as const) {
    const before = nodes(a, f);
    const after = nodes(b, f);
    const field = kind === DiffChangeKind.JOB_APPEARED ? 'jobId' : 'datasetId';
    for (const id of after) if (!before.has(id)) add(kind, { [field]: id });
    for (const id of before) if (!after.has(id)) add(gone, { [field]: id });
  }
  const unrecorded = new Set<string>();
  for (const [key, e] of b.edges) {
    const old = a.edges.get(key);
    const ref = { jobId: e.jobId, datasetId: e.datasetId, direction: e.direction };
    if (!old) {
      add(DiffChangeKind.EDGE_APPEARED, { ...ref, toRunId: e.runId });
      continue;
    }
    if (old.columnLevel !== e.columnLevel) {
      add(old.columnLevel ? DiffChangeKind.GRANULARITY_REGRESSED : DiffChangeKind.GRANULARITY_IMPROVED, {
        ...ref,
        fromRunId: old.decidedRunId,
        toRunId: e.decidedRunId,
      });
    }
    if (e.direction === IoDirection.OUTPUT && old.decidedRunId !== e.decidedRunId && old.decidedRunId && e.decidedRunId) {
      if (old.pairs && e.pairs) {
        const key2 = (p: [string, string | null]) => JSON.stringify(p);
        const before = new Map(old.pairs.map((p) => [key2(p), p]));
        const after = new Map(e.pairs.map((p) => [key2(p), p]));
        const runs = { fromRunId: old.decidedRunId, toRunId: e.decidedRunId };
        for (const [k, [input, field]] of after) if (!before.has(k)) add(DiffChangeKind.FIELD_EDGE_APPEARED, { ...ref, ...runs, field, inputFieldId: input });
        for (const [k, [input, field]] of before) if (!after.has(k)) add(DiffChangeKind.FIELD_EDGE_DISAPPEARED, { ...ref, ...runs, field, inputFieldId: input });
      } else if (!(old.decidedRecorded && e.decidedRecorded)) unrecorded.add(key);
    }
    if ((old.runId !== null && !old.recorded) || (e.runId !== null && !e.recorded)) unrecorded.add(key);
  }
  for (const [key, e] of a.edges) {
    if (!b.edges.has(key)) add(DiffChangeKind.EDGE_DISAPPEARED, { jobId: e.jobId, datasetId: e.datasetId, direction: e.direction, fromRunId: e.runId });
  }
  compareFields(a, b, add);
  changes.sort(
    (x, y) =>
      KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind) ||
      cmp(x.jobId ?? '', y.jobId ?? '') ||
      cmp(x.datasetId ?? '', y.datasetId ?? '') ||
      cmp(x.direction ?? '', y.direction ?? '') ||
      cmp(x.field ?? '', y.field ?? '') ||
      cmp(x.inputFieldId ?? '', y.inputFieldId ?? ''),
  );
  return { changes, unrecorded: unrecorded.size };
}

/**
 * Fields of datasets present at both times: the union of the schemas the scope's runs reported
 * for the dataset at each time. Compared only where every edge to it has a recorded run report at
 * both times, some run reported a schema at both times (no schema reported says nothing about its
 * fields), and the runs differ (the same runs report the same fields).
 */
function compareFields(a: Snapshot, b: Snapshot, add: (kind: DiffChangeKind, c: Partial<DiffChange>) => void): void {
  const before = touching(a);
  const after = touching(b);
  for (const [ds, now] of after) {
    const then = before.get(ds);
    if (!then || !comparable(then, now)) continue;
    const schema = (edges: EdgeState[]) => new Set(edges.flatMap((e) => e.fields ?? []));
    const [x, y] = [schema(then), schema(now)];
    if (x.size === 0 || y.size === 0) continue;
    for (const f of y) if (!x.has(f)) add(DiffChangeKind.FIELD_APPEARED, { datasetId: ds, field: f });
    for (const f of x) if (!y.has(f)) add(DiffChangeKind.FIELD_DISAPPEARED, { datasetId: ds, field: f });
  }
}

/** The edges of a snapshot by dataset. */
function touching(s: Snapshot): Map<string, EdgeState[]> {
  const out = new Map<string, EdgeState[]>();
  for (const e of s.edges.values()) out.set(e.datasetId, [...(out.get(e.datasetId) ?? []), e]);
  return out;
}

/** Whether a dataset's fields can differ between its edges at two times: all recorded, other runs. */
function comparable(then: EdgeState[], now: EdgeState[]): boolean {
  if (![...then, ...now].every((e) => e.runId !== null && e.recorded)) return false;
  const runs = (edges: EdgeState[]) => edges.map((e) => `${edgeKey(e.jobId, e.direction, e.datasetId)}\u0000${e.runId}`).sort().join('\u0001');
  return runs(then) !== runs(now);
}

/** A run's report of one dataset to read (run-reports.cypher). */
export interface ReportRef {
  runId: string;
  datasetId: string;
  direction: IoDirection;
}

/** What run-reports.cypher answers for a ReportRef. */
export interface Report extends ReportRef {
  fields: string[] | null;
  cllPairs: string[] | null;
}

/** The run reports `compare` needs: the schemas of datasets whose runs differ, the pairs of output edges whose deciding runs differ. */
export function reportsNeeded(a: Snapshot, b: Snapshot): ReportRef[] {
  const out = new Map<string, ReportRef>();
  const need = (runId: string, datasetId: string, direction: IoDirection) => out.set(`${runId}\u0000${datasetId}\u0000${direction}`, { runId, datasetId, direction });
  const before = touching(a);
  for (const [ds, now] of touching(b)) {
    const then = before.get(ds);
    if (then && comparable(then, now)) for (const e of [...then, ...now]) need(e.runId!, e.datasetId, e.direction);
  }
  for (const [key, e] of b.edges) {
    const old = a.edges.get(key);
    if (!old || e.direction !== IoDirection.OUTPUT || old.decidedRunId === e.decidedRunId || !old.decidedRunId || !e.decidedRunId) continue;
    if (old.decidedRecorded && e.decidedRecorded) {
      need(old.decidedRunId, e.datasetId, IoDirection.OUTPUT);
      need(e.decidedRunId, e.datasetId, IoDirection.OUTPUT);
    }
  }
  return [...out.values()];
}

/** Puts the reports read into a snapshot: each edge's schema, each output edge's deciding-run pairs. */
export function withReports(s: Snapshot, reports: Report[]): void {
  const byKey = new Map(reports.map((r) => [`${r.runId}\u0000${r.datasetId}\u0000${r.direction}`, r]));
  for (const e of s.edges.values()) {
    if (e.runId) e.fields = byKey.get(`${e.runId}\u0000${e.datasetId}\u0000${e.direction}`)?.fields ?? null;
    const pairs = e.decidedRunId ? byKey.get(`${e.decidedRunId}\u0000${e.datasetId}\u0000${IoDirection.OUTPUT}`)?.cllPairs : null;
    e.pairs = pairs ? pairs.map((p) => JSON.parse(p) as [string, string | null]) : null;
  }
}

/** Fills cause and producers of the granularity changes (GRANULARITY_*) from the deciding runs' provenance. */
export function withCauses(changes: DiffChange[], provenance: Map<string, Provenance>): void {
  for (const c of changes) {
    if (c.kind !== DiffChangeKind.GRANULARITY_REGRESSED && c.kind !== DiffChangeKind.GRANULARITY_IMPROVED) continue;
    const a = c.fromRunId ? provenance.get(c.fromRunId) : undefined;
    const b = c.toRunId ? provenance.get(c.toRunId) : undefined;
    c.fromProducer = a?.producer ?? null;
    c.toProducer = b?.producer ?? null;
    c.cause = a && b ? causeOf(a, b) : ChangeCause.UNKNOWN;
  }
}

/** The first difference between two runs' provenance that explains a change (ChangeCause order). */
export function causeOf(a: Provenance, b: Provenance): ChangeCause {
  if (a.producer !== b.producer) {
    return a.producer && b.producer && unversioned(a.producer) === unversioned(b.producer) ? ChangeCause.PRODUCER_VERSION_CHANGED : ChangeCause.PRODUCER_CHANGED;
  }
  if (a.adapterVersion !== b.adapterVersion) return ChangeCause.PRODUCER_VERSION_CHANGED;
  if (a.engineName !== b.engineName || a.engineVersion !== b.engineVersion) return ChangeCause.ENGINE_VERSION_CHANGED;
  if (a.codeSig !== b.codeSig) return ChangeCause.JOB_CODE_CHANGED;
  return ChangeCause.UNKNOWN;
}

/** A producer URI with its version segments (`1.53.0`, `v2.1`, `1.2.3rc1`) blanked. */
export function unversioned(producer: string): string {
  return producer.replace(/(^|[/@=:_-])v?\d+(\.\d+)+[\w.+-]*/g, '$1*');
}
