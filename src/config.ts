import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { kafkaConnectSettings } from './config-kafka-connect';
import type { Config } from './config-types';
export type { Neo4jConnection, GraphDeadlines, EmbeddedNeo4jSettings, Config, AlertSettings, IngestSettings, KafkaSettings, KafkaConnectSettings } from './config-types';

/**
 * Tributary's configuration: the only module that reads `process.env`.
 * Every variable is optional; the defaults give the embedded default (a local Neo4j that
 * Tributary provisions and starts itself, the service on port 5000).
 */

const byteSize = z
  .string()
  .regex(/^\d+\s*([kmg]i?b?)?$/i, 'expected a byte size such as 16mb, 512k or 1048576')
  .transform(parseByteSize);

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Serve HTTPS with this certificate chain and private key (PEM files); plain HTTP when unset. */
  TRIBUTARY_TLS_CERT: z.string().min(1).optional(),
  TRIBUTARY_TLS_KEY: z.string().min(1).optional(),
  /** When set, Tributary connects to this Neo4j (bolt://, neo4j://, +s/+ssc variants) and starts none. */
  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/.+/, 'expected bolt://, neo4j://, bolt+s://, neo4j+s:// (or +ssc) URI')
    .optional(),
  NEO4J_USER: z.string().default('neo4j'),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z.string().min(1).optional(),
  /** Embedded default: where the local Neo4j keeps its data (survives restarts). */
  TRIBUTARY_HOME: z.string().min(1).default('.tributary'),
  TRIBUTARY_NEO4J_PORT: z.coerce.number().int().min(0).max(65535).default(7687),
  /** Embedded default: JVM heap and page cache; unset, sized from the machine (src/graph/embedded/sizing.ts). */
  TRIBUTARY_NEO4J_HEAP: z.string().regex(/^\d+[mg]$/i).optional(),
  TRIBUTARY_NEO4J_PAGECACHE: z.string().regex(/^\d+[mg]$/i).optional(),
  /** Restart attempts in a row for a dead embedded Neo4j before giving up. */
  TRIBUTARY_NEO4J_RESTARTS: z.coerce.number().int().min(0).max(100).default(5),
  /** Embedded default: a Neo4j that has not answered its liveness probe for this long is killed and restarted (0: never). */
  TRIBUTARY_NEO4J_HANG_S: z.coerce.number().int().min(0).max(3600).default(60),
  /** Longest wait to connect to Neo4j or to get a connection from the pool. */
  TRIBUTARY_NEO4J_TIMEOUT_MS: positiveInt.max(600_000).default(5_000),
  /** Longest a write transaction (a projection batch) may take before the client gives up on it (UNAVAILABLE). */
  TRIBUTARY_WRITE_TIMEOUT_MS: positiveInt.max(3_600_000).default(60_000),
  /**
   * Embedded default on Java 25+: `auto` keeps the JVM's AOT cache (trained by one run, loaded by
   * the next: a start's warm-up costs less CPU; src/graph/embedded/aot-cache.ts); `off` never.
   */
  TRIBUTARY_NEO4J_AOT_CACHE: z.enum(['auto', 'off']).default('auto'),
  /** Embedded default: the JVM's garbage collector, `g1` (Neo4j's default) or `parallel` (less CPU, stop-the-world pauses; bench/README). */
  TRIBUTARY_NEO4J_GC: z.enum(['g1', 'parallel']).default('g1'),
  /** Where those caches are kept; unset: `<TRIBUTARY_HOME>/neo4j/aot`. One directory may serve several homes. */
  TRIBUTARY_NEO4J_AOT_DIR: z.string().min(1).optional(),
  /** Java ≥ 17 to run the embedded Neo4j; defaults to $JAVA_HOME/bin/java, then `java` on PATH. */
  JAVA_HOME: z.string().optional(),
  /**
   * A JDK for the embedded Neo4j (and neo4j-admin) only, when it should differ from JAVA_HOME's:
   * a JDK 25 for its AOT cache while the other Java tools stay on 17.
   */
  TRIBUTARY_NEO4J_JAVA_HOME: z.string().min(1).optional(),
  PATH: z.string().default(''),
  /** When set, ingestion requires `Authorization: Bearer <key>`. */
  TRIBUTARY_INGEST_KEY: z.string().min(1).optional(),
  TRIBUTARY_MAX_EVENT_BYTES: byteSize.default(16 * 1024 * 1024),
  TRIBUTARY_MAX_BATCH_BYTES: byteSize.default(64 * 1024 * 1024),
  TRIBUTARY_MAX_BATCH_EVENTS: positiveInt.default(1000),
  /** HTTP ingestion answers once events are stored (none) or once projected too (projected); a request may ask for either. */
  TRIBUTARY_INGEST_WAIT: z.enum(['none', 'projected']).default('none'),
  /**
   * Where HTTP ingestion acknowledges: `spool`, this node's disk (the single-node default), or
   * `kafka`, the events topic on KAFKA_BROKERS (API replicas then hold no state; see src/ingest/kafka-log.ts).
   */
  TRIBUTARY_INGEST_LOG: z.enum(['spool', 'kafka']).default('spool'),
  /** Longest a request waiting for its projection waits before 202 (stored, not yet projected). */
  TRIBUTARY_WAIT_TIMEOUT_MS: positiveInt.default(30_000),
  /** /readyz answers 503 while the oldest stored event waiting for projection is older than this (0: lag never makes it unready). */
  TRIBUTARY_MAX_PROJECTION_LAG_MS: z.coerce.number().int().min(0).default(0),
  /** The ingestion spool's folder (default <TRIBUTARY_HOME>/spool): local disk, one per process. */
  TRIBUTARY_SPOOL_DIR: z.string().min(1).optional(),
  /** Unprojected spool size beyond which ingestion answers 503 until the projection catches up. */
  TRIBUTARY_SPOOL_MAX_MB: positiveInt.default(2048),
  /** Events per projection transaction (the background projector), at most. */
  TRIBUTARY_PROJECTION_BATCH: positiveInt.max(5000).default(500),
  /** JSON text per projection transaction (the projector's and the Kafka worker's), at most; a larger event goes alone. */
  TRIBUTARY_PROJECTION_BATCH_BYTES: byteSize.default(16 * 1024 * 1024),
  /** Estimated memory of the validated events the projector keeps in hand; beyond, it reads them back from the spool. */
  TRIBUTARY_PROJECTION_QUEUE_BYTES: byteSize.default(256 * 1024 * 1024),
  /** How long the projector lets a small batch wait for more events (unless a client waits for it). */
  TRIBUTARY_PROJECTION_LINGER_MS: z.coerce.number().int().min(0).max(10_000).default(500),
  /** While reads execute, ingestion's CPU work runs one event's task per this many ms (src/cpu-turns.ts); 0 turns read priority off. */
  TRIBUTARY_READ_PRIORITY_MS: z.coerce.number().int().min(0).max(100).default(2),
  /** Ingestion's tasks (an event's parse or validation) that may wait before new bodies get 503. */
  TRIBUTARY_INGEST_MAX_WAITING: positiveInt.default(40_000),
  TRIBUTARY_MAX_DEPTH: positiveInt.max(100).default(20),
  TRIBUTARY_DEFAULT_DEPTH: positiveInt.default(3),
  TRIBUTARY_MAX_NODES: positiveInt.default(2000),
  TRIBUTARY_MARQUEZ_MAX_NODES: positiveInt.max(1_000_000).default(10_000),
  TRIBUTARY_MAX_COVERAGE_EDGES: positiveInt.default(200_000),
  TRIBUTARY_PLAN_WARMUP: z.enum(['first', 'all', 'true', 'false']).default('first'),
  /** Unset: 10 with the embedded Neo4j, 0 (off) with NEO4J_URI. */
  TRIBUTARY_PLAN_REFRESH_S: z.coerce.number().int().min(0).max(3600).optional(),
  TRIBUTARY_MAX_QUERY_DEPTH: positiveInt.default(15),
  /** Estimated answer size (src/graphql/limits.ts): a full depth-20 lineage both ways (4,000 nodes, 8 fields each) costs about 52,000. */
  TRIBUTARY_MAX_QUERY_COMPLEXITY: positiveInt.default(100_000),
  /** GraphQL schema introspection (what GraphiQL and codegen use); on unless set to false. */
  /** On unless set to false; off by default when a tokens file is in force. */
  TRIBUTARY_GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).optional(),
  /** Bearer tokens with scopes (src/http/auth.ts); access is open without it. */
  TRIBUTARY_TOKENS_FILE: z.string().min(1).optional(),
  /** The same as the file's text, for secret stores that set environment variables. */
  TRIBUTARY_TOKENS: z.string().min(1).optional(),
  /** Browser origins allowed to call the API (CORS), comma-separated; `*` for any. */
  TRIBUTARY_CORS_ORIGINS: z.string().optional(),
  /** The lineage explorer (web/, built into dist/web) at / ; on unless set to false. */
  TRIBUTARY_EXPLORER: z.enum(['true', 'false']).default('true'),
  /** Coverage badge colours: below the first share (percent) red, below the second yellow, else green. */
  TRIBUTARY_BADGE_THRESHOLDS: z
    .string()
    .regex(/^\s*\d{1,3}(\.\d+)?\s*,\s*\d{1,3}(\.\d+)?\s*$/, 'two percentages, e.g. 50,80')
    .default('50,80'),
  /** Who may frame the coverage widget (CSP frame-ancestors), e.g. `https://grafana.example.com`. */
  TRIBUTARY_EMBED_FRAME_ANCESTORS: z.string().min(1).default("'self'"),
  /** The /embed badge and widget without a token even when a tokens file is in force (coverage figures and the widget's top-gap names become public). */
  TRIBUTARY_EMBED_PUBLIC: z.enum(['true', 'false']).default('false'),
  /** Seconds between refreshes of the lineage gauges on /metrics; 0: off. */
  TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** (namespace, engine) label pairs of the coverage gauges at most; the rest are summed under "_other". */
  TRIBUTARY_LINEAGE_GAUGES_MAX_SERIES: positiveInt.max(10_000).default(200),
  /** Where coverage-drop alerts are POSTed (JSON); unset: no alerts (src/http/coverage-alerts.ts). */
  TRIBUTARY_ALERT_WEBHOOK: z.url({ protocol: /^https?$/ }).optional(),
  /** Which jobs the checks watch: ALL (default), or NAMESPACE / ENGINE / JOB with TRIBUTARY_ALERT_SCOPE_VALUE. */
  TRIBUTARY_ALERT_SCOPE: z.enum(['ALL', 'NAMESPACE', 'ENGINE', 'JOB']).default('ALL'),
  TRIBUTARY_ALERT_SCOPE_VALUE: z.string().min(1).max(2_000).optional(),
  /** Seconds between coverage-drop checks. */
  TRIBUTARY_ALERT_INTERVAL_S: positiveInt.max(86_400).default(300),
  /** Alert when a column-level share (overall, an engine's or a namespace's) drops by more than this many percentage points between two checks. */
  TRIBUTARY_ALERT_DROP: z.coerce.number().min(0).max(100).default(5),
  /** Delivery attempts per alert, and the wait before the second (doubled for each next one). */
  TRIBUTARY_ALERT_ATTEMPTS: positiveInt.max(20).default(6),
  TRIBUTARY_ALERT_BACKOFF_MS: positiveInt.max(600_000).default(2_000),
  /** Secret for the X-Tributary-Signature header (HMAC-SHA256 of the body); unset: unsigned. */
  TRIBUTARY_ALERT_SECRET: z.string().min(16).optional(),
  /** Requests per minute per principal (token name, ingest key, JWT subject; per client address without one); unset: no limit. */
  TRIBUTARY_RATE_LIMIT: positiveInt.optional(),
  /** Failed authentications (401) per client address per minute; beyond, 429 before credentials are checked. 0: no limit. */
  TRIBUTARY_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(30),
  /** OIDC/JWT access: all three, or none. */
  TRIBUTARY_JWT_ISSUER: z.string().min(1).optional(),
  TRIBUTARY_JWT_AUDIENCE: z.string().min(1).optional(),
  TRIBUTARY_JWKS_URL: z.url().optional(),
  /** Lexical tokens of one GraphQL document, and field selections once its fragments are expanded. */
  TRIBUTARY_MAX_QUERY_TOKENS: positiveInt.default(5_000),
  /** Largest /graphql request body (query and variables). */
  TRIBUTARY_MAX_QUERY_BYTES: byteSize.default(1024 * 1024),
  TRIBUTARY_MAX_QUERY_ALIASES: positiveInt.default(20),
  /** Values one GraphQL answer may hold (fields resolved), the backstop behind the cost estimate. */
  TRIBUTARY_MAX_RESPONSE_FIELDS: positiveInt.default(250_000),
  /** Longest a read transaction may run in Neo4j before the server cancels it. */
  TRIBUTARY_QUERY_TIMEOUT_MS: positiveInt.default(30_000),
  /** Heavy reads executing at once (walks, analytics, REST coverage and diff; src/http/lanes.ts); default: the number of cores, at least 2. */
  TRIBUTARY_GRAPHQL_CONCURRENCY: positiveInt.optional(),
  /** GraphQL lookups executing at once, on slots of their own; default: twice the number of cores, at least 4. */
  TRIBUTARY_LOOKUP_CONCURRENCY: positiveInt.optional(),
  /** Anonymous embeds (TRIBUTARY_EMBED_PUBLIC=true) executing at once, on slots of their own. */
  TRIBUTARY_EMBED_CONCURRENCY: positiveInt.default(1),
  /** Reads that may wait for a slot, per lane; beyond, 503 at once. */
  TRIBUTARY_GRAPHQL_QUEUE: positiveInt.default(1000),
  /** Reads of one client (token, else address) that may wait for a slot, per lane; beyond, 503 at once. */
  TRIBUTARY_GRAPHQL_CLIENT_QUEUE: positiveInt.default(50),
  TRIBUTARY_IDENTITY_RULES: z.string().min(1).optional(),
  TRIBUTARY_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Comma-separated bootstrap servers; when set, `serve` also runs the Kafka ingestion worker. */
  KAFKA_BROKERS: z.string().min(1).optional(),
  KAFKA_TOPIC: z.string().min(1).default('openlineage.events'),
  /** Dead-letter topic for messages that are not valid events; default `<topic>.dlq`. */
  KAFKA_DLQ_TOPIC: z.string().min(1).optional(),
  KAFKA_GROUP_ID: z.string().min(1).default('tributary'),
  KAFKA_CLIENT_ID: z.string().min(1).default('tributary'),
  KAFKA_SESSION_TIMEOUT_MS: positiveInt.default(30_000),
  KAFKA_STUCK_MS: positiveInt.default(60_000),
  /** Kafka Connect REST URLs to collect connector lineage from, comma-separated, each `url` or `name=url` (src/kafka-connect/). */
  TRIBUTARY_KAFKA_CONNECT_URLS: z.string().min(1).optional(),
  /** The Kafka bootstrap servers of those clusters' workers (the REST API does not say): one list for all, or `name=servers;name=servers`; default KAFKA_BROKERS. */
  TRIBUTARY_KAFKA_CONNECT_KAFKA: z.string().min(1).optional(),
  /** YAML file of basic-auth credentials per cluster name: `<name>: {username, password}`. */
  TRIBUTARY_KAFKA_CONNECT_CREDENTIALS: z.string().min(1).optional(),
  TRIBUTARY_KAFKA_CONNECT_INTERVAL_S: positiveInt.max(86_400).default(60),
  /** Longest wait for one cluster's answer (connecting and reading it). */
  TRIBUTARY_KAFKA_CONNECT_TIMEOUT_MS: positiveInt.max(600_000).default(10_000),
  /** Largest answer read from one cluster per round; a larger one fails that round (TOO_LARGE). */
  TRIBUTARY_KAFKA_CONNECT_MAX_BYTES: byteSize.default(64 * 1024 * 1024),
  /** Seconds between rounds of the SQL declarer (tables named in sql job facets, src/sql/declarer.ts); 0: off. */
  TRIBUTARY_SQL_DECLARE_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(30),
  /** Longest parse of one statement, once the dialect's grammar is loaded; past it the statement is UNPARSED (TIMEOUT). */
  TRIBUTARY_SQL_PARSE_TIMEOUT_MS: positiveInt.max(600_000).default(5_000),
  /** Longest parse of the first statement of a dialect in a parser worker (it loads the grammar). */
  TRIBUTARY_SQL_PARSE_COLD_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
  /** Most events one Neo4j transaction of the worker holds. */
  TRIBUTARY_WORKER_BATCH: positiveInt.max(5000).default(500),
});

