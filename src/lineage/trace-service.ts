import { badInput } from '../errors';
import type { Executor, TxRunner } from '../graph/executor';
import { parseJsonProperty } from '../graph/mappers';
import { checkDepth, cmp, findStart, optionalTime } from './common';
import { explainStops, type TraceStop } from './stops-service';
import { Query } from '../graph/queries';
import { TRACE, traverse, type TraceRow, type Traversal } from './traversal';
import { Dependencies, Direction, EdgeEvidence, EntityKind, Evidence, followedEvidence, Granularity, IoDirection, type DeclaredRef, type EntityRef, type FlowDirection, type TruncationReason } from './types';

/**
 * The investigation query: from a field (or dataset), follow lineage hop by hop, at column level
 * where a job reports column lineage for the field, and at dataset level where it does not, so a
 * trace never silently stops at an engine without column lineage: it says where precision was lost.
 *
 * One walk of the traversal engine (mode TRACE) over items (fields, or datasets once precision is
 * lost), inside one read transaction; each item is visited once (cycles terminate). Bounded like
 * lineage: depth capped at maxDepth, at most maxNodes items; `truncated` says when the trace goes on.
 */

export interface TraceHop {
  /** Hops from the start (1 = adjacent). */
  distance: number;
  /** Data-flow direction: data moves from `fromId` to `toId` through `jobId`. */
  fromId: string;
  toId: string;
  jobId: string;
  /** FIELD: column lineage; DATASET: dataset-level only (no column lineage on this hop). */
  granularity: Granularity;
  /** True on the hop where a field-level trace fell back to dataset level (never a DECLARED hop). */
  precisionLost: boolean;
  types: string[] | null;
  subtypes: string[] | null;
  transformations: unknown;
  /**
   * FIELD hops the job reported under another name of the traced field's dataset (a symlink): the
   * field's id under that name (or that dataset, for a dataset-wide INDIRECT dependency); null when
   * reported under the traced name.
   */
  reportedAs: string | null;
  /** What the hop rests on: a producer's report, Tributary's collector, or the job's SQL (DECLARED). */
  evidence: EdgeEvidence;
  /** DECLARED hops: the statement's tables for the declared halves (the input read, the output written). */
  declared: DeclaredRef[];
}

export type { DeclaredRef };

export interface TraceNode extends EntityRef {
  distance: number;
}

export interface TraceResult {
  start: TraceNode;
  direction: FlowDirection;
  depth: number;
  asOf: string | null;
  /** Ordered by distance, then fromId, toId, jobId. */
  hops: TraceHop[];
  /** Every item reached, the start first, then by distance and id. */
  nodes: TraceNode[];
  /** The first hop (by the order of `hops`) where field precision was lost; null if never. */
  firstPrecisionLoss: TraceHop | null;
  truncated: boolean;
  truncatedBy: TruncationReason[];
  /** Where lineage stops within the trace's bounds, and why (stops-service.ts); nearest first. */
  stops: TraceStop[];
  /** True when not every stop is explained (more than 20). */
  stopsTruncated: boolean;
  /**
   * With evidence REPORTED (current lineage): the DECLARED hops from the items reached that evidence
   * ALL would follow (at most MAX_UNFOLLOWED, by distance then ids); empty otherwise.
   */
  unfollowed: TraceHop[];
}

const MAX_UNFOLLOWED = 20;

export class TraceService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxDepth: number; maxNodes: number },
  ) {}

  async trace(
    nodeId: string,
    direction: Direction,
    requestedDepth: number,
    asOfText?: string | null,
    dependencies: Dependencies = Dependencies.ALL,
    metadataColumns = false,
    evidence: Evidence = Evidence.REPORTED,
  ): Promise<TraceResult> {
    if (direction === Direction.BOTH) throw badInput('a trace follows one direction: UPSTREAM or DOWNSTREAM');
    const depth = checkDepth(requestedDepth, this.limits.maxDepth);
    const asOf = optionalTime(asOfText);
    return this.executor.readTx('trace', async (tx) => {
      const start: TraceNode = { ...(await findStart(tx, nodeId, EntityKind.FIELD, EntityKind.DATASET)), distance: 0 };
      const walk = await traverse(tx, TRACE, {
        starts: [start],
        direction,
        depth,
        asOf,
        maxNodes: this.limits.maxNodes,
        dependencies,
        metadataColumns,
        evidence: followedEvidence(evidence),
      });
      const explained = await explainStops(tx, walk);
      const unfollowed = evidence === Evidence.REPORTED && asOf === null ? await unfollowedHops(tx, walk) : [];
      const stops = explained.stops.map((st) => withDeclaredHint(st, walk, unfollowed));
      return { ...traceOf(walk), start, asOf, stops, stopsTruncated: explained.truncated, unfollowed };
    });
  }

  /** The engine's walk of a trace (for services that need its parent edges: blast radius). */
  walk(
    tx: TxRunner,
    start: EntityRef,
    direction: FlowDirection,
    depth: number,
    asOf: string | null,
    dependencies: Dependencies = Dependencies.ALL,
    metadataColumns = false,
  ): Promise<Traversal<TraceRow>> {
    return traverse(tx, TRACE, { starts: [start], direction, depth, asOf, maxNodes: this.limits.maxNodes, dependencies, metadataColumns });
  }
}

/** Distinct values of two optional lists, sorted (null when both are null). */
const union = (a: string[] | null, b: string[] | null): string[] | null => (a === null && b === null ? null : [...new Set([...(a ?? []), ...(b ?? [])])].sort());

