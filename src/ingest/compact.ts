import type {
  ColumnEdgeRow,
  DatasetRow,
  FacetRow,
  FieldRow,
  IoRow,
  JobRow,
  ParentRow,
  ProjectionPlan,
  RunRow,
  SymlinkRow,
} from './plan-rows';

/**
 * Reduces a plan to one row per graph key, so that each write query touches every node or
 * relationship at most once (no row of a batch depends on a write of another row).
 *
 * The reduction uses the same rules as the Cypher that merges a row into the stored graph, and
 * both are commutative and associative; hence the projected graph does not depend on how events
 * were split into batches, nor on their order:
 *  - firstSeen / lastSeen: min / max event time;
 *  - facets: per key, the one of the latest event (ties: the larger JSON; a deletion is null, the
 *    smallest), with the properties derived from it;
 *  - run state: highest rank (OTHER 0 < START 1 < RUNNING 2 < COMPLETE/FAIL/ABORT 3), then latest
 *    event time, then the larger state name, so terminal states are sticky;
 *  - startedAt: earliest START event; a run's source code signature: the latest event's that had one;
 *  - a job's IO report: the latest (time, run id) of an event that listed inputs or outputs; its
 *    engine: the latest event's (ties: larger name);
 *  - an input is `declared` when any event listed it in `inputs` (else only column lineage named it);
 *  - sets (raw spellings, normalisation reasons): union, sorted.
 */

export interface Seen {
  firstSeen: string;
  lastSeen: string;
}

export type CJob = Omit<JobRow, 'eventTime'> & Seen;
export type CDataset = Omit<DatasetRow, 'eventTime'> & Seen;
export type CField = Omit<FieldRow, 'eventTime' | 'fromSchema'> & Seen & { facetsAt: string | null };
export type CIo = Omit<IoRow, 'eventTime'> & Seen;
export type CColumnEdge = Omit<ColumnEdgeRow, 'eventTime'> & Seen & { transformationsAt: string };
export type CSymlink = Omit<SymlinkRow, 'eventTime'> & Seen;
export type CParent = Omit<ParentRow, 'eventTime'> & Seen;
export interface CRun extends Seen {
  id: string;
  runId: string;
  /** Every job the batch's events name for this run: a run id some producers reuse across jobs is a run of each. */
  jobIds: string[];
  facets: FacetRow[];
  state: string | null;
  stateAt: string | null;
  startedAt: string | null;
  /** Source code signature of the latest event that carried one, and that event's time. */
  codeSig: string | null;
  codeAt: string | null;
}

export interface CompactPlan {
  jobs: CJob[];
  datasets: CDataset[];
  fields: CField[];
  runs: CRun[];
  inputs: CIo[];
  outputs: CIo[];
  columnEdges: CColumnEdge[];
  datasetDependencies: CColumnEdge[];
  symlinks: CSymlink[];
  parents: CParent[];
}

export const STATE_RANK: Record<string, number> = { OTHER: 0, START: 1, RUNNING: 2, COMPLETE: 3, FAIL: 3, ABORT: 3 };

