import type { TxRunner } from '../graph/executor';
import { idsOrNone, NO_NODE_ID } from '../ids';
import { Query } from '../graph/queries';
import { groupBy } from './group';
import { metadataParam } from './metadata-columns';
import { Dependencies, Direction, EdgeEvidence, EdgeType, EntityKind, Granularity, TruncationReason, type DeclaredRef, type EntityRef, type FlowDirection } from './types';

/**
 * The one traversal engine: a bounded breadth-first search over the lineage graph, one step query
 * per hop over the whole frontier, inside the caller's transaction (a consistent snapshot).
 * Lineage, trace, blast radius, path and coverage gaps all walk through `traverse`.
 *
 * Contract:
 * - Starts are at distance 0. Each node is reached once, at its shortest distance, by the first
 *   row (in step-query order) that names it: its parent edge. Cycles terminate; diamonds cost no
 *   path explosion.
 * - An ALIAS row (another name of a frontier dataset, symlinks facet) reaches its node at the
 *   frontier's distance and costs no hop; the step query already expanded the alias's own edges,
 *   so it joins no frontier.
 * - After the last hop (`depth`), one more step probes whether lineage continues: a new node there
 *   truncates with DEPTH (and is not returned). Reaching more than `maxNodes` new nodes, or a step
 *   returning `maxRowsPerHop` rows, truncates with NODE_LIMIT.
 * - `edges` holds every row whose endpoints were both reached, in the order seen, with the hop that
 *   produced it (depth + 1 for rows of the probe step between nodes already reached).
 * - Which edge kinds are followed is the `follow` parameter (default: the mode's); each step query
 *   honours it (see their headers).
 * - Which evidence is followed is the `evidence` parameter (default REPORTED and COLLECTED: what
 *   every walk followed before DECLARED existed). Without COLLECTED, the step queries leave out the
 *   edges of collected jobs; with DECLARED and current lineage, a mode's `declaredSteps` run after
 *   its step over the same frontier, their rows after the step's (a node reached both ways keeps
 *   its reported parent).
 * - Metadata columns of table formats (metadata-columns.ts) are left out unless `metadataColumns`:
 *   field expansions and downstream trace steps filter them; upstream trace steps mark the rows
 *   (`metadataColumn`), and the engine keeps them in `leftOut` (not reached, not in `edges`) so that
 *   the trace can say where it stops because of them.
 */

/** A row of a step query: one edge in data-flow direction between a frontier node and a neighbour. */
export interface StepRow {
  fromId: string;
  toId: string;
  /** ALIAS rows run frontier dataset → alias; the engine only reads this to recognise them. */
  type?: string;
  jobId?: string | null;
  /** The neighbour the row reaches. */
  node: EntityRef;
  /** The neighbour is a metadata column of its table's format (trace-upstream-step.cypher). */
  metadataColumn?: boolean;
  /** What the edge rests on (trace steps; absent: REPORTED). */
  evidence?: EdgeEvidence;
}

/** A row of the dataset/job and field expansions (cypher/lineage/expand-*.cypher). */
export interface ExpandRow extends StepRow {
  type: EdgeType;
  firstSeen: string | null;
  lastSeen: string | null;
  declared: boolean;
  current: boolean;
  types?: string[] | null;
  subtypes?: string[] | null;
  outputFields?: number | null;
  fieldsWithInputs?: number | null;
  /** DECLARED rows (expand-declared-*.cypher): the table as the statement names it. */
  statement?: DeclaredRef | null;
}

/** A row of a trace step (cypher/lineage/trace-*-step.cypher): through one job, field or dataset level. */
export interface TraceRow extends StepRow {
  jobId: string;
  fromKind?: 'FIELD' | 'DATASET';
  toKind?: 'FIELD' | 'DATASET';
  granularity: Granularity;
  types: string[] | null;
  subtypes: string[] | null;
  transformations: string | null;
  /** The traced field under the other name the job reported it by (trace step headers); else null. */
  reportedId?: string | null;
  /** DECLARED rows: the statement's table for each declared half of the hop (trace-declared-*-step.cypher). */
  declared?: { input: Omit<DeclaredRef, 'role'> | null; output: Omit<DeclaredRef, 'role'> | null } | null;
}

