import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';

/**
 * Gives a graph projected before the Namespace summaries existed (ingest/merge-namespaces.cypher)
 * its summaries, once: admin/summarize-namespaces.cypher reads every job and dataset in one write
 * transaction and records that it ran, so later starts read one node. Run before anything ingests
 * in this process; a projector of another process writing meanwhile is merged with, not lost.
 * Returns the summaries written (0 when done before).
 */
export async function summarizeNamespaces(executor: Executor, log: Logger): Promise<number> {
  const started = Date.now();
  const [row] = await executor.writeTx(Query.SummarizeNamespaces, (tx) =>
    tx.run<{ namespaces: number }>(Query.SummarizeNamespaces, { at: new Date().toISOString() }),
  );
  const namespaces = row?.namespaces ?? 0;
  if (namespaces > 0) log.info('namespace summaries written for the graph projected so far (once)', { namespaces, ms: Date.now() - started });
  return namespaces;
}
