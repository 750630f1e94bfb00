import { badInput, notFound } from '../errors';
import type { Executor, TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { NodeKind, parseIdOfKind, type NodeRef } from '../ids';
import {
  Direction,
  EdgeType,
  EntityKind,
  Granularity,
  type LineageOptions,
  type EntityRef,
  type LineageEdge,
  type LineageGraph,
  type LineageNode,
} from './types';

export interface LineageLimits {
  maxDepth: number;
  maxNodes: number;
}

interface ExpandRow {
  fromId: string;
  toId: string;
  type: EdgeType;
  firstSeen: string | null;
  lastSeen: string | null;
  declared: boolean;
  current: boolean;
  jobId?: string | null;
  types?: string[] | null;
  subtypes?: string[] | null;
  node: EntityRef;
}

const EXPAND: Record<Granularity, Record<'UPSTREAM' | 'DOWNSTREAM', Query>> = {
  [Granularity.DATASET]: { UPSTREAM: Query.ExpandUpstream, DOWNSTREAM: Query.ExpandDownstream },
  [Granularity.FIELD]: { UPSTREAM: Query.ExpandFieldsUpstream, DOWNSTREAM: Query.ExpandFieldsDownstream },
};

/**
 * Directed lineage, at dataset/job granularity (reads and writes) or field granularity (column
 * lineage through jobs), current or as of a past time.
 *
 * Algorithm: breadth-first search from the start node, one query per hop over the whole frontier,
 * inside one read transaction (a consistent snapshot). Each node is visited once, so cycles (a job
 * reading and writing the same table) terminate and diamonds cost no path explosion. Depth counts
 * edges: from a dataset, depth 1 reaches the jobs that read (DOWNSTREAM) or write (UPSTREAM) it,
 * depth 2 the datasets beyond them.
 *
 * Datasets linked by SYMLINK are one logical dataset: each alias comes back at the distance of the
 * dataset it aliases, joined by an ALIAS edge, and costs no hop.
 *
 * Bounds: depth is capped at `maxDepth`; at most `maxNodes` nodes are returned per direction. After
 * the last hop one more step checks whether lineage continues, which sets `truncated`.
 */
export class LineageService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: LineageLimits,
  ) {}

  async lineage(
    nodeId: string,
    direction: Direction,
    requestedDepth: number,
    options: LineageOptions = { granularity: Granularity.DATASET },
  ): Promise<LineageGraph> {
    if (!Number.isInteger(requestedDepth) || requestedDepth < 1) {
      throw badInput(`depth must be a positive integer (got ${requestedDepth})`);
    }
    const { granularity } = options;
    const asOf = options.asOf ? normaliseAsOf(options.asOf) : null;
    const ref =
      granularity === Granularity.FIELD
        ? parseIdOfKind(nodeId, NodeKind.Field)
        : parseIdOfKind(nodeId, NodeKind.Dataset, NodeKind.Job);
    const depth = Math.min(requestedDepth, this.limits.maxDepth);
    return this.executor.readTx(async (tx) => {
      const root = await findStart(tx, nodeId, ref);
      const nodes = new Map<string, LineageNode>([[root.id, { ...root, distance: 0, side: 'ROOT' }]]);
      const edges = new Map<string, LineageEdge>();
      const truncatedBy = new Set<'DEPTH' | 'NODE_LIMIT'>();
      const sides =
        direction === Direction.BOTH ? [Direction.UPSTREAM, Direction.DOWNSTREAM] : [direction];
      for (const side of sides) {
        const query = EXPAND[granularity][side as 'UPSTREAM' | 'DOWNSTREAM'];
        const reasons = await this.traverse(tx, query, asOf, root, side as Direction.UPSTREAM | Direction.DOWNSTREAM, depth, nodes, edges);
        reasons.forEach((r) => truncatedBy.add(r));
      }
      const nodeList = [...nodes.values()].sort(
        (a, b) => Number(b.side === 'ROOT') - Number(a.side === 'ROOT') || a.distance - b.distance || cmp(a.id, b.id),
      );
      const edgeList = [...edges.values()]
        .filter((e) => nodes.has(e.fromId) && nodes.has(e.toId))
        .sort((a, b) => cmp(a.fromId, b.fromId) || cmp(a.toId, b.toId));
      return {
        root,
        direction,
        granularity,
        asOf,
        requestedDepth,
        depth,
        nodes: nodeList,
        edges: edgeList,
        truncated: truncatedBy.size > 0,
        truncatedBy: [...truncatedBy].sort(),
      };
    });
  }

  private async traverse(
    tx: TxRunner,
    query: Query,
    asOf: string | null,
    root: EntityRef,
    side: Direction.UPSTREAM | Direction.DOWNSTREAM,
    depth: number,
    nodes: Map<string, LineageNode>,
    edges: Map<string, LineageEdge>,
  ): Promise<('DEPTH' | 'NODE_LIMIT')[]> {
    const visited = new Set<string>([root.id]);
    let frontier: EntityRef[] = [root];
    let added = 0;
    // Rows (edges) per hop are bounded too; a hop that fills the bound is reported as NODE_LIMIT.
    const rowLimit = this.limits.maxNodes * 4;
    for (let hop = 1; frontier.length > 0; hop++) {
      const probing = hop > depth; // one step past the depth: does lineage continue?
      const rows = await tx.run<ExpandRow>(query, {
        datasetIds: frontier.filter((n) => n.kind === EntityKind.DATASET).map((n) => n.id),
        jobIds: frontier.filter((n) => n.kind === EntityKind.JOB).map((n) => n.id),
        fieldIds: frontier.filter((n) => n.kind === EntityKind.FIELD).map((n) => n.id),
        asOf,
        limit: rowLimit,
      });
      const next: EntityRef[] = [];
      for (const row of rows) {
        const isNew = !visited.has(row.node.id);
        // An alias is the same logical dataset as its frontier node: same distance, no hop, and its
        // own edges were expanded in this step already (so it joins no frontier).
        const alias = row.type === EdgeType.ALIAS;
        if (probing && isNew && !alias) return ['DEPTH'];
        if (isNew) {
          if (added >= this.limits.maxNodes) return ['NODE_LIMIT'];
          visited.add(row.node.id);
          added++;
          if (!alias && !probing) next.push(row.node);
          if (!nodes.has(row.node.id)) nodes.set(row.node.id, { ...row.node, distance: alias ? hop - 1 : hop, side });
        }
        edges.set(edgeKey(row), toEdge(row));
      }
      if (rows.length >= rowLimit) return ['NODE_LIMIT'];
      if (probing) return [];
      frontier = next;
    }
    return [];
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const edgeKey = (r: ExpandRow) => `${r.type}\u0000${r.fromId}\u0000${r.toId}\u0000${r.jobId ?? ''}`;
const toEdge = (r: ExpandRow): LineageEdge => ({
  fromId: r.fromId,
  toId: r.toId,
  type: r.type,
  firstSeen: r.firstSeen,
  lastSeen: r.lastSeen,
  declared: r.declared,
  current: r.current,
  jobId: r.jobId ?? null,
  types: r.types ?? null,
  subtypes: r.subtypes ?? null,
});

/**
 * Looks up the start node of a traversal (by the label its id names); NOT_FOUND when absent.
 */
export async function findStart(tx: TxRunner, id: string, ref: NodeRef): Promise<EntityRef> {
  const [found] = await tx.run<{ node: EntityRef }>(Query.NodeExists, {
    datasetId: ref.kind === NodeKind.Dataset ? id : null,
    jobId: ref.kind === NodeKind.Job ? id : null,
    fieldId: ref.kind === NodeKind.Field ? id : null,
  });
  if (!found) throw notFound(`no ${ref.kind} with id "${id}"`);
  return found.node;
}

/** An asOf argument as an event-time string (ISO-8601 UTC, milliseconds); BAD_INPUT otherwise. */
export function normaliseAsOf(asOf: string): string {
  const t = Date.parse(asOf);
  if (Number.isNaN(t)) throw badInput(`asOf must be an ISO-8601 date-time (got "${asOf}")`);
  return new Date(t).toISOString();
}
