import type { KafkaConnectSettings } from '../config-types';
import type { Executor } from '../graph/executor';
import { outcomeLabel, type Ingestor } from '../ingest/ingestor';
import type { IdentityRules } from '../ingest/naming';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { KafkaConnectCollector } from './collector';
import { readConnectCredentials } from './credentials';
import { collectorGraph } from './graph';

/**
 * The Kafka Connect collector as the service runs it (main.ts): its clusters from the
 * configuration, its events into the process's ingestor, its rounds on /metrics. Throws
 * ConfigError at start for unreadable credentials; after that, nothing it meets stops the process.
 */
export function createConnectCollector(
  settings: KafkaConnectSettings,
  deps: { ingestor: Ingestor; executor: Executor; rules: IdentityRules; metrics?: Metrics; log?: Logger },
): KafkaConnectCollector {
  const credentials = settings.credentialsFile ? readConnectCredentials(settings.credentialsFile, settings.clusters.map((c) => c.name)) : new Map<string, string>();
  const graph = collectorGraph(deps.executor, deps.rules);
  const m = deps.metrics;
  return new KafkaConnectCollector({
    clusters: settings.clusters.map((c) => ({ name: c.name, url: c.url, kafkaNamespace: `kafka://${c.bootstrap}`, basicAuth: credentials.get(c.name) })),
    intervalMs: settings.intervalMs,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    ingest: async (items) => {
      const outcomes = await deps.ingestor.ingest(items);
      for (const o of outcomes) m?.ingestEvents.inc({ transport: 'kafka-connect', outcome: outcomeLabel(o) });
      return outcomes;
    },
    knownTopics: (ns) => graph.knownTopics(ns),
    restore: (cluster) => graph.restore(cluster),
    log: deps.log,
    onRound: (cluster, o) => {
      m?.connectRounds.inc({ cluster, outcome: o.ok ? 'ok' : o.reason });
      if (!o.ok) return;
      m?.connectEvents.inc({ cluster }, o.sent);
      m?.connectConnectors.set({ cluster, lineage: 'all' }, o.connectors);
      m?.connectConnectors.set({ cluster, lineage: 'unknown' }, o.unknown);
      m?.connectConnectors.set({ cluster, lineage: 'mapped' }, o.connectors - o.unknown);
    },
  });
}