export function compactPlan(plan: ProjectionPlan): CompactPlan {
  const columnEdge = (rows: ColumnEdgeRow[]) =>
    reduceBy(rows, (r) => `${r.fromFieldId}\u0000${r.toId}\u0000${r.jobId}`, columnEdgeRow, mergeColumnEdge);
  return {
    jobs: reduceBy(plan.jobs, (r) => r.id, seenRow, (a, b) => {
      const io = newer(a.ioAt, a.ioRunId ?? '', b.ioAt, b.ioRunId ?? '') ? a : b;
      const eng = newer(a.lastSeen, a.engine, b.lastSeen, b.engine) ? a : b;
      return { ...a, ...seen(a, b), facets: mergeFacets(a.facets, b.facets), ioAt: io.ioAt, ioRunId: io.ioRunId, engine: eng.engine };
    }),
    datasets: reduceBy(plan.datasets, (r) => r.id, seenRow, (a, b) => ({
      ...a,
      ...seen(a, b),
      facets: mergeFacets(a.facets, b.facets),
      rawNames: union(a.rawNames, b.rawNames),
      normalisations: union(a.normalisations, b.normalisations),
    })),
    fields: reduceBy(plan.fields, (r) => r.id, fieldRow, mergeField),
    runs: reduceBy(plan.runs, (r) => r.id, runRow, mergeRun),
    inputs: reduceBy(plan.inputs, ioKey, seenRow, mergeIo),
    outputs: reduceBy(plan.outputs, ioKey, seenRow, mergeIo),
    columnEdges: columnEdge(plan.columnEdges),
    datasetDependencies: columnEdge(plan.datasetDependencies),
    symlinks: reduceBy(plan.symlinks, (r) => `${r.datasetId}\u0000${r.aliasId}\u0000${r.type}`, seenRow, (a, b) => ({
      ...a,
      ...seen(a, b),
      // The declaring event: the earliest, ties broken by the lower id, so the choice is order-independent.
      eventId: declaredFirst(b.firstSeen, b.eventId, a.firstSeen, a.eventId) ? b.eventId : a.eventId,
    })),
    parents: reduceBy(plan.parents, (r) => `${r.runId}\u0000${r.parentRunId}`, seenRow, (a, b) => {
      // The root as of the latest event that named one.
      const rootOf = (x: CParent) => (x.rootRunId === null ? null : x.lastSeen);
      const root = newer(rootOf(a), a.rootRunId ?? '', rootOf(b), b.rootRunId ?? '') ? a : b;
      return { ...a, ...seen(a, b), rootRunId: root.rootRunId, rootJobId: root.rootJobId, rootJobNamespace: root.rootJobNamespace, rootJobName: root.rootJobName };
    }),
  };
}

/** True when declaration (t1, id1) precedes (t2, id2): earlier, else a lower id; a known id beats null. */
export function declaredFirst(t1: string, id1: string | null, t2: string, id2: string | null): boolean {
  if (id1 === null) return false;
  if (id2 === null) return true;
  return t1 < t2 || (t1 === t2 && id1 < id2);
}

const ioKey = (r: IoRow) => `${r.runId ?? ''}\u0000${r.jobId}\u0000${r.datasetId}`;

/**
 * One compact row per key, in first-seen order. `merge(acc, next)` may update and return `acc`:
 * accumulated rows are created by `init` and owned here (plain literals, no spreads, since
 * compaction runs over every field and column-lineage entry of a batch).
 */
function reduceBy<R, C>(rows: R[], key: (r: R) => string, init: (r: R) => C, merge: (a: C, b: C) => C): C[] {
  const out = new Map<string, C>();
  for (const row of rows) {
    const k = key(row);
    const c = init(row);
    const prev = out.get(k);
    out.set(k, prev === undefined ? c : merge(prev, c));
  }
  return [...out.values()];
}

function seenRow<R extends { eventTime: string }>({ eventTime, ...rest }: R): Omit<R, 'eventTime'> & Seen {
  return { ...rest, firstSeen: eventTime, lastSeen: eventTime };
}

function seen(a: Seen, b: Seen): Seen {
  return {
    firstSeen: a.firstSeen < b.firstSeen ? a.firstSeen : b.firstSeen,
    lastSeen: a.lastSeen > b.lastSeen ? a.lastSeen : b.lastSeen,
  };
}

function fieldRow(r: FieldRow): CField {
  return {
    id: r.id,
    datasetId: r.datasetId,
    name: r.name,
    type: r.fromSchema ? r.type : null,
    description: r.fromSchema ? r.description : null,
    facetsAt: r.fromSchema ? r.eventTime : null,
    firstSeen: r.eventTime,
    lastSeen: r.eventTime,
  };
}

/** Type and description of the latest schema that listed the field (ties: the larger text). */
function mergeField(a: CField, b: CField): CField {
  const text = (x: CField) => `${x.type ?? ''}|${x.description ?? ''}`;
  if (!newer(a.facetsAt, text(a), b.facetsAt, text(b))) {
    a.type = b.type;
    a.description = b.description;
    a.facetsAt = b.facetsAt;
  }
  return widenSeen(a, b);
}

