/**
 * The shape of Tributary's configuration, as config.ts (its only reader of the environment) builds
 * it from environment variables; every other module reads these settings, never the environment.
 */

export interface Neo4jConnection {
  uri: string;
  user: string;
  password?: string;
  database?: string;
  /**
   * How long the driver retries a transaction on connection and transient errors (default 15 s,
   * for cluster elections); 3 s for the supervised embedded Neo4j, whose supervisor says when it
   * is down, so that requests in flight when it dies fail soon (503) instead of waiting.
   */
  retryMs?: number;
}

/** Client-side deadlines of every Neo4j call (src/graph/executor.ts, src/graph/driver.ts). */
export interface GraphDeadlines {
  /** Connecting, and waiting for a pooled connection. */
  connectMs: number;
  /** A write transaction, from its start to its commit. */
  writeMs: number;
}

export interface EmbeddedNeo4jSettings {
  home: string;
  port: number;
  /** JVM heap and page cache (`512m`, `2g`); undefined: sized from the machine (graph/embedded/sizing.ts). */
  heap?: string;
  pageCache?: string;
  /** Restart attempts in a row for a dead embedded Neo4j before giving up (the supervisor). */
  restarts?: number;
  /** A JVM that has not answered for this long is killed and restarted by the supervisor (0: never). */
  hangKillMs?: number;
  javaHome?: string;
  /** The JDK of the embedded Neo4j and neo4j-admin when not javaHome's (TRIBUTARY_NEO4J_JAVA_HOME). */
  neo4jJavaHome?: string;
  /** PATH, searched for `java` and `mvn`. */
  searchPath: string;
  /**
   * The plan refresher replans (TRIBUTARY_PLAN_REFRESH_S > 0): Neo4j then keeps its stale-plan
   * threshold fixed at 0.95 instead of lowering it over time (tools/neo4j/Launcher.java).
   */
  refresherReplans?: boolean;
  /**
   * The embedded Neo4j's garbage collector; unset: `g1` (Neo4j's own choice). `parallel` spends less
   * CPU per event (no G1 write barriers, no concurrent marking) for stop-the-world pauses.
   */
  gc?: 'g1' | 'parallel';
  /** The JVM's AOT cache on Java 25+ (graph/embedded/aot-cache.ts); unset: `auto`. */
  aotCache?: 'auto' | 'off';
  /** Directory of those caches; unset: `<home>/neo4j/aot`. */
  aotDir?: string;
}

export interface Config {
  /** tls: PEM file paths; the service (and a worker's ops port) speaks HTTPS when set. */
  http: { host: string; port: number; tls?: { certFile: string; keyFile: string } };
  /** Absent means: start the embedded Neo4j. */
  neo4j?: Neo4jConnection;
  deadlines: GraphDeadlines;
  embedded: EmbeddedNeo4jSettings;
  ingest: IngestSettings;
  lineage: { maxDepth: number; defaultDepth: number; maxNodes: number; maxCoverageEdges: number };
  /** Marquez's read API (src/marquez): most nodes one of its lineage walks returns (Marquez's answers are whole graphs). */
  marquez: { maxNodes: number };
  /** GraphQL operations deeper or costlier than this are rejected before they run. */
  graphql: {
    maxDepth: number;
    maxComplexity: number;
    introspection: boolean;
    maxTokens: number;
    maxAliases: number;
    maxResponseFields: number;
    /** Largest request body (query and variables), in bytes. */
    maxBytes: number;
    /** Read transactions are cancelled by Neo4j after this long (ms). */
    timeoutMs: number;
    /** Admission (src/http/lanes.ts): slots of the heavy, lookup and embed lanes; waiting reads per lane, and per client in a lane. */
    concurrency: number;
    lookupConcurrency: number;
    embedConcurrency: number;
    queue: number;
    clientQueue: number;
  };
  /** Absent when KAFKA_BROKERS is not set. */
  kafka?: KafkaSettings;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Access control: the tokens file (none: open reads), the CORS origins, requests per minute per
   * principal (src/http/server.ts), failed authentications per client address per minute (0: no
   * limit; src/http/auth-failures.ts).
   */
  access: {
    tokensFile?: string;
    tokens?: string;
    corsOrigins: string[];
    ratePerMinute?: number;
    authFailuresPerMinute: number;
    jwt?: { issuer: string; audience: string; jwksUrl: string };
  };
  /** The identity rules file (TRIBUTARY_IDENTITY_RULES; YAML or JSON), absent for none. */
  identityRulesFile?: string;
  /**
   * After start, compile in the background the plan of the first parameter shape of each hot query
   * (`first`), of every shape they are called with (`all`), or none (`off`): src/graph/warmup.ts.
   */
  planWarmUp: 'first' | 'all' | 'off';
  /** Seconds between the plan refresher's checks of the graph statistics (src/graph/plan-refresher.ts); 0: off. */
  planRefreshS: number;
  /** Serve the lineage explorer at / (TRIBUTARY_EXPLORER). */
  explorer: boolean;
  /** The coverage embeds (src/http/coverage-routes.ts). */
  embed: { thresholds: [number, number]; frameAncestors: string; public: boolean };
  /** The lineage gauges of /metrics (src/http/coverage-gauges.ts). */
  gauges: { intervalS: number; maxSeries: number };
  /** Coverage-drop alerts (src/http/coverage-alerts.ts); null: off. */
  alerts: AlertSettings | null;
  /** The Kafka Connect collector (src/kafka-connect/); null: off (TRIBUTARY_KAFKA_CONNECT_URLS unset). */
  kafkaConnect: KafkaConnectSettings | null;
  /** The SQL declarer (src/sql/declarer.ts): intervalS 0 is off. */
  sqlDeclarer: { intervalS: number; timeoutMs: number; coldTimeoutMs: number };
}

