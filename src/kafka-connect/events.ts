import { createHash } from 'node:crypto';
import { COLLECTED_FACET, LINEAGE_UNKNOWN_FACET, RETIRED_FACET } from '../ingest/derive';
import { connectorLineage, type ConnectorLineage, type MappingContext } from './mapping';

/**
 * OpenLineage events for Kafka Connect connectors, as the collector sends them through the normal
 * ingestion path: one streaming job per connector (namespace `kafka-connect://<cluster>`, name the
 * connector's), one run per incarnation: a changed configuration ends the run (COMPLETE) and starts
 * another, a failure ends it (FAIL) and a recovery starts another, a deleted connector's run is
 * ABORTed and its job retired (the `retired` job facet: its lineage is no longer current).
 *
 * Contract: deterministic. The same snapshot at the same time gives byte-identical events (so a
 * repeated round stores nothing new); a run id comes from the cluster, the connector, a hash of its
 * configuration and the run it follows (none for the first), never from time or chance, so a
 * restarted collector that reads the latest run back from the graph continues the same chain.
 */

/** Tributary's own producer URI (OpenLineage `producer`) for what the collector sends. */
export const COLLECTOR_PRODUCER = 'https://github.com/tributary-lineage/tributary/tree/0.1.0/src/kafka-connect';
const RUN_FACET_SCHEMA = 'https://github.com/tributary-lineage/tributary/tree/0.1.0/src/kafka-connect/KafkaConnectRunFacet.json';
const COLLECTED_SCHEMA = 'https://github.com/tributary-lineage/tributary/tree/0.1.0/src/kafka-connect/CollectedJobFacet.json';
const LINEAGE_UNKNOWN_SCHEMA = 'https://github.com/tributary-lineage/tributary/tree/0.1.0/src/kafka-connect/LineageUnknownJobFacet.json';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

export interface TaskStatus {
  id: number;
  state: string;
  trace?: string | null;
}

/** One connector as `GET /connectors?expand=info&expand=status` describes it. */
export interface ConnectorSnapshot {
  name: string;
  /** `source` or `sink` (info.type). */
  type: string;
  config: Record<string, string>;
  connectorState: string;
  connectorTrace: string | null;
  tasks: TaskStatus[];
}

export type RunState = 'RUNNING' | 'FAILED' | 'PAUSED' | 'STOPPED' | 'UNASSIGNED' | 'RESTARTING';

/** Longest stack trace kept in the errorMessage facet. */
const MAX_TRACE = 4_000;

/** The connector's state: FAILED if it or any task failed, else the connector's own state. */
export function runState(s: ConnectorSnapshot): { state: RunState; trace: string | null } {
  const failed = s.connectorState === 'FAILED' ? { trace: s.connectorTrace } : s.tasks.find((t) => t.state === 'FAILED');
  if (failed) return { state: 'FAILED', trace: failed.trace ?? null };
  const known: RunState[] = ['RUNNING', 'PAUSED', 'STOPPED', 'UNASSIGNED', 'RESTARTING'];
  return { state: (known as string[]).includes(s.connectorState) ? (s.connectorState as RunState) : 'UNASSIGNED', trace: null };
}

const uuidFrom = (seed: string) => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Connector configuration keys holding secrets (passwords, JAAS configs, keys, tokens): never kept or hashed. */
export const isSecretKey = (key: string): boolean => /password|secret|credential|sasl\.jaas|api\.key|token|private/i.test(key);