function columnEdgeRow(r: ColumnEdgeRow): CColumnEdge {
  return {
    fromFieldId: r.fromFieldId,
    toId: r.toId,
    jobId: r.jobId,
    transformations: r.transformations,
    types: r.types,
    subtypes: r.subtypes,
    transformationsAt: r.eventTime,
    firstSeen: r.eventTime,
    lastSeen: r.eventTime,
  };
}

/** Transformations of the latest event (ties: the larger JSON). */
function mergeColumnEdge(a: CColumnEdge, b: CColumnEdge): CColumnEdge {
  if (!newer(a.transformationsAt, a.transformations, b.transformationsAt, b.transformations)) {
    a.transformations = b.transformations;
    a.types = b.types;
    a.subtypes = b.subtypes;
    a.transformationsAt = b.transformationsAt;
  }
  return widenSeen(a, b);
}

function widenSeen<T extends Seen>(a: T, b: Seen): T {
  if (b.firstSeen < a.firstSeen) a.firstSeen = b.firstSeen;
  if (b.lastSeen > a.lastSeen) a.lastSeen = b.lastSeen;
  return a;
}

/** What one run reported about one dataset: unions of its events' reports (sorted), ORed flags. */
function mergeIo(a: CIo, b: CIo): CIo {
  return {
    ...a,
    ...seen(a, b),
    declared: a.declared || b.declared,
    facets: mergeFacets(a.facets, b.facets),
    fields: union(a.fields, b.fields),
    cllFields: union(a.cllFields, b.cllFields),
    cllWhole: a.cllWhole || b.cllWhole,
    cllPairs: union(a.cllPairs, b.cllPairs),
  };
}

/** Per key, the facet of the latest event; mirrored by the facet SET in the merge-*.cypher files. */
export function mergeFacets(a: FacetRow[], b: FacetRow[]): FacetRow[] {
  const byKey = new Map<string, FacetRow>();
  for (const f of [...a, ...b]) {
    const prev = byKey.get(f.key);
    if (!prev || newer(f.at, f.value ?? '', prev.at, prev.value ?? '')) byKey.set(f.key, f);
  }
  return [...byKey.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

/** True when (atA, textA) is strictly later than (atB, textB); a null time is never later. */
function newer(atA: string | null, textA: string, atB: string | null, textB: string): boolean {
  if (atA === null) return false;
  if (atB === null) return true;
  if (atA !== atB) return atA > atB;
  return textA > textB;
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

function runRow(r: RunRow): CRun {
  const state = r.eventType;
  return {
    id: r.id,
    runId: r.runId,
    jobIds: [r.jobId],
    facets: r.facets,
    firstSeen: r.eventTime,
    lastSeen: r.eventTime,
    state,
    stateAt: state === null ? null : r.eventTime,
    startedAt: state === 'START' ? r.eventTime : null,
    codeSig: r.codeSig,
    codeAt: r.codeSig === null ? null : r.eventTime,
  };
}

function mergeRun(a: CRun, b: CRun): CRun {
  const stateWinner = betterState(a, b) ? a : b;
  const starts = [a.startedAt, b.startedAt].filter((s): s is string => s !== null).sort();
  const code = newer(a.codeAt, a.codeSig ?? '', b.codeAt, b.codeSig ?? '') ? a : b;
  return {
    ...a,
    ...seen(a, b),
    facets: mergeFacets(a.facets, b.facets),
    jobIds: union(a.jobIds, b.jobIds),
    state: stateWinner.state,
    stateAt: stateWinner.stateAt,
    startedAt: starts[0] ?? null,
    codeSig: code.codeSig,
    codeAt: code.codeAt,
  };
}

/** The state order of the module comment; mirrored in cypher/ingest/merge-runs.cypher. */
export function betterState(a: Pick<CRun, 'state' | 'stateAt'>, b: Pick<CRun, 'state' | 'stateAt'>): boolean {
  if (a.state === null) return false;
  if (b.state === null) return true;
  const ra = STATE_RANK[a.state] ?? 0;
  const rb = STATE_RANK[b.state] ?? 0;
  if (ra !== rb) return ra > rb;
  if (a.stateAt !== b.stateAt) return (a.stateAt ?? '') > (b.stateAt ?? '');
  return a.state > b.state;
}