/** What a walk is made of: its step queries, how a frontier becomes their parameters, what it follows. */
export interface TraversalMode<R extends StepRow> {
  readonly steps: Readonly<Record<FlowDirection, Query>>;
  /** Step queries for a walk as of a time, where those are queries apart (same parameters and row shape, plus $asOf); else `steps`. */
  readonly asOfSteps?: Readonly<Record<FlowDirection, Query>>;
  /** Step queries of DECLARED edges, run when the request follows DECLARED (same frontier parameters and row shape). */
  readonly declaredSteps?: Readonly<Record<FlowDirection, Query>>;
  readonly follow: readonly EdgeType[];
  /** The step's parameters for a frontier; `previous` is the frontier of the hop before (the nodes one hop nearer the starts). */
  frontier(nodes: readonly EntityRef[], previous: readonly EntityRef[]): Record<string, unknown>;
  /** Only a type marker for R (never read). */
  readonly row?: R;
}

/** The ids of `nodes` of `kind`, or [NO_NODE_ID]: a step's plan is then the same whatever kinds a frontier holds. */
const idsOf = (nodes: readonly EntityRef[], kind: EntityKind) => idsOrNone(nodes.filter((n) => n.kind === kind).map((n) => n.id));

/** TRACE's frontier fields, or one that matches no dataset (as idsOf). */
const fieldsOf = (nodes: readonly EntityRef[]) => {
  const fields = nodes.filter((n) => n.kind === EntityKind.FIELD).map((n) => ({ fieldId: n.id, datasetId: n.datasetId, name: n.name }));
  return fields.length > 0 ? fields : [{ fieldId: NO_NODE_ID, datasetId: NO_NODE_ID, name: NO_NODE_ID }];
};

/** Datasets and jobs, joined by reads and writes (FEEDS, PRODUCES), symlinked names as ALIAS. */
export const DATASET_LINEAGE: TraversalMode<ExpandRow> = {
  steps: { [Direction.UPSTREAM]: Query.ExpandUpstream, [Direction.DOWNSTREAM]: Query.ExpandDownstream },
  asOfSteps: { [Direction.UPSTREAM]: Query.ExpandUpstreamAsOf, [Direction.DOWNSTREAM]: Query.ExpandDownstreamAsOf },
  declaredSteps: { [Direction.UPSTREAM]: Query.ExpandDeclaredUpstream, [Direction.DOWNSTREAM]: Query.ExpandDeclaredDownstream },
  follow: [EdgeType.FEEDS, EdgeType.PRODUCES, EdgeType.ALIAS],
  frontier: (nodes) => ({ datasetIds: idsOf(nodes, EntityKind.DATASET), jobIds: idsOf(nodes, EntityKind.JOB) }),
};

/**
 * Datasets and jobs joined by any current read or write, whichever way data flows (Marquez's table
 * lineage, src/marquez): a dataset's readers and writers, a job's inputs and outputs, so siblings
 * are reached. Both directions run the same step; symlinked names are not joined.
 */
export const UNDIRECTED_LINEAGE: TraversalMode<ExpandRow> = {
  steps: { [Direction.UPSTREAM]: Query.ExpandUndirected, [Direction.DOWNSTREAM]: Query.ExpandUndirected },
  follow: [EdgeType.FEEDS, EdgeType.PRODUCES],
  // The edges back to the hop before were all rows of that hop's step: left out, each edge is met once.
  frontier: (nodes, previous) => ({ datasetIds: idsOf(nodes, EntityKind.DATASET), jobIds: idsOf(nodes, EntityKind.JOB), previousIds: idsOrNone(previous.map((n) => n.id)) }),
};

/** Fields, joined by column lineage through jobs: DERIVES, and INFLUENCES to every field of the output. */
export const FIELD_LINEAGE: TraversalMode<ExpandRow> = {
  steps: { [Direction.UPSTREAM]: Query.ExpandFieldsUpstream, [Direction.DOWNSTREAM]: Query.ExpandFieldsDownstream },
  follow: [EdgeType.DERIVES, EdgeType.INFLUENCES, EdgeType.ALIAS],
  frontier: (nodes) => ({ fieldIds: idsOf(nodes, EntityKind.FIELD) }),
};

/**
 * Fields through jobs at column level (DERIVES, INFLUENCES) where the job reports column lineage
 * for the field, else the job's datasets at dataset level (FEEDS/PRODUCES), from where the walk goes
 * on by dataset; writers and readers of symlinked names count (ALIAS).
 */
export const TRACE: TraversalMode<TraceRow> = {
  steps: { [Direction.UPSTREAM]: Query.TraceUpstreamStep, [Direction.DOWNSTREAM]: Query.TraceDownstreamStep },
  declaredSteps: { [Direction.UPSTREAM]: Query.TraceDeclaredUpstreamStep, [Direction.DOWNSTREAM]: Query.TraceDeclaredDownstreamStep },
  follow: [EdgeType.FEEDS, EdgeType.PRODUCES, EdgeType.ALIAS, EdgeType.DERIVES, EdgeType.INFLUENCES],
  frontier: (nodes) => ({ fields: fieldsOf(nodes), datasets: idsOf(nodes, EntityKind.DATASET) }),
};