/**
 * Hops (one per from, to, job, within the depth; a job's DERIVES and INFLUENCES between the same
 * two fields are one hop with both kinds of types) and nodes of a trace walk.
 */
export function traceOf(walk: Traversal<TraceRow>): Omit<TraceResult, 'start' | 'asOf' | 'stops' | 'stopsTruncated' | 'unfollowed'> {
  const upstream = walk.direction === Direction.UPSTREAM;
  const hops = new Map<string, TraceHop>();
  for (const { row, hop } of walk.edges) {
    if (hop > walk.depth) continue;
    const itemKind = upstream ? row.toKind : row.fromKind;
    const key = `${row.fromId}\u0000${row.toId}\u0000${row.jobId}`;
    const seen = hops.get(key);
    if (seen) {
      // One job can both derive a field from the input and be shaped by it (DERIVES and INFLUENCES).
      seen.types = union(seen.types, row.types);
      seen.subtypes = union(seen.subtypes, row.subtypes);
      const more = parseJsonProperty(row.transformations);
      if (Array.isArray(seen.transformations) && Array.isArray(more)) seen.transformations = [...seen.transformations, ...more];
      continue;
    }
    hops.set(key, {
      distance: hop,
      fromId: row.fromId,
      toId: row.toId,
      jobId: row.jobId,
      granularity: row.granularity,
      // A DECLARED hop is dataset level by nature: no producer lost precision there.
      precisionLost: row.granularity === Granularity.DATASET && itemKind === 'FIELD' && row.evidence !== EdgeEvidence.DECLARED,
      types: row.types,
      subtypes: row.subtypes,
      transformations: parseJsonProperty(row.transformations),
      reportedAs: row.reportedId ?? null,
      evidence: row.evidence ?? EdgeEvidence.REPORTED,
      declared: declaredRefs(row),
    });
  }
  const ordered = [...hops.values()].sort(
    (a, b) => a.distance - b.distance || cmp(a.fromId, b.fromId) || cmp(a.toId, b.toId) || cmp(a.jobId, b.jobId),
  );
  const [start, ...rest] = [...walk.reached.values()].map(({ node, distance }) => ({ ...node, distance }));
  return {
    direction: walk.direction,
    depth: walk.depth,
    hops: ordered,
    nodes: [start!, ...rest.sort((a, b) => a.distance - b.distance || cmp(a.id, b.id))],
    firstPrecisionLoss: ordered.find((h) => h.precisionLost) ?? null,
    truncated: walk.truncatedBy.length > 0,
    truncatedBy: walk.truncatedBy,
  };
}

function declaredRefs(row: TraceRow): DeclaredRef[] {
  const d = row.declared;
  if (!d) return [];
  return [
    ...(d.input ? [{ role: IoDirection.INPUT, ...d.input }] : []),
    ...(d.output ? [{ role: IoDirection.OUTPUT, ...d.output }] : []),
  ].map((r) => ({ ...r, line: Number(r.line), column: Number(r.column) }));
}

/** The DECLARED hops from the items a REPORTED walk reached (one declared step over all of them). */
async function unfollowedHops(tx: TxRunner, walk: Traversal<TraceRow>): Promise<TraceHop[]> {
  const items = [...walk.reached.values()].filter((r) => walk.openFrom === null || r.distance < walk.openFrom).map((r) => r.node);
  const params = TRACE.frontier(items, []);
  const step = walk.direction === Direction.UPSTREAM ? Query.TraceDeclaredUpstreamStep : Query.TraceDeclaredDownstreamStep;
  const rows = await tx.run<TraceRow>(step, { ...params, limit: MAX_UNFOLLOWED });
  const upstream = walk.direction === Direction.UPSTREAM;
  return rows
    .map((row) => {
      const item = walk.reached.get(upstream ? row.toId : row.fromId);
      return {
        distance: (item?.distance ?? 0) + 1,
        fromId: row.fromId,
        toId: row.toId,
        jobId: row.jobId,
        granularity: row.granularity,
        precisionLost: false,
        types: null,
        subtypes: null,
        transformations: null,
        reportedAs: null,
        evidence: EdgeEvidence.DECLARED,
        declared: declaredRefs(row),
      };
    })
    .sort((a, b) => a.distance - b.distance || cmp(a.fromId, b.fromId) || cmp(a.toId, b.toId) || cmp(a.jobId, b.jobId));
}

/**
 * A stop reached through a job whose SQL names a table its events do not list (an unfollowed
 * DECLARED hop of that job) says so: that is where evidence ALL goes on.
 */
function withDeclaredHint(stop: TraceStop, walk: Traversal<TraceRow>, unfollowed: TraceHop[]): TraceStop {
  const jobs = new Set(stop.itemIds.map((id) => walk.reached.get(id)?.parent?.jobId).filter((j): j is string => !!j));
  const hop = unfollowed.find((h) => jobs.has(h.jobId) && h.declared.length > 0);
  if (!hop) return stop;
  const t = hop.declared[0]!;
  const verb = t.role === IoDirection.INPUT ? 'reads' : 'writes';
  return {
    ...stop,
    explanation: `${stop.explanation} Its ${walk.direction === Direction.UPSTREAM ? 'reader' : 'writer'} ${hop.jobId} has SQL that also ${verb} ${t.name} (line ${t.line}, column ${t.column}), which its events do not list: trace(evidence: ALL) follows that DECLARED hop.`,
  };
}
