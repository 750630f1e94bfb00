import { idPrefix } from '../ids';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { checkFirst } from './common';
import { BrowseOrder, EntityKind, type NamespaceRecord } from './types';

/** A page of ids of one kind, in the requested order, and how many there are in all. */
export interface IdPage {
  ids: string[];
  total: number;
}

/**
 * Browsing without knowing a name: the namespaces with their counts, and datasets and jobs of a
 * namespace (or all) in name or recency order, paged by offset. Callers load the nodes by id.
 */
export class BrowseService {
  constructor(private readonly executor: Executor) {}

  /** Namespaces holding datasets or jobs, ordered by name. */
  async namespaces(skip: number, limit: number): Promise<{ items: NamespaceRecord[]; total: number }> {
    const [row] = await this.executor.read<{ total: number; items: NamespaceRecord[] }>(Query.Namespaces, { skip, limit: checkFirst(limit, 1000) });
    return { items: row?.items ?? [], total: row?.total ?? 0 };
  }

  /** Datasets, of one namespace when given (exact name). */
  datasets(namespace: string | null, order: BrowseOrder, skip: number, limit: number): Promise<IdPage> {
    const query = order === BrowseOrder.LAST_SEEN ? Query.DatasetsByLastSeen : Query.DatasetsByName;
    return this.page(query, namespace === null ? 'dataset:' : `${idPrefix(EntityKind.DATASET, namespace)}:`, skip, limit);
  }

  /** Jobs, of one namespace when given (exact name). */
  jobs(namespace: string | null, order: BrowseOrder, skip: number, limit: number): Promise<IdPage> {
    const query = order === BrowseOrder.LAST_SEEN ? Query.JobsByLastSeen : Query.JobsByName;
    return this.page(query, namespace === null ? 'job:' : `${idPrefix(EntityKind.JOB, namespace)}:`, skip, limit);
  }

  private async page(query: Query, prefix: string, skip: number, limit: number): Promise<IdPage> {
    const [row] = await this.executor.read<IdPage>(query, { prefix, skip, limit: checkFirst(limit, 500) });
    return { ids: row?.ids ?? [], total: row?.total ?? 0 };
  }
}