export class ConfigError extends Error {}

/** Parses an environment (defaults to `process.env`); throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset (docker-compose writes `KEY=` for optional settings).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (!e.TRIBUTARY_TLS_CERT !== !e.TRIBUTARY_TLS_KEY) {
    throw new ConfigError('invalid configuration: TRIBUTARY_TLS_CERT and TRIBUTARY_TLS_KEY go together (PEM files)');
  }
  const [low, high] = e.TRIBUTARY_BADGE_THRESHOLDS.split(',').map((x) => Number(x.trim()));
  if (!(low! <= high! && high! <= 100)) {
    throw new ConfigError('invalid configuration: TRIBUTARY_BADGE_THRESHOLDS must be two percentages, the first not above the second (e.g. 50,80)');
  }
  if ((e.TRIBUTARY_ALERT_SCOPE === 'ALL') !== (e.TRIBUTARY_ALERT_SCOPE_VALUE === undefined)) {
    throw new ConfigError('invalid configuration: TRIBUTARY_ALERT_SCOPE_VALUE is needed with TRIBUTARY_ALERT_SCOPE NAMESPACE, ENGINE or JOB, and not with ALL');
  }
  if (e.TRIBUTARY_INGEST_LOG === 'kafka' && !e.KAFKA_BROKERS) {
    throw new ConfigError('invalid configuration: TRIBUTARY_INGEST_LOG=kafka needs KAFKA_BROKERS (the events topic the API acknowledges into)');
  }
  if (e.TRIBUTARY_DEFAULT_DEPTH > e.TRIBUTARY_MAX_DEPTH) {
    throw new ConfigError('invalid configuration: TRIBUTARY_DEFAULT_DEPTH exceeds TRIBUTARY_MAX_DEPTH');
  }
  const planRefreshS = e.TRIBUTARY_PLAN_REFRESH_S ?? (e.NEO4J_URI ? 0 : 10);
  return {
    http: {
      host: e.HOST,
      port: e.PORT,
      tls: e.TRIBUTARY_TLS_CERT && e.TRIBUTARY_TLS_KEY ? { certFile: path.resolve(e.TRIBUTARY_TLS_CERT), keyFile: path.resolve(e.TRIBUTARY_TLS_KEY) } : undefined,
    },
    neo4j: e.NEO4J_URI
      ? { uri: e.NEO4J_URI, user: e.NEO4J_USER, password: e.NEO4J_PASSWORD, database: e.NEO4J_DATABASE }
      : undefined,
    deadlines: { connectMs: e.TRIBUTARY_NEO4J_TIMEOUT_MS, writeMs: e.TRIBUTARY_WRITE_TIMEOUT_MS },
    embedded: {
      home: path.resolve(e.TRIBUTARY_HOME),
      port: e.TRIBUTARY_NEO4J_PORT,
      heap: e.TRIBUTARY_NEO4J_HEAP,
      pageCache: e.TRIBUTARY_NEO4J_PAGECACHE,
      restarts: e.TRIBUTARY_NEO4J_RESTARTS,
      hangKillMs: e.TRIBUTARY_NEO4J_HANG_S * 1000,
      javaHome: e.JAVA_HOME,
      neo4jJavaHome: e.TRIBUTARY_NEO4J_JAVA_HOME,
      searchPath: e.PATH,
      refresherReplans: planRefreshS > 0,
      aotCache: e.TRIBUTARY_NEO4J_AOT_CACHE,
      gc: e.TRIBUTARY_NEO4J_GC,
      aotDir: e.TRIBUTARY_NEO4J_AOT_DIR ? path.resolve(e.TRIBUTARY_NEO4J_AOT_DIR) : undefined,
    },
    ingest: {
      key: e.TRIBUTARY_INGEST_KEY,
      maxEventBytes: e.TRIBUTARY_MAX_EVENT_BYTES,
      maxBatchBytes: e.TRIBUTARY_MAX_BATCH_BYTES,
      maxBatchEvents: e.TRIBUTARY_MAX_BATCH_EVENTS,
      wait: e.TRIBUTARY_INGEST_WAIT,
      log: e.TRIBUTARY_INGEST_LOG,
      waitTimeoutMs: e.TRIBUTARY_WAIT_TIMEOUT_MS,
      maxLagMs: e.TRIBUTARY_MAX_PROJECTION_LAG_MS,
      projectionBatch: e.TRIBUTARY_PROJECTION_BATCH,
      projectionBatchBytes: Math.max(1, e.TRIBUTARY_PROJECTION_BATCH_BYTES),
      projectionQueueBytes: Math.max(1, e.TRIBUTARY_PROJECTION_QUEUE_BYTES),
      projectionLingerMs: e.TRIBUTARY_PROJECTION_LINGER_MS,
      readPriorityMs: e.TRIBUTARY_READ_PRIORITY_MS,
      maxWaitingTasks: e.TRIBUTARY_INGEST_MAX_WAITING,
      spoolDir: path.resolve(e.TRIBUTARY_SPOOL_DIR ?? path.join(e.TRIBUTARY_HOME, 'spool')),
      spoolMaxBytes: e.TRIBUTARY_SPOOL_MAX_MB * 2 ** 20,
    },
    lineage: {
      maxDepth: e.TRIBUTARY_MAX_DEPTH,
      defaultDepth: e.TRIBUTARY_DEFAULT_DEPTH,
      maxNodes: e.TRIBUTARY_MAX_NODES,
      maxCoverageEdges: e.TRIBUTARY_MAX_COVERAGE_EDGES,
    },
    marquez: { maxNodes: e.TRIBUTARY_MARQUEZ_MAX_NODES },
    graphql: {
      maxDepth: e.TRIBUTARY_MAX_QUERY_DEPTH,
      maxComplexity: e.TRIBUTARY_MAX_QUERY_COMPLEXITY,
      introspection: e.TRIBUTARY_GRAPHQL_INTROSPECTION ? e.TRIBUTARY_GRAPHQL_INTROSPECTION === 'true' : !e.TRIBUTARY_TOKENS_FILE && !e.TRIBUTARY_TOKENS && !e.TRIBUTARY_JWT_ISSUER,
      maxTokens: e.TRIBUTARY_MAX_QUERY_TOKENS,
      maxAliases: e.TRIBUTARY_MAX_QUERY_ALIASES,
      maxResponseFields: e.TRIBUTARY_MAX_RESPONSE_FIELDS,
      maxBytes: e.TRIBUTARY_MAX_QUERY_BYTES,
      timeoutMs: e.TRIBUTARY_QUERY_TIMEOUT_MS,
      concurrency: e.TRIBUTARY_GRAPHQL_CONCURRENCY ?? Math.max(2, os.cpus().length),
      lookupConcurrency: e.TRIBUTARY_LOOKUP_CONCURRENCY ?? Math.max(4, 2 * os.cpus().length),
      embedConcurrency: e.TRIBUTARY_EMBED_CONCURRENCY,
      queue: e.TRIBUTARY_GRAPHQL_QUEUE,
      clientQueue: e.TRIBUTARY_GRAPHQL_CLIENT_QUEUE,
    },
    access: {
      tokensFile: e.TRIBUTARY_TOKENS_FILE,
      tokens: e.TRIBUTARY_TOKENS,
      ratePerMinute: e.TRIBUTARY_RATE_LIMIT,
      authFailuresPerMinute: e.TRIBUTARY_AUTH_FAILURES_PER_MINUTE,
      jwt:
        e.TRIBUTARY_JWT_ISSUER && e.TRIBUTARY_JWT_AUDIENCE && e.TRIBUTARY_JWKS_URL
          ? { issuer: e.TRIBUTARY_JWT_ISSUER, audience: e.TRIBUTARY_JWT_AUDIENCE, jwksUrl: e.TRIBUTARY_JWKS_URL }
          : undefined,
      corsOrigins: (e.TRIBUTARY_CORS_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    },
    logLevel: e.TRIBUTARY_LOG_LEVEL,
    identityRulesFile: e.TRIBUTARY_IDENTITY_RULES,
    planWarmUp: e.TRIBUTARY_PLAN_WARMUP === 'false' ? 'off' : e.TRIBUTARY_PLAN_WARMUP === 'all' ? 'all' : 'first',
    planRefreshS,
    explorer: e.TRIBUTARY_EXPLORER === 'true',
    gauges: { intervalS: e.TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S, maxSeries: e.TRIBUTARY_LINEAGE_GAUGES_MAX_SERIES },
    sqlDeclarer: { intervalS: e.TRIBUTARY_SQL_DECLARE_INTERVAL_S, timeoutMs: e.TRIBUTARY_SQL_PARSE_TIMEOUT_MS, coldTimeoutMs: e.TRIBUTARY_SQL_PARSE_COLD_TIMEOUT_MS },
    alerts: e.TRIBUTARY_ALERT_WEBHOOK
      ? {
          webhook: e.TRIBUTARY_ALERT_WEBHOOK,
          scope: e.TRIBUTARY_ALERT_SCOPE,
          value: e.TRIBUTARY_ALERT_SCOPE_VALUE ?? null,
          intervalS: e.TRIBUTARY_ALERT_INTERVAL_S,
          drop: e.TRIBUTARY_ALERT_DROP / 100,
          attempts: e.TRIBUTARY_ALERT_ATTEMPTS,
          backoffMs: e.TRIBUTARY_ALERT_BACKOFF_MS,
          secret: e.TRIBUTARY_ALERT_SECRET ?? null,
        }
      : null,
    embed: {
      thresholds: e.TRIBUTARY_BADGE_THRESHOLDS.split(',').map((x) => Number(x.trim()) / 100) as [number, number],
      frameAncestors: e.TRIBUTARY_EMBED_FRAME_ANCESTORS,
      public: e.TRIBUTARY_EMBED_PUBLIC === 'true',
    },
    kafkaConnect: kafkaConnectSettings(e),
    kafka: e.KAFKA_BROKERS
      ? {
          brokers: e.KAFKA_BROKERS.split(',').map((b) => b.trim()).filter(Boolean),
          topic: e.KAFKA_TOPIC,
          dlqTopic: e.KAFKA_DLQ_TOPIC ?? `${e.KAFKA_TOPIC}.dlq`,
          groupId: e.KAFKA_GROUP_ID,
          clientId: e.KAFKA_CLIENT_ID,
          sessionTimeoutMs: e.KAFKA_SESSION_TIMEOUT_MS,
          stuckMs: e.KAFKA_STUCK_MS,
          maxBatch: e.TRIBUTARY_WORKER_BATCH,
          maxBatchBytes: Math.max(1, e.TRIBUTARY_PROJECTION_BATCH_BYTES),
        }
      : undefined,
  };
}

/** "16mb" → 16777216; binary multiples (k = 1024). */
export function parseByteSize(text: string): number {
  const m = /^(\d+)\s*([kmg])?/i.exec(text.trim());
  if (!m) throw new ConfigError(`not a byte size: ${text}`);
  const unit = (m[2] ?? '').toLowerCase();
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}
