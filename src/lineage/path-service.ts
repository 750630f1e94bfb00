import type { Executor } from '../graph/executor';
import { checkFirst, cmp, findStart } from './common';
import { groupBy } from './group';
import { DATASET_LINEAGE, FIELD_LINEAGE, traverse, type ExpandRow, type StepRow } from './traversal';
import { Dependencies, Direction, EdgeType, EntityKind, Granularity, type EntityRef, type TruncationReason } from './types';

/**
 * How node A reaches node B, in data-flow direction (A upstream of B): the shortest paths, up to
 * `first` of them, of at most `maxLength` edges (both at most 20), no edge used twice on a path.
 * Dataset granularity follows current reads and writes (FEEDS, PRODUCES; symlinked names are not
 * crossed); field granularity follows current column lineage (DERIVES, and INFLUENCES unless
 * `dependencies` is DIRECT) and the same field under another name of its dataset (ALIAS, which
 * adds nothing to a path's length), as lineage does.
 *
 * One downstream walk of the traversal engine from A: after its hop h it has seen every edge a path
 * of at most h edges can use, so it stops at the first hop where `first` such paths exist (or at
 * `maxLength`); the paths are enumerated in memory by length, each length in id order.
 * `truncated` says the walk hit the node limit, so a path may be missing.
 */

export interface PathEdge {
  fromId: string;
  toId: string;
  type: string;
  jobId?: string | null;
  /** Column lineage: transformation types (INDIRECT on dependencies that only shape the value) and subtypes. */
  types?: string[] | null;
  subtypes?: string[] | null;
}

export interface LineagePath {
  length: number;
  nodes: EntityRef[];
  edges: PathEdge[];
}

export interface PathResult {
  fromId: string;
  toId: string;
  found: boolean;
  /** Ordered by length, then by the ids along the path. */
  paths: LineagePath[];
  truncated: boolean;
  truncatedBy: TruncationReason[];
}

const MAX_LENGTH = 20;
const MAX_PATHS = 20;

export class PathService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxNodes: number },
  ) {}

  async paths(
    fromId: string,
    toId: string,
    granularity: Granularity,
    maxLength: number,
    first: number,
    dependencies: Dependencies = Dependencies.ALL,
    metadataColumns = false,
  ): Promise<PathResult> {
    checkFirst(maxLength, MAX_LENGTH, 'maxLength');
    checkFirst(first, MAX_PATHS);
    const field = granularity === Granularity.FIELD;
    const kinds = field ? [EntityKind.FIELD] : [EntityKind.DATASET, EntityKind.JOB];
    const walk = await this.executor.readTx('path', async (tx) => {
      const [from, to] = [await findStart(tx, fromId, ...kinds), await findStart(tx, toId, ...kinds)];
      // After hop h every path of at most h edges is known: stop once `first` of them exist.
      const enough = (hop: number, w: { reached: Map<string, unknown>; edges: { row: StepRow; hop: number }[] }) =>
        w.reached.has(to.id) && pathsIn(w.edges as { row: ExpandRow; hop: number }[], fromId, to.id, hop, first).length >= first;
      const t = await traverse(tx, field ? FIELD_LINEAGE : DATASET_LINEAGE, {
        starts: [from],
        direction: Direction.DOWNSTREAM,
        depth: maxLength,
        asOf: null,
        maxNodes: this.limits.maxNodes,
        follow: field ? [EdgeType.DERIVES, EdgeType.INFLUENCES, EdgeType.ALIAS] : [EdgeType.FEEDS, EdgeType.PRODUCES],
        dependencies,
        metadataColumns,
        until: enough,
      });
      return { t, to };
    });
    const { t, to } = walk;
    const nodes = new Map([...t.reached.values()].map((r) => [r.node.id, r.node]));
    const paths = pathsIn(t.edges, fromId, to.id, maxLength, first).map((rows) => ({
      length: rows.reduce((n, r) => n + costOf(r), 0),
      nodes: [nodes.get(fromId)!, ...rows.map((r) => nodes.get(r.toId)!)],
      edges: rows.map((r) => ({ fromId: r.fromId, toId: r.toId, type: r.type, jobId: r.jobId ?? null, types: r.types ?? null, subtypes: r.subtypes ?? null })),
    }));
    const truncatedBy = t.truncatedBy.filter((r) => r !== 'DEPTH');
    return { fromId, toId, found: paths.length > 0, paths, truncated: truncatedBy.length > 0, truncatedBy };
  }
}

/** Up to `k` shortest paths over the walk's edges of the hops that are complete for that length. */
function pathsIn(edges: { row: ExpandRow; hop: number }[], a: string, b: string, maxLength: number, k: number): ExpandRow[][] {
  return shortestPaths(edges.filter((e) => e.hop <= maxLength).map((e) => e.row), a, b, maxLength, k);
}

/** What an edge adds to a path's length: an ALIAS (another name of the same field) adds nothing. */
const costOf = (r: ExpandRow): number => (r.type === EdgeType.ALIAS ? 0 : 1);

/**
 * Up to `k` paths from `a` to `b` of at most `maxLength` edges (ALIAS edges not counted), no edge
 * twice on one path, shortest first and, within a length, in the order of their node ids. A prefix
 * is extended only while it can still reach `b` within the length being enumerated (distances to `b`
 * computed backwards).
 */
function shortestPaths(rows: ExpandRow[], a: string, b: string, maxLength: number, k: number): ExpandRow[][] {
  const unique = new Map(rows.map((r) => [`${r.fromId}\u0000${r.toId}\u0000${r.type}\u0000${r.jobId ?? ''}`, r]));
  const sorted = [...unique.values()].sort((x, y) => cmp(x.toId, y.toId) || cmp(x.type, y.type) || cmp(x.jobId ?? '', y.jobId ?? ''));
  const out = groupBy(sorted, (r) => r.fromId);
  const toB = distancesTo(b, groupBy(sorted, (r) => r.toId));
  const found: ExpandRow[][] = [];
  const shortest = toB.get(a) ?? Infinity;
  for (let length = a === b ? Math.max(1, shortest) : shortest; length <= maxLength && found.length < k; length++) {
    const used = new Set<ExpandRow>();
    const prefix: ExpandRow[] = [];
    const extend = (at: string, cost: number): void => {
      if (found.length >= k) return;
      if (at === b && cost === length && prefix.length > 0) {
        found.push([...prefix]);
        return;
      }
      for (const r of out.get(at) ?? []) {
        const next = cost + costOf(r);
        if (used.has(r) || next + (toB.get(r.toId) ?? Infinity) > length) continue;
        used.add(r);
        prefix.push(r);
        extend(r.toId, next);
        prefix.pop();
        used.delete(r);
      }
    };
    extend(a, 0);
  }
  return found;
}

/** Least path length from each node to `b` over the given edges (ALIAS edges cost 0: a 0-1 BFS). */
function distancesTo(b: string, into: Map<string, ExpandRow[]>): Map<string, number> {
  const dist = new Map<string, number>([[b, 0]]);
  const deque = [b];
  while (deque.length > 0) {
    const id = deque.shift()!;
    for (const r of into.get(id) ?? []) {
      const d = dist.get(id)! + costOf(r);
      if (d >= (dist.get(r.fromId) ?? Infinity)) continue;
      dist.set(r.fromId, d);
      if (costOf(r) === 0) deque.unshift(r.fromId);
      else deque.push(r.fromId);
    }
  }
  return dist;
}