export interface TraversalRequest {
  starts: readonly EntityRef[];
  direction: FlowDirection;
  /** Hops to follow (already checked and capped by the caller). */
  depth: number;
  /** ISO time: edges as they stood then; null: current edges. */
  asOf: string | null;
  /** Most nodes reached besides the starts. */
  maxNodes: number;
  /** Most rows one step may return (default maxNodes × 4). */
  maxRowsPerHop?: number;
  /** Edge kinds to follow (default: the mode's). */
  follow?: readonly EdgeType[];
  /** Evidence to follow (default REPORTED and COLLECTED). */
  evidence?: readonly EdgeEvidence[];
  /** Field-level walks: DIRECT leaves out INDIRECT-only column dependencies (default ALL). */
  dependencies?: Dependencies;
  /** Field-level walks: also the metadata columns of table formats (metadata-columns.ts; default false). */
  metadataColumns?: boolean;
  /**
   * Asked after each complete hop (1, 2, ...) with the walk so far: true ends the walk there, not
   * truncated (the caller has what it needs), with `openFrom` at that hop.
   */
  until?: (hop: number, walk: Traversal<StepRow>) => boolean;
}

export interface Reached<R extends StepRow> {
  node: EntityRef;
  distance: number;
  /** The row that first reached the node (null for a start). */
  parent: R | null;
}

export interface Traversal<R extends StepRow> {
  direction: FlowDirection;
  depth: number;
  /** The starts first, then every node in the order reached (so by distance). */
  reached: Map<string, Reached<R>>;
  /** Rows between reached nodes, in the order seen, with the hop of the step that returned them. */
  edges: { row: R; hop: number }[];
  /** Empty when complete; otherwise DEPTH or NODE_LIMIT (at most one). */
  truncatedBy: TruncationReason[];
  /** Nodes at this distance or more may have edges the walk did not see; null when complete. */
  openFrom: number | null;
  /** Rows to metadata columns of table formats the walk did not follow (`metadataColumns` false), with their hop. */
  leftOut: { row: R; hop: number }[];
}

export async function traverse<R extends StepRow>(tx: TxRunner, mode: TraversalMode<R>, req: TraversalRequest): Promise<Traversal<R>> {
  const rowLimit = req.maxRowsPerHop ?? req.maxNodes * 4;
  const evidence = req.evidence ?? [EdgeEvidence.REPORTED, EdgeEvidence.COLLECTED];
  const follow: string[] = [...(req.follow ?? mode.follow), ...(evidence.includes(EdgeEvidence.COLLECTED) ? [EdgeEvidence.COLLECTED] : [])];
  const step = (req.asOf !== null ? mode.asOfSteps?.[req.direction] : undefined) ?? mode.steps[req.direction];
  const declaredStep = evidence.includes(EdgeEvidence.DECLARED) && req.asOf === null ? mode.declaredSteps?.[req.direction] : undefined;
  const reached = new Map<string, Reached<R>>(req.starts.map((n) => [n.id, { node: n, distance: 0, parent: null }]));
  const edges: { row: R; hop: number }[] = [];
  const leftOut: { row: R; hop: number }[] = [];
  const done = (truncatedBy: TruncationReason[], openFrom: number | null): Traversal<R> => ({
    direction: req.direction,
    depth: req.depth,
    reached,
    edges,
    truncatedBy,
    openFrom,
    leftOut,
  });
  let frontier: EntityRef[] = [...req.starts];
  let previous: EntityRef[] = [];
  let added = 0;
  for (let hop = 1; frontier.length > 0; hop++) {
    const probing = hop > req.depth;
    const params = mode.frontier(frontier, previous);
    const rows = await tx.run<R>(step, {
      ...params,
      asOf: req.asOf,
      follow,
      indirect: req.dependencies !== Dependencies.DIRECT,
      metadata: metadataParam(req.metadataColumns ?? false),
      limit: rowLimit,
    });
    if (declaredStep && rows.length < rowLimit) rows.push(...(await tx.run<R>(declaredStep, { ...params, limit: rowLimit - rows.length })));
    const next: EntityRef[] = [];
    for (const row of rows) {
      if (row.metadataColumn && !req.metadataColumns) {
        if (!probing) leftOut.push({ row, hop });
        continue;
      }
      const alias = row.type === EdgeType.ALIAS;
      if (!reached.has(row.node.id)) {
        if (probing && !alias) return done([TruncationReason.DEPTH], hop - 1);
        if (added >= req.maxNodes) return done([TruncationReason.NODE_LIMIT], hop - 1);
        added++;
        reached.set(row.node.id, { node: row.node, distance: alias ? hop - 1 : hop, parent: row });
        if (!alias && !probing) next.push(row.node);
      }
      edges.push({ row, hop });
    }
    if (rows.length >= rowLimit) return done([TruncationReason.NODE_LIMIT], hop - 1);
    if (probing) break;
    if (next.length > 0 && req.until?.(hop, done([], hop))) return done([], hop);
    previous = frontier;
    frontier = next;
  }
  return done([], null);
}

