import type { Executor } from '../graph/executor';
import { idsOrNone, kindOf, parseIdOfKind } from '../ids';
import { Query } from '../graph/queries';
import { checkDepth, checkFirst, cmp, findStart } from './common';
import type { TraceService } from './trace-service';
import { DATASET_LINEAGE, pathTo, traverse } from './traversal';
import { Dependencies, Direction, EntityKind, type EntityRef, type TruncationReason } from './types';

/**
 * Blast radius (impact analysis): everything downstream of a dataset or field, with the distance,
 * the jobs on the way, owners (ownership facets) and each job's last run state. From a dataset the
 * walk is dataset/job lineage; from a field it is the downstream trace (column lineage where jobs
 * report it, dataset level where they do not). Totals are computed over every item that matches
 * the filters, so they stay exact while `items` is paged.
 */

export interface ImpactItem {
  id: string;
  kind: EntityKind;
  namespace: string;
  name: string;
  /** For fields: their dataset. */
  datasetId: string | null;
  distance: number;
  /** Job ids on a shortest path from the start to this item, in flow order. */
  via: string[];
  owners: string[];
  /** For jobs: the state of the latest run; null otherwise or when never run. */
  lastRunState: string | null;
}

export interface Count {
  key: string;
  count: number;
}

export interface BlastRadius {
  rootId: string;
  depth: number;
  truncated: boolean;
  truncatedBy: TruncationReason[];
  totals: { items: number; datasets: number; fields: number; jobs: number; byDistance: Count[]; byNamespace: Count[]; byOwner: Count[] };
  /** The page of items asked for, ordered by distance, then kind, then id. */
  items: ImpactItem[];
  /** Position of the page's first item among all matching items, and how many match. */
  offset: number;
  total: number;
}

export interface ImpactQuery {
  nodeId: string;
  depth: number;
  namespaces?: string[] | null;
  kinds?: EntityKind[] | null;
  first: number;
  /** Items to skip (the page's position). */
  offset: number;
  /** From a field: which column dependencies to follow (default ALL). */
  dependencies?: Dependencies;
  /** From a field: also metadata columns of table formats (metadata-columns.ts; default false). */
  metadataColumns?: boolean;
}

export class ImpactService {
  constructor(
    private readonly executor: Executor,
    private readonly traces: TraceService,
    private readonly limits: { maxDepth: number; maxNodes: number; maxPage: number },
  ) {}

  async blastRadius(q: ImpactQuery): Promise<BlastRadius> {
    checkFirst(q.first, this.limits.maxPage);
    const depth = checkDepth(q.depth, this.limits.maxDepth);
    const walk = await this.walk(q.nodeId, depth, q.dependencies ?? Dependencies.ALL, q.metadataColumns ?? false);
    const wanted = walk.items.filter(
      (i) => (!q.namespaces?.length || q.namespaces.includes(i.namespace)) && (!q.kinds?.length || q.kinds.includes(i.kind)),
    );
    await this.enrich(wanted);
    const items = wanted.sort((a, b) => a.distance - b.distance || cmp(a.kind, b.kind) || cmp(a.id, b.id));
    return {
      rootId: q.nodeId,
      depth,
      truncated: walk.truncatedBy.length > 0,
      truncatedBy: walk.truncatedBy,
      totals: {
        items: items.length,
        datasets: items.filter((i) => i.kind === EntityKind.DATASET).length,
        fields: items.filter((i) => i.kind === EntityKind.FIELD).length,
        jobs: items.filter((i) => i.kind === EntityKind.JOB).length,
        byDistance: countBy(items.map((i) => String(i.distance))).sort((a, b) => Number(a.key) - Number(b.key)),
        byNamespace: countBy(items.map((i) => i.namespace)),
        byOwner: countBy(items.flatMap((i) => (i.owners.length ? i.owners : ['(no owner)']))),
      },
      items: items.slice(q.offset, q.offset + q.first),
      offset: q.offset,
      total: items.length,
    };
  }

  /**
   * Downstream items with distance and the jobs on the way (not yet owners or run states): one
   * engine walk, `via` read off the parent edges. From a field the walk is a downstream trace, and
   * the jobs of its hops are items too (at the distance of their first hop).
   */
  private walk(nodeId: string, depth: number, dependencies: Dependencies, metadataColumns: boolean): Promise<{ items: ImpactItem[]; truncatedBy: TruncationReason[] }> {
    return this.executor.readTx('blastRadius', async (tx) => {
      const start = await findStart(tx, nodeId, EntityKind.DATASET, EntityKind.FIELD);
      if (start.kind === EntityKind.FIELD) {
        const t = await this.traces.walk(tx, start, Direction.DOWNSTREAM, depth, null, dependencies, metadataColumns);
        const via = (id: string) => pathTo(t, id).map((row) => row.jobId);
        const items = new Map<string, ImpactItem>();
        for (const { node, distance } of [...t.reached.values()].slice(1)) items.set(node.id, item(node, distance, via(node.id)));
        for (const { row, hop } of t.edges) {
          if (hop > depth || items.has(row.jobId)) continue;
          const job = parseIdOfKind(row.jobId, EntityKind.JOB);
          items.set(row.jobId, item({ id: row.jobId, kind: EntityKind.JOB, namespace: job.namespace, name: job.name }, hop, via(row.fromId)));
        }
        return { items: [...items.values()], truncatedBy: t.truncatedBy };
      }
      const t = await traverse(tx, DATASET_LINEAGE, { starts: [start], direction: Direction.DOWNSTREAM, depth, asOf: null, maxNodes: this.limits.maxNodes });
      const via = (id: string) => pathTo(t, id).map((row) => row.fromId).filter((id) => kindOf(id) === EntityKind.JOB);
      const items = [...t.reached.values()].slice(1).map(({ node, distance }) => item(node, distance, via(node.id)));
      return { items, truncatedBy: t.truncatedBy };
    });
  }

  /** Owners of datasets and jobs (fields take their dataset's), and jobs' last run states: one read, no facet JSON (impact-details.cypher). */
  private async enrich(items: ImpactItem[]): Promise<void> {
    const datasetOf = (i: ImpactItem) => (i.kind === EntityKind.FIELD ? i.datasetId : i.kind === EntityKind.DATASET ? i.id : null);
    const datasetIds = [...new Set(items.map(datasetOf).filter((x): x is string => x !== null))];
    const jobIds = items.filter((i) => i.kind === EntityKind.JOB).map((i) => i.id);
    if (datasetIds.length === 0 && jobIds.length === 0) return;
    const rows = await this.executor.read<{ id: string; owners: string[]; lastRunState: string | null }>(Query.ImpactDetails, { datasetIds: idsOrNone(datasetIds), jobIds: idsOrNone(jobIds) });
    const details = new Map(rows.map((r) => [r.id, r]));
    for (const i of items) {
      i.owners = details.get(datasetOf(i) ?? i.id)?.owners ?? [];
      i.lastRunState = i.kind === EntityKind.JOB ? (details.get(i.id)?.lastRunState ?? null) : null;
    }
  }
}

function item(node: EntityRef, distance: number, via: string[]): ImpactItem {
  const { id, kind, namespace, name } = node;
  return { id, kind, namespace, name, datasetId: node.datasetId ?? null, distance, via, owners: [], lastRunState: null };
}

function countBy(keys: string[]): Count[] {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || cmp(a.key, b.key));
}

