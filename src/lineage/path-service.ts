import { badInput } from '../errors';
import { findStart } from './lineage-service';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { NodeKind, parseIdOfKind } from '../ids';
import { Granularity, type EntityRef } from './types';

/**
 * How node A reaches node B, in data-flow direction (A upstream of B): the shortest paths, up to
 * `first` of them, of at most `maxLength` edges (both at most 20). Dataset granularity follows
 * current reads and writes; field granularity follows column lineage.
 */

export interface PathEdge {
  fromId: string;
  toId: string;
  type: string;
  jobId?: string | null;
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
}

export class PathService {
  constructor(private readonly executor: Executor) {}

  async paths(fromId: string, toId: string, granularity: Granularity, maxLength: number, first: number): Promise<PathResult> {
    if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > 20) throw badInput('maxLength must be between 1 and 20');
    if (!Number.isInteger(first) || first < 1 || first > 20) throw badInput('first must be between 1 and 20');
    const kinds = granularity === Granularity.FIELD ? [NodeKind.Field] : [NodeKind.Dataset, NodeKind.Job];
    const rows = await this.executor.readTx(async (tx) => {
      for (const id of [fromId, toId]) await findStart(tx, id, parseIdOfKind(id, ...kinds));
      return tx.run<{ nodes: EntityRef[]; edges: PathEdge[] }>(
        granularity === Granularity.FIELD ? Query.ShortestFieldPaths : Query.ShortestPaths,
        { fromId, toId },
      );
    });
    const paths = rows
      .map((r) => ({ length: r.edges.length, nodes: r.nodes, edges: r.edges }))
      .filter((p) => p.length <= maxLength)
      .sort((a, b) => a.length - b.length || cmp(a.nodes.map((n) => n.id).join(' '), b.nodes.map((n) => n.id).join(' ')))
      .slice(0, first);
    return { fromId, toId, found: paths.length > 0, paths };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
