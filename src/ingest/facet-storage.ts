import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';

/** The facet storage merge-facets.cypher writes: three parallel lists per node and run-level edge. */
export const FACET_STORAGE = 'lists';

/**
 * Brings a graph written before the facet lists (one `facet.<key>`/`facetAt.<key>` property per
 * facet) to the list form, in id-ordered steps of `pageSize` nodes per kind, then records the
 * format so later starts only read one node. A new graph is recorded without a walk. Run before
 * anything ingests; idempotent, so an interrupted conversion resumes on the next start. Neo4j never
 * drops a property key once created: the old keys stay listed by db.propertyKeys() (unused) until
 * the store is copied (neo4j-admin database copy).
 */
export async function migrateFacetStorage(executor: Executor, log: Logger, pageSize = 2000): Promise<number> {
  const [state] = await executor.read<{ format: string | null; projected: boolean }>(Query.FacetStorageState, {});
  if (state?.format === FACET_STORAGE) return 0;
  let converted = 0;
  if (state?.projected) {
    log.info('converting stored facets to the list form (once)', {});
    converted = await convertFacetStorage(executor, pageSize);
    log.info('stored facets converted', { converted });
  }
  await executor.writeTx(Query.RecordFacetStorage, (tx) => tx.run(Query.RecordFacetStorage, { format: FACET_STORAGE, at: new Date().toISOString() }));
  return converted;
}

/** Walks every job, dataset and run (and the runs' INPUT_TO/OUTPUT_TO edges); returns how many it converted. */
export async function convertFacetStorage(executor: Executor, pageSize = 2000): Promise<number> {
  let converted = 0;
  for (const kind of ['job', 'dataset', 'run']) {
    let after: string | null = '';
    while (after !== null) {
      const [row] = await executor.writeTx(Query.MigrateFacetStorage, (tx) =>
        tx.run<{ last: string | null; converted: number }>(Query.MigrateFacetStorage, { kind, after, limit: pageSize }),
      );
      after = row?.last ?? null;
      converted += row?.converted ?? 0;
    }
  }
  return converted;
}
