import type { Executor } from '../graph/executor';
import { checkDepth, cmp, findStart, optionalTime } from './common';
import { DATASET_LINEAGE, FIELD_LINEAGE, flowsOf, traverse, type ExpandRow } from './traversal';
import {
  Direction,
  EdgeEvidence,
  EntityKind,
  Evidence,
  followedEvidence,
  Granularity,
  Side,
  type LineageEdge,
  type LineageGraph,
  type LineageNode,
  type LineageOptions,
  type TruncationReason,
} from './types';

export interface LineageLimits {
  maxDepth: number;
  maxNodes: number;
}

/**
 * Directed lineage, at dataset/job granularity (reads and writes) or field granularity (column
 * lineage through jobs), current or as of a past time: one walk of the traversal engine per
 * direction (src/lineage/traversal.ts), both in one read transaction.
 *
 * Depth counts edges: from a dataset, depth 1 reaches the jobs that read (DOWNSTREAM) or write
 * (UPSTREAM) it, depth 2 the datasets beyond them. Datasets linked by SYMLINK are one logical
 * dataset: each alias comes back at the distance of the dataset it aliases, joined by an ALIAS
 * edge. With BOTH, a node on both sides keeps the distance and side of the UPSTREAM walk.
 *
 * Bounds: depth capped at `maxDepth`; at most `maxNodes` nodes per direction; `truncated` says
 * when lineage continues beyond what is returned.
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
    const depth = checkDepth(requestedDepth, this.limits.maxDepth);
    const { granularity } = options;
    const asOf = optionalTime(options.asOf);
    const field = granularity === Granularity.FIELD;
    return this.executor.readTx('lineage', async (tx) => {
      const root = await findStart(tx, nodeId, ...(field ? [EntityKind.FIELD] : [EntityKind.DATASET, EntityKind.JOB]));
      const nodes = new Map<string, LineageNode>([[root.id, { ...root, distance: 0, side: Side.ROOT }]]);
      const edges = new Map<string, LineageEdge>();
      const truncatedBy = new Set<TruncationReason>();
      for (const flow of flowsOf(direction)) {
        const walk = await traverse(tx, field ? FIELD_LINEAGE : DATASET_LINEAGE, {
          starts: [root],
          direction: flow,
          depth,
          asOf,
          maxNodes: this.limits.maxNodes,
          dependencies: options.dependencies,
          metadataColumns: options.metadataColumns,
          evidence: followedEvidence(options.evidence ?? Evidence.REPORTED),
        });
        for (const { node, distance } of walk.reached.values()) {
          if (!nodes.has(node.id)) nodes.set(node.id, { ...node, distance, side: flow === Direction.UPSTREAM ? Side.UPSTREAM : Side.DOWNSTREAM });
        }
        for (const { row } of walk.edges) edges.set(edgeKey(row), toEdge(row));
        walk.truncatedBy.forEach((r) => truncatedBy.add(r));
      }
      const nodeList = [...nodes.values()].sort(
        (a, b) => Number(b.side === Side.ROOT) - Number(a.side === Side.ROOT) || a.distance - b.distance || cmp(a.id, b.id),
      );
      const edgeList = [...edges.values()]
        .filter((e) => nodes.has(e.fromId) && nodes.has(e.toId))
        .sort((a, b) => cmp(a.fromId, b.fromId) || cmp(a.toId, b.toId) || cmp(a.type, b.type) || cmp(a.jobId ?? '', b.jobId ?? ''));
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
}

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
  outputFields: r.outputFields ?? null,
  fieldsWithInputs: r.fieldsWithInputs ?? null,
  evidence: r.evidence ?? EdgeEvidence.REPORTED,
  statement: r.statement ? { ...r.statement, line: Number(r.statement.line), column: Number(r.statement.column) } : null,
});