export interface KafkaConnectSettings {
  /** name: the job namespace's part (kafka-connect://<name>); bootstrap: the Kafka servers its workers use. */
  clusters: { name: string; url: string; bootstrap: string }[];
  /** YAML: cluster name → {username, password} (src/kafka-connect/credentials.ts). */
  credentialsFile?: string;
  intervalMs: number;
  timeoutMs: number;
  maxBodyBytes: number;
}

export interface AlertSettings {
  webhook: string;
  scope: 'ALL' | 'NAMESPACE' | 'ENGINE' | 'JOB';
  value: string | null;
  intervalS: number;
  /** Share drop (0 to 1) that raises an alert. */
  drop: number;
  attempts: number;
  backoffMs: number;
  secret: string | null;
}

export interface IngestSettings {
  key?: string;
  maxEventBytes: number;
  maxBatchBytes: number;
  maxBatchEvents: number;
  /** When HTTP ingestion answers by default: events stored (none), or projected too. */
  wait: 'none' | 'projected';
  /** Where HTTP ingestion acknowledges events (TRIBUTARY_INGEST_LOG): this node's spool, or the Kafka events topic. */
  log: 'spool' | 'kafka';
  waitTimeoutMs: number;
  /** Readiness fails while the projection lags more than this (ms); 0: the lag is reported, never a reason to be unready. */
  maxLagMs: number;
  projectionBatch: number;
  /** JSON text (characters) per projection transaction at most, the Kafka worker's too. */
  projectionBatchBytes: number;
  /** Estimated heap bytes of validated events the projector holds (src/ingest/batching.ts). */
  projectionQueueBytes: number;
  projectionLingerMs: number;
  /** While reads execute, the pause between two tasks of ingestion's CPU work (src/cpu-turns.ts); 0: no read priority. */
  readPriorityMs: number;
  /** Ingestion's tasks that may wait in the turns before new bodies are refused with 503 (src/cpu-turns.ts). */
  maxWaitingTasks: number;
  /** The ingestion spool (src/ingest/spool.ts): its folder, and the unprojected bytes it may hold. */
  spoolDir: string;
  spoolMaxBytes: number;
}

export interface KafkaSettings {
  brokers: string[];
  topic: string;
  dlqTopic: string;
  groupId: string;
  clientId: string;
  sessionTimeoutMs: number;
  maxBatch: number;
  /** JSON bytes of messages per transaction, at most (TRIBUTARY_PROJECTION_BATCH_BYTES); a larger message goes alone. */
  maxBatchBytes: number;
  /** A partition whose messages could not be stored for this long makes the worker not ready. */
  stuckMs: number;
}