/** The id of the node a row was expanded from (ALIAS rows run frontier → alias in both directions). */
export function parentIdOf(row: StepRow, direction: FlowDirection): string {
  return row.type === EdgeType.ALIAS || direction === Direction.DOWNSTREAM ? row.fromId : row.toId;
}

/** The parent rows from a start to the node with this id, nearest the start first ([] for a start). */
export function pathTo<R extends StepRow>(t: Traversal<R>, id: string): R[] {
  const rows: R[] = [];
  for (let r = t.reached.get(id); r?.parent; r = t.reached.get(parentIdOf(r.parent, t.direction))) rows.push(r.parent);
  return rows.reverse();
}

/** The two single-direction walks of a direction (BOTH is UPSTREAM, then DOWNSTREAM). */
export const flowsOf = (direction: Direction): FlowDirection[] =>
  direction === Direction.BOTH ? [Direction.UPSTREAM, Direction.DOWNSTREAM] : [direction];

/**
 * What one start of a multi-start DOWNSTREAM (or UPSTREAM) walk reaches over the walk's edges
 * (`next`: its rows grouped by fromId; ALIAS at no cost, every other edge one hop), up to `depth`
 * hops and `maxNodes` nodes: each node's distance (the start at 0), and whether that is a lower
 * bound (a bound was hit, lineage goes on past `depth`, or a node the walk left open is reached).
 */
export function reachFrom<R extends StepRow>(
  start: string,
  next: ReadonlyMap<string, { row: R }[]>,
  walk: Pick<Traversal<R>, 'reached' | 'openFrom'>,
  depth: number,
  maxNodes: number,
): { distance: Map<string, number>; truncated: boolean } {
  const distance = new Map<string, number>([[start, 0]]);
  const queue = [start];
  let truncated = false;
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    const d = distance.get(id)!;
    if (walk.openFrom !== null && (walk.reached.get(id)?.distance ?? Infinity) >= walk.openFrom) truncated = true;
    for (const { row } of next.get(id) ?? []) {
      const alias = row.type === EdgeType.ALIAS;
      if (distance.has(row.toId)) continue;
      if (!alias && d >= depth) {
        truncated = true;
        continue;
      }
      if (distance.size > maxNodes) {
        truncated = true;
        break;
      }
      distance.set(row.toId, alias ? d : d + 1);
      // An alias joins at the same distance and goes first, as in the walk.
      if (alias) queue.splice(i + 1, 0, row.toId);
      else queue.push(row.toId);
    }
  }
  return { distance, truncated };
}

/**
 * What each of many datasets reaches downstream (current dataset lineage), from one multi-start
 * walk: each start's nodes and distances (reachFrom), bounded per start by `depth` and `maxNodes`,
 * the whole walk by maxNodes × starts (at most `maxTotal`).
 */
export async function downstreamOfEach(
  tx: TxRunner,
  datasetIds: string[],
  limits: { depth: number; maxNodes: number; maxTotal: number },
): Promise<Map<string, { distance: Map<string, number>; truncated: boolean }>> {
  if (datasetIds.length === 0) return new Map();
  const walk = await traverse(tx, DATASET_LINEAGE, {
    starts: datasetIds.map((id) => ({ id, kind: EntityKind.DATASET, namespace: '', name: '' })),
    direction: Direction.DOWNSTREAM,
    depth: limits.depth,
    asOf: null,
    maxNodes: Math.min(limits.maxNodes * datasetIds.length, limits.maxTotal),
  });
  const next = groupBy(walk.edges, ({ row }) => row.fromId);
  return new Map(datasetIds.map((id) => [id, reachFrom(id, next, walk, limits.depth, limits.maxNodes)]));
}