/** The configuration that decides lineage: everything but secrets, sorted (a password change is no new run). */
export function lineageConfig(config: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !isSecretKey(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const jobNamespace = (cluster: string) => `kafka-connect://${cluster}`;

/** A short hash of the configuration that decides lineage (recorded on each run as `configHash`). */
export function configHashOf(config: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(lineageConfig(config))).digest('hex').slice(0, 16);
}

/** The run of this configuration that follows `previous` (a run id; null for a connector's first run). */
export function runIdOf(cluster: string, s: Pick<ConnectorSnapshot, 'name' | 'config'>, previous: string | null = null): string {
  return uuidFrom(`${cluster}\u0000${s.name}\u0000${configHashOf(s.config)}\u0000${previous ?? ''}`);
}

const RETIRED_SCHEMA = 'https://github.com/tributary-lineage/tributary/tree/0.1.0/src/kafka-connect/RetiredJobFacet.json';

export interface ConnectorEvents {
  runId: string;
  lineage: ConnectorLineage;
  state: RunState;
  event: Record<string, unknown>;
}

/**
 * The event that says what the connector is now (RUNNING, or FAIL with the trace's first line), in
 * run `runId` (default: the connector's first run, runIdOf with no previous run).
 */
export function connectorEvent(cluster: string, s: ConnectorSnapshot, ctx: MappingContext, at: Date, runId: string = runIdOf(cluster, s)): ConnectorEvents {
  const lineage = connectorLineage(s.config, ctx);
  const { state, trace } = runState(s);
  const runFacets: Record<string, unknown> = {
    kafkaConnect: {
      _producer: COLLECTOR_PRODUCER,
      _schemaURL: RUN_FACET_SCHEMA,
      cluster,
      connector: s.name,
      connectorClass: s.config['connector.class'] ?? null,
      configHash: configHashOf(s.config),
      state,
      tasks: s.tasks.map((t) => ({ id: t.id, state: t.state })),
      mapping: lineage.mapping,
      lineage: lineage.status,
      notes: lineage.notes,
    },
  };
  if (trace) {
    runFacets.errorMessage = {
      _producer: COLLECTOR_PRODUCER,
      _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet',
      message: trace.split('\n', 1)[0]!.slice(0, 1_000),
      programmingLanguage: 'JAVA',
      stackTrace: trace.slice(0, MAX_TRACE),
    };
  }
  const event = {
    eventTime: at.toISOString(),
    producer: COLLECTOR_PRODUCER,
    schemaURL: SCHEMA_URL,
    eventType: state === 'FAILED' ? 'FAIL' : 'RUNNING',
    run: { runId, facets: runFacets },
    job: {
      namespace: jobNamespace(cluster),
      name: s.name,
      facets: {
        jobType: {
          _producer: COLLECTOR_PRODUCER,
          _schemaURL: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
          processingType: 'STREAMING',
          integration: 'KAFKA_CONNECT',
          jobType: s.type === 'source' ? 'SOURCE_CONNECTOR' : s.type === 'sink' ? 'SINK_CONNECTOR' : 'CONNECTOR',
        },
        [COLLECTED_FACET]: { _producer: COLLECTOR_PRODUCER, _schemaURL: COLLECTED_SCHEMA, collector: 'kafka-connect', source: 'the Kafka Connect REST API (connector configuration)' },
        // A connector created again under a deleted one's name un-retires its job (the later facet wins).
        [RETIRED_FACET]: { _deleted: true },
        [LINEAGE_UNKNOWN_FACET]:
          lineage.status === 'UNKNOWN'
            ? { _producer: COLLECTOR_PRODUCER, _schemaURL: LINEAGE_UNKNOWN_SCHEMA, reason: lineage.notes[0] ?? 'a connector class Tributary does not map' }
            : { _deleted: true },
      },
    },
    inputs: lineage.inputs.map((d) => ({ ...d })),
    outputs: lineage.outputs.map((d) => ({ ...d })),
  };
  return { runId, lineage, state, event };
}

/**
 * The event that ends a run: its connector runs another configuration now (COMPLETE), or is gone
 * (ABORT, and the job retired). A deleted connector whose run had already ended (FAIL) gets a
 * JobEvent that retires its job alone.
 */
export function endEvent(cluster: string, connector: string, runId: string, why: 'DELETED' | 'RECONFIGURED', at: Date, runEnded = false): Record<string, unknown> {
  const job: Record<string, unknown> = { namespace: jobNamespace(cluster), name: connector };
  if (why === 'DELETED') {
    job.facets = { [RETIRED_FACET]: { _producer: COLLECTOR_PRODUCER, _schemaURL: RETIRED_SCHEMA, reason: 'the connector was deleted from its Kafka Connect cluster', lastRunId: runId, at: at.toISOString() } };
  }
  const base = { eventTime: at.toISOString(), producer: COLLECTOR_PRODUCER, job, inputs: [], outputs: [] };
  if (why === 'DELETED' && runEnded) return { ...base, schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent' };
  return {
    ...base,
    schemaURL: SCHEMA_URL,
    eventType: why === 'DELETED' ? 'ABORT' : 'COMPLETE',
    run: { runId, facets: { kafkaConnect: { _producer: COLLECTOR_PRODUCER, _schemaURL: RUN_FACET_SCHEMA, cluster, connector, ended: why } } },
  };
}

/**
 * The connectors of one `GET /connectors?expand=info&expand=status` answer, checked: entries that
 * are not shaped as Connect describes them are returned in `skipped` with the reason.
 */
export function parseListing(body: unknown): { connectors: ConnectorSnapshot[]; skipped: { name: string; reason: string }[] } {
  const connectors: ConnectorSnapshot[] = [];
  const skipped: { name: string; reason: string }[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { connectors, skipped: [{ name: '(answer)', reason: 'not a JSON object of connectors' }] };
  for (const [name, v] of Object.entries(body as Record<string, unknown>)) {
    const entry = v as { info?: { type?: unknown; config?: unknown }; status?: { connector?: { state?: unknown; trace?: unknown }; tasks?: unknown } } | null;
    const config = entry?.info?.config;
    if (!config || typeof config !== 'object' || Array.isArray(config)) {
      skipped.push({ name, reason: 'no info.config object (ask with expand=info)' });
      continue;
    }
    const strings = Object.fromEntries(Object.entries(config as Record<string, unknown>).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
    const tasks = Array.isArray(entry?.status?.tasks) ? (entry!.status!.tasks as { id?: unknown; state?: unknown; trace?: unknown }[]) : [];
    connectors.push({
      name,
      type: typeof entry?.info?.type === 'string' ? entry.info.type : 'unknown',
      config: strings,
      connectorState: typeof entry?.status?.connector?.state === 'string' ? entry.status.connector.state : 'UNASSIGNED',
      connectorTrace: typeof entry?.status?.connector?.trace === 'string' ? entry.status.connector.trace : null,
      tasks: tasks
        .filter((t) => t && typeof t === 'object')
        .map((t) => ({ id: typeof t.id === 'number' ? t.id : -1, state: typeof t.state === 'string' ? t.state : 'UNASSIGNED', trace: typeof t.trace === 'string' ? t.trace : null })),
    });
  }
  return { connectors, skipped };
}
