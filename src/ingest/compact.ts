import type { ColumnEdgeRow, DatasetRow, FieldRow, IoRow, JobRow, ProjectionPlan, RunRow } from './plan';

/**
 * Reduces a plan to one row per graph key, so that each write query touches every node or
 * relationship at most once (no row of a batch depends on a write of another row).
 *
 * The reduction uses the same rules as the Cypher that merges a row into the stored graph, and
 * both are commutative and associative; hence the projected graph does not depend on how events
 * were split into batches, nor on their order:
 *  - firstSeen / lastSeen: min / max event time;
 *  - descriptive properties (facets, description, type, ...): from the latest event that carried
 *    them (`facetsAt`), ties broken by the larger JSON text;
 *  - run state: highest rank (OTHER 0 < START 1 < RUNNING 2 < COMPLETE/FAIL/ABORT 3), then latest
 *    event time, then the larger state name, so terminal states are sticky;
 *  - startedAt: earliest START event;
 *  - an input is `declared` when any event listed it in `inputs` (else only column lineage named it).
 */

export interface Seen {
  firstSeen: string;
  lastSeen: string;
}

export interface Described {
  /** Event time of the latest event that carried the descriptive properties; null if none did. */
  facetsAt: string | null;
}

export type CJob = Omit<JobRow, 'eventTime'> & Seen & Described;
export type CDataset = Omit<DatasetRow, 'eventTime'> & Seen & Described;
export type CField = Omit<FieldRow, 'eventTime' | 'fromSchema'> & Seen & Described;
export type CIo = Omit<IoRow, 'eventTime'> & Seen;
export type CColumnEdge = Omit<ColumnEdgeRow, 'eventTime'> & Seen & { transformationsAt: string };
export interface CRun extends Seen, Described {
  id: string;
  runId: string;
  jobId: string;
  facets: string | null;
  state: string | null;
  stateAt: string | null;
  startedAt: string | null;
}

export interface CompactPlan {
  jobs: CJob[];
  datasets: CDataset[];
  fields: CField[];
  runs: CRun[];
  inputs: CIo[];
  outputs: CIo[];
  columnEdges: CColumnEdge[];
}

export const STATE_RANK: Record<string, number> = {
  OTHER: 0,
  START: 1,
  RUNNING: 2,
  COMPLETE: 3,
  FAIL: 3,
  ABORT: 3,
};

export function compactPlan(plan: ProjectionPlan): CompactPlan {
  return {
    jobs: reduceBy(plan.jobs, (r) => r.id, describedRow, mergeDescribed),
    datasets: reduceBy(plan.datasets, (r) => r.id, describedRow, mergeDescribed),
    fields: reduceBy(
      plan.fields,
      (r) => r.id,
      ({ fromSchema, eventTime, ...rest }) => ({
        ...rest,
        firstSeen: eventTime,
        lastSeen: eventTime,
        facetsAt: fromSchema ? eventTime : null,
        type: fromSchema ? rest.type : null,
        description: fromSchema ? rest.description : null,
      }),
      (a, b) => mergeDescribed(a, b, (x) => `${x.type ?? ''}|${x.description ?? ''}`),
    ),
    runs: reduceBy(plan.runs, (r) => r.id, runRow, mergeRun),
    inputs: reduceBy(plan.inputs, ioKey, seenRow, mergeIo),
    outputs: reduceBy(plan.outputs, ioKey, seenRow, mergeIo),
    columnEdges: reduceBy(
      plan.columnEdges,
      (r) => `${r.fromFieldId}\u0000${r.toFieldId}\u0000${r.jobId}`,
      ({ eventTime, ...rest }) => ({ ...rest, firstSeen: eventTime, lastSeen: eventTime, transformationsAt: eventTime }),
      (a, b) => {
        const seen = mergeSeen(a, b);
        const later = newer(a.transformationsAt, a.transformations, b.transformationsAt, b.transformations) ? a : b;
        return { ...later, firstSeen: seen.firstSeen, lastSeen: seen.lastSeen };
      },
    ),
  };
}

const ioKey = (r: IoRow) => `${r.runId ?? ''}\u0000${r.jobId}\u0000${r.datasetId}`;

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

function describedRow<R extends { eventTime: string; facets: string | null }>(row: R): Omit<R, 'eventTime'> & Seen & Described {
  return { ...seenRow(row), facetsAt: row.facets === null ? null : row.eventTime };
}

function mergeIo(a: CIo, b: CIo): CIo {
  return { ...mergeSeen(a, b), declared: a.declared || b.declared };
}

function mergeSeen<C extends Seen>(a: C, b: C): C {
  return {
    ...a,
    firstSeen: a.firstSeen < b.firstSeen ? a.firstSeen : b.firstSeen,
    lastSeen: a.lastSeen > b.lastSeen ? a.lastSeen : b.lastSeen,
  };
}

/** Keeps the descriptive part of the row whose facetsAt is later (ties: larger text). */
function mergeDescribed<C extends Seen & Described & { facets?: string | null }>(
  a: C,
  b: C,
  text: (c: C) => string = (c) => c.facets ?? '',
): C {
  const seen = mergeSeen(a, b);
  const winner = newer(a.facetsAt, text(a), b.facetsAt, text(b)) ? a : b;
  return { ...winner, firstSeen: seen.firstSeen, lastSeen: seen.lastSeen };
}

/** True when (atA, textA) is strictly later than (atB, textB); a null time is never later. */
function newer(atA: string | null, textA: string, atB: string | null, textB: string): boolean {
  if (atA === null) return false;
  if (atB === null) return true;
  if (atA !== atB) return atA > atB;
  return textA > textB;
}

function runRow(r: RunRow): CRun {
  const state = r.eventType;
  return {
    id: r.id,
    runId: r.runId,
    jobId: r.jobId,
    facets: r.facets,
    facetsAt: r.facets === null ? null : r.eventTime,
    firstSeen: r.eventTime,
    lastSeen: r.eventTime,
    state,
    stateAt: state === null ? null : r.eventTime,
    startedAt: state === 'START' ? r.eventTime : null,
  };
}

function mergeRun(a: CRun, b: CRun): CRun {
  const described = mergeDescribed(a, b);
  const stateWinner = betterState(a, b) ? a : b;
  const starts = [a.startedAt, b.startedAt].filter((s): s is string => s !== null).sort();
  const jobWinner = a.lastSeen >= b.lastSeen ? a : b;
  return {
    ...described,
    jobId: jobWinner.jobId,
    state: stateWinner.state,
    stateAt: stateWinner.stateAt,
    startedAt: starts[0] ?? null,
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
