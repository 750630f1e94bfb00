import { datasetId, jobId } from '../ids';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { normaliseDatasetName, type IdentityRules } from '../ingest/naming';
import type { LastRun } from './collector';
import { jobNamespace } from './events';

/**
 * What the Kafka Connect collector reads from the graph: the topics Tributary knows on a Kafka
 * cluster (for `topics.regex`), and each connector job's latest run (what was last sent).
 */

/** Most topic names read for one `topics.regex` round (mapping.ts matches at most MAX_REGEX_TOPICS of them). */
const MAX_KNOWN_TOPICS = 100_000;

export function collectorGraph(executor: Executor, rules: IdentityRules) {
  return {
    /** The topic names of a Kafka namespace, as the identity rules name it. */
    async knownTopics(kafkaNamespace: string): Promise<string[]> {
      const { namespace } = normaliseDatasetName(kafkaNamespace, '-', rules);
      // The id of the empty name is the namespace's id prefix: 'dataset:<escaped ns>:'.
      const prefix = datasetId(namespace, '');
      const rows = await executor.read<{ name: string }>(Query.KnownTopics, { prefix, limit: MAX_KNOWN_TOPICS });
      return rows.map((r) => r.name);
    },
    async restore(cluster: string): Promise<Map<string, LastRun>> {
      const prefix = jobId(jobNamespace(cluster), '');
      const rows = await executor.read<{ connector: string; runId: string; ended: boolean; facetKeys: string[]; facetValues: string[] }>(Query.ConnectorRuns, { prefix });
      return new Map(rows.map((r) => [r.connector, { runId: r.runId, ended: r.ended, configHash: configHashIn(r.facetKeys, r.facetValues) }]));
    },
  };
}

function configHashIn(keys: string[], values: string[]): string | null {
  const at = keys.indexOf('kafkaConnect');
  if (at < 0 || !values[at]) return null;
  try {
    const hash = (JSON.parse(values[at]!) as { configHash?: unknown }).configHash;
    return typeof hash === 'string' ? hash : null;
  } catch {
    return null;
  }
}
