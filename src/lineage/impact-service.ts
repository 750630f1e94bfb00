import { badInput } from '../errors';
import { decodeOffset, encodeOffset } from '../paging';
import { NodeKind, parseId, parseIdOfKind } from '../ids';
import type { CatalogService } from './catalog-service';
import type { LineageService } from './lineage-service';
import type { TraceService } from './trace-service';
import { Direction, EntityKind, Granularity } from './types';

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
  truncatedBy: ('DEPTH' | 'NODE_LIMIT')[];
  totals: { items: number; datasets: number; fields: number; jobs: number; byDistance: Count[]; byNamespace: Count[]; byOwner: Count[] };
  /** The page of items asked for, ordered by distance, then kind, then id. */
  items: ImpactItem[];
  /** Cursor of the last item of the page; pass it as `after` for the next page. */
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface ImpactQuery {
  nodeId: string;
  depth: number;
  namespaces?: string[] | null;
  kinds?: EntityKind[] | null;
  first: number;
  after?: string | null;
}

export class ImpactService {
  constructor(
    private readonly lineage: LineageService,
    private readonly traces: TraceService,
    private readonly catalog: CatalogService,
    private readonly maxPage = 500,
  ) {}

  async blastRadius(q: ImpactQuery): Promise<BlastRadius> {
    if (!Number.isInteger(q.first) || q.first < 1 || q.first > this.maxPage) {
      throw badInput(`first must be between 1 and ${this.maxPage} (got ${q.first})`);
    }
    const offset = q.after ? decodeOffset(q.after) : 0;
    const walk = await this.walk(q.nodeId, q.depth);
    const wanted = walk.items.filter(
      (i) => (!q.namespaces?.length || q.namespaces.includes(i.namespace)) && (!q.kinds?.length || q.kinds.includes(i.kind)),
    );
    await this.enrich(wanted);
    const items = wanted.sort((a, b) => a.distance - b.distance || cmp(a.kind, b.kind) || cmp(a.id, b.id));
    const page = items.slice(offset, offset + q.first);
    return {
      rootId: q.nodeId,
      depth: walk.depth,
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
      items: page,
      endCursor: page.length ? encodeOffset(offset + page.length) : null,
      hasNextPage: offset + page.length < items.length,
    };
  }

  /** Downstream items with distance and the jobs on the way (not yet owners or run states). */
  private async walk(nodeId: string, depth: number) {
    const ref = parseId(nodeId);
    if (ref.kind === NodeKind.Field) {
      const t = await this.traces.trace(nodeId, Direction.DOWNSTREAM, depth);
      const via = new Map<string, string[]>([[t.start.id, []]]);
      const items = new Map<string, ImpactItem>();
      for (const h of t.hops) {
        const before = via.get(h.fromId) ?? [];
        if (!via.has(h.toId)) via.set(h.toId, [...before, h.jobId]);
        const reached = t.nodes.find((n) => n.id === h.toId)!;
        if (!items.has(h.toId)) {
          items.set(h.toId, item(reached.id, reached.kind, reached.namespace, reached.name, h.distance, via.get(h.toId)!, reached.datasetId ?? null));
        }
        if (!items.has(h.jobId)) {
          const job = parseIdOfKind(h.jobId, NodeKind.Job);
          items.set(h.jobId, item(h.jobId, EntityKind.JOB, job.namespace, job.name, h.distance, before));
        }
      }
      return { items: [...items.values()], depth: t.depth, truncatedBy: t.truncatedBy };
    }
    if (ref.kind !== NodeKind.Dataset) throw badInput(`blastRadius starts from a dataset or field id (got a ${ref.kind} id)`);
    const g = await this.lineage.lineage(nodeId, Direction.DOWNSTREAM, depth, { granularity: Granularity.DATASET });
    const pred = new Map<string, string>();
    for (const e of g.edges) if (!pred.has(e.toId) && e.type !== 'ALIAS') pred.set(e.toId, e.fromId);
    const via = (id: string): string[] => {
      const path: string[] = [];
      for (let cur = pred.get(id), guard = 0; cur && guard < 1000; cur = pred.get(cur), guard++) {
        if (cur.startsWith('job:')) path.unshift(cur);
      }
      return path;
    };
    const items = g.nodes.filter((n) => n.side !== 'ROOT').map((n) => item(n.id, n.kind, n.namespace, n.name, n.distance, via(n.id)));
    return { items, depth: g.depth, truncatedBy: g.truncatedBy };
  }

  /** Owners of datasets and jobs (fields take their dataset's), and jobs' last run states. */
  private async enrich(items: ImpactItem[]): Promise<void> {
    const datasetOf = (i: ImpactItem) => (i.kind === EntityKind.FIELD ? i.datasetId : i.kind === EntityKind.DATASET ? i.id : null);
    const datasetIds = [...new Set(items.map(datasetOf).filter((x): x is string => x !== null))];
    const jobIds = items.filter((i) => i.kind === EntityKind.JOB).map((i) => i.id);
    const [datasets, jobs, latest] = await Promise.all([
      this.catalog.datasets(datasetIds),
      this.catalog.jobs(jobIds),
      this.catalog.latestRunOfJobs(jobIds),
    ]);
    const runs = await this.catalog.runs(latest.filter((r): r is string => r !== null));
    const owners = new Map<string, string[]>();
    datasets.forEach((d) => d && owners.set(d.id, d.owners ?? []));
    jobs.forEach((j) => j && owners.set(j.id, j.owners ?? []));
    const stateOf = new Map(runs.filter((r) => r !== null).map((r) => [r!.jobId, r!.state]));
    for (const i of items) {
      i.owners = owners.get(datasetOf(i) ?? i.id) ?? [];
      i.lastRunState = i.kind === EntityKind.JOB ? (stateOf.get(i.id) ?? null) : null;
    }
  }
}

function item(
  id: string,
  kind: EntityKind,
  namespace: string,
  name: string,
  distance: number,
  via: string[],
  datasetId: string | null = null,
): ImpactItem {
  return { id, kind, namespace, name, datasetId, distance, via, owners: [], lastRunState: null };
}

function countBy(keys: string[]): Count[] {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || cmp(a.key, b.key));
}


const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
