import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import type { Driver } from 'neo4j-driver';
import { ConfigError, type Config } from './config';
import { CpuTurns } from './cpu-turns';
import { createDriver, waitForConnectivity } from './graph/driver';
import { Liveness } from './graph/liveness';
import { Executor } from './graph/executor';
import { loadQueries } from './graph/queries';
import { readPlanCounters } from './graph/plan-cache';
import { PlanCompileWatch, StatementNames } from './graph/plan-compiles';
import { MIN_DIVERGENT_COUNT, NEO4J_OWN_CHECK, PlanRefresher } from './graph/plan-refresher';
import { signature, UsedShapes } from './graph/used-shapes';
import { secondPassQueries, warmUpPlans, warmUpShapes, warmUpTransactions, type WarmUpResult } from './graph/warmup';
import { warmUpRuns } from './graph/warmup-runs';
import { readTls } from './http/tls';
import { migrateFacetStorage } from './ingest/facet-storage';
import { summarizeNamespaces } from './ingest/namespaces';
import { applySchema, isSchemaApplied, loadSchemaStatements, type SchemaStatement } from './graph/schema';
import { createTokens, namedTokens } from './graph/tokens';
import { buildGraphqlSchema } from './graphql/schema';
import { authFromConfig } from './http/auth';
import { CoverageAlerts } from './http/coverage-alerts';
import { CoverageGauges } from './http/coverage-gauges';
import { defaultExplorerDir } from './http/explorer';
import { buildServer } from './http/server';
import { GroupCommitter } from './ingest/group-commit';
import { DEFAULT_PROJECTOR, Projector } from './ingest/projector';
import { DEFAULT_SPOOL, Spool } from './ingest/spool';
import { SpooledStore } from './ingest/spooled-store';
import { checkRulesState, loadRules } from './ingest/identity-rules';
import { Ingestor } from './ingest/ingestor';
import { ProjectionWriter } from './ingest/writer';
import { SpoolEventLog, type EventLog } from './ingest/event-log';
import { KafkaEventLog } from './ingest/kafka-log';
import type { IdentityRules } from './ingest/naming';
import { BreaksService } from './lineage/breaks-service';
import { BrowseService } from './lineage/browse-service';
import { CatalogService } from './lineage/catalog-service';
import { CoverageService } from './lineage/coverage-service';
import { DiffService } from './lineage/diff-service';
import { IdentityService } from './lineage/identity-service';
import { ImpactService } from './lineage/impact-service';
import { LineageService } from './lineage/lineage-service';
import { PathService } from './lineage/path-service';
import { TraceService } from './lineage/trace-service';
import { MarquezLineage } from './marquez/lineage';
import { MarquezService } from './marquez/service';
import type { Logger } from './log';
import { Metrics } from './metrics';

/**
 * Wiring of the service (the composition, used by main.ts and the tests): the graph side (driver,
 * executor, schema, ingestor) and the HTTP side (ingestion, GraphQL, health, metrics).
 */

export interface App {
  server: FastifyInstance;
  driver: Driver;
  executor: Executor;
  ingestor: Ingestor;
  committer: GroupCommitter;
  /** Projects what HTTP ingestion stored (src/ingest/projector.ts). */
  projector: Projector;
  /** The lineage gauges of /metrics, refreshed on a schedule (src/http/coverage-gauges.ts). */
  gauges: CoverageGauges;
  /** Coverage-drop alerts to TRIBUTARY_ALERT_WEBHOOK (src/http/coverage-alerts.ts); null when not configured. */
  alerts: CoverageAlerts | null;
  metrics: Metrics;
  /** The identity rules in force (TRIBUTARY_IDENTITY_RULES). */
  rules: IdentityRules;
  /** Compiles the plans the hot queries need, then runs the declared execution warm-up (warmup.ts, warmup-runs.ts); resolves with counts, never rejects. */
  warmUp: Core['warmUp'];
  /** Replans the shapes in use once the graph statistics changed (TRIBUTARY_PLAN_REFRESH_S); null when off. */
  refresher: Core['refresher'];
  /** Names the queries that met a plan compile after the warm-up; started by warmUp. */
  compiles: Core['compiles'];
  close(): Promise<void>;
}

/** The graph side: driver, executor with the schema applied, ingestor. */
export interface Core {
  driver: Driver;
  executor: Executor;
  ingestor: Ingestor;
  /** One projection transaction at a time in this process, shared by the ingestor and the projector. */
  writer: ProjectionWriter;
  /** The identity rules in force (TRIBUTARY_IDENTITY_RULES). */
  rules: IdentityRules;
  statements: SchemaStatement[];
  /** Compiles the plans the hot queries need, then runs the declared execution warm-up (warmup.ts, warmup-runs.ts); resolves with counts, never rejects. */
  warmUp(firstOnly?: boolean, pace?: boolean): Promise<WarmUpResult>;
  /** Stops a warm-up and the plan refresher quietly (call before closing the driver). */
  stopWarmUp(): void;
  /** Replans the shapes in use once the graph statistics changed (TRIBUTARY_PLAN_REFRESH_S); null when off. */
  refresher: PlanRefresher | null;
  /** Names the queries that met a plan compile after the warm-up (src/graph/plan-compiles.ts); started by warmUp. */
  compiles: PlanCompileWatch;
  /** Probes Neo4j every second (src/graph/liveness.ts); stopped by close(). */
  liveness: Liveness;
  /** Stops the warm-up, the plan refresher (after its statement in flight) and the probe, then closes the driver: nothing logs after it. */
  close(): Promise<void>;
  /**
   * Readiness of the graph side from what the process already knows, without a query: Neo4j
   * answers its probe (and, embedded, is not restarting) and the schema was applied (checked again
   * by the probe every SCHEMA_CHECK_MS).
   */
  graphReady(): boolean;
}

/** How often the liveness probe also checks that every constraint and index is still ONLINE. */
const SCHEMA_CHECK_MS = 30_000;
/** How often the plans compiled after the warm-up are read and logged by name (src/graph/plan-compiles.ts). */
const PLAN_COMPILES_CHECK_MS = 10_000;

/** What the process knows of the Neo4j it supervises (the embedded one); absent for an external server. */
export interface Neo4jHealth {
  /** False while it is down: requests fail at once with UNAVAILABLE. */
  available(): boolean;
  /** False once it cannot be brought back: /healthz answers 503. */
  recoverable(): boolean;
  /** Told after each failed liveness probe how long Neo4j has not answered (the supervisor kills a frozen JVM). */
  hung?(unresponsiveMs: number): void;
  /** Calls `listener` each time Neo4j is back after a restart (the probe then checks at once). */
  onRestarted?(listener: () => void): void;
}

/** Connects to a running Neo4j (config.neo4j must be set) and applies the schema. */
export async function createCore(config: Config, log: Logger, metrics?: Metrics, health?: Neo4jHealth): Promise<Core> {
  if (!config.neo4j) throw new ConfigError('a Neo4j connection (NEO4J_URI) is needed here');
  const queries = loadQueries();
  const shapes = warmUpShapes(queries);
  const runs = warmUpRuns(queries, shapes);
  const transactions = warmUpTransactions(queries);
  const secondPass = secondPassQueries(queries);
  const statements = loadSchemaStatements();
  const rules = loadRules(config.identityRulesFile);
  const driver = createDriver(config.neo4j, config.deadlines);
  const stopping = new AbortController();
  try {
    await waitForConnectivity(driver, 60_000, config.neo4j.database);
    let liveness: Liveness | null = null;
    const used = config.planRefreshS > 0 ? new UsedShapes() : null;
    let warmedUp = false;
    const executor = new Executor(driver, queries, {
      // A shape first run after the warm-up compiled its plan on a request's path: debug lines name
      // what the warm-up declarations (// Warm-up: headers) miss.
      onQuery: used
        ? (query, params, write, afterWrite) => {
            if (used.record(query, params, write, afterWrite) && warmedUp) log.debug('query shape first used after the warm-up', { query, write, afterWrite, signature: signature(params) });
          }
        : undefined,
      database: config.neo4j.database,
      log: config.logLevel === 'debug' ? log : undefined,
      readTimeoutMs: config.graphql.timeoutMs,
      writeDeadlineMs: config.deadlines.writeMs,
      onLockConflict: (tx) => metrics?.lockConflicts.inc({ tx }),
      available: () => (health ? health.available() : true) && (liveness?.responsive() ?? true),
    });
    await applySchema(executor, statements);
    // Health probes read procedures' maps, not the graph: their keys are no tokens.
    await createTokens(executor, namedTokens(Object.entries(queries).filter(([q]) => !q.startsWith('health/')).map(([, text]) => text)));
    let schemaApplied = true;
    let schemaCheckedAt = Date.now();
    liveness = new Liveness(
      async (timeoutMs) => {
        await executor.ping(timeoutMs);
        if (Date.now() - schemaCheckedAt < SCHEMA_CHECK_MS) return;
        schemaCheckedAt = Date.now();
        schemaApplied = await isSchemaApplied(executor, statements);
      },
      log,
      {
        onDown: () => {
          const aborted = executor.abortInFlight();
          if (aborted > 0) log.warn('gave up the Neo4j calls in flight', { calls: aborted });
        },
        onHung: (ms) => health?.hung?.(ms),
      },
    );

    await migrateFacetStorage(executor, log);
    await summarizeNamespaces(executor, log);
    if (rules.count > 0) log.info('identity rules loaded', { file: config.identityRulesFile, rules: rules.count });
    const stale = await checkRulesState(executor, rules);
    if (stale) log.warn(stale, { file: config.identityRulesFile ?? null });
    const writer = new ProjectionWriter();
    liveness.start();
    const refresher = used
      ? new PlanRefresher(executor, used, log, {
          intervalMs: config.planRefreshS * 1000,
          threshold: 0.75,
          texts: queries,
          minCount: MIN_DIVERGENT_COUNT,
          onRefreshed: () => metrics?.plansRefreshed.inc(),
          neo4jCheck: NEO4J_OWN_CHECK,
        })
      : null;
    refresher?.start();
    const compiles = new PlanCompileWatch(executor, new StatementNames(queries), log, {
      intervalMs: PLAN_COMPILES_CHECK_MS,
      onCompile: (c) => metrics?.plansCompiledAfterWarmUp.inc({ query: c.query ?? 'other', cause: c.staleReason === null ? 'new' : 'stale' }),
    });
    health?.onRestarted?.(() => {
      compiles.rebaseline();
      void liveness.check();
    });
    if (metrics) {
      metrics.planCounters = () => readPlanCounters(executor);
      metrics.namePlanCompiles = () => compiles.catchUp();
    }
    return {
      driver,
      executor,
      ingestor: new Ingestor(executor, log, metrics, rules, writer),
      writer,
      rules,
      statements,
      warmUp: async (firstOnly, pace) => {
        const result = await warmUpPlans(executor, shapes, log, { firstOnly, pace, signal: stopping.signal, runs, transactions, secondPass, onExplained: used ? (q, p, w, a) => void used.record(q, p, w, a, false) : undefined });
        warmedUp = true;
        if (!stopping.signal.aborted) void compiles.start();
        return result;
      },
      stopWarmUp: () => {
        stopping.abort();
        void refresher?.stop();
        void compiles.stop();
      },
      refresher,
      compiles,
      liveness,
      close: async () => {
        stopping.abort();
        await refresher?.stop();
        await compiles.stop();
        await liveness.stop();
        await driver.close();
      },
      graphReady: () => executor.up() && schemaApplied,
    };
  } catch (err) {
    await driver.close();
    throw err;
  }
}

/** Wires the service against a running Neo4j (config.neo4j must be set). Does not listen. */
export async function createApp(
  config: Config,
  log: Logger,
  metrics: Metrics = new Metrics(),
  health?: Neo4jHealth,
  /** A further readiness condition (the Kafka worker's partitions moving). */
  alsoReady: () => boolean = () => true,
  /**
   * The scheduled reads (lineage gauges, coverage alerts) start once this settles: main.ts passes
   * the plan warm-up, which they would otherwise compete with for Neo4j's CPU, meeting cold plans.
   */
  schedulesAfter: Promise<unknown> = Promise.resolve(),
): Promise<App> {
  const core = await createCore(config, log, metrics, health);
  const { driver, executor, ingestor, rules, warmUp, writer } = core;
  try {
    // The HTTP contract: acknowledged once in the spool (fdatasync'd); the projector projects in the background.
    // Ingestion's CPU work (body parsing, validation, planning ahead) in short turns, giving way to reads.
    const turns = new CpuTurns(config.ingest.readPriorityMs);
    metrics.cpuTurns = () => turns.counts;
    const spool = Spool.open(config.ingest.spoolDir, { ...DEFAULT_SPOOL, maxBytes: config.ingest.spoolMaxBytes }, log);
    const projector = new Projector(
      executor,
      spool,
      log,
      metrics,
      rules,
      {
        ...DEFAULT_PROJECTOR,
        batch: config.ingest.projectionBatch,
        batchBytes: config.ingest.projectionBatchBytes,
        maxQueuedBytes: config.ingest.projectionQueueBytes,
        lingerMs: config.ingest.projectionLingerMs,
        turns,
      },
      writer,
    );
    const spooled = new SpooledStore(spool, projector, log, undefined, turns);
    // TRIBUTARY_INGEST_LOG=kafka: acknowledged in the events topic instead (the spool stays empty).
    const kafkaLog = config.ingest.log === 'kafka' ? new KafkaEventLog(config.kafka!, executor, log, metrics) : null;
    await kafkaLog?.start();
    const eventLog: EventLog = kafkaLog ?? new SpoolEventLog(spooled, projector);
    const committer = new GroupCommitter((items) => eventLog.store(items), 500, config.ingest.projectionBatchBytes);
    const catalog = new CatalogService(executor);
    const lineage = new LineageService(executor, config.lineage);
    const trace = new TraceService(executor, config.lineage);
    const services = {
      catalog,
      browse: new BrowseService(executor),
      lineage,
      trace,
      impact: new ImpactService(executor, trace, { ...config.lineage, maxPage: 500 }),
      coverage: new CoverageService(executor, config.lineage),
      diff: new DiffService(executor, config.lineage),
      breaks: new BreaksService(executor, { ...config.lineage, maxRows: config.lineage.maxNodes * 10 }),
      paths: new PathService(executor, config.lineage),
      identity: new IdentityService(executor, rules),
      limits: { defaultDepth: config.lineage.defaultDepth, maxDepth: config.lineage.maxDepth },
    };
    const marquez = new MarquezService(executor, catalog, rules, () => writer.finished);
    const server = await buildServer({
      schema: buildGraphqlSchema(),
      services,
      committer,
      eventLog,
      turns,
      log,
      auth: authFromConfig(config),
      corsOrigins: config.access.corsOrigins,
      ratePerMinute: config.access.ratePerMinute,
      limits: config.ingest,
      queryLimits: config.graphql,
      walkCaps: config.lineage,
      metrics,
      tls: readTls(config.http.tls),
      ready: () => alsoReady() && core.graphReady() && (config.ingest.maxLagMs === 0 || projector.lagMs() <= config.ingest.maxLagMs),
      readyDetails: () => {
        const failed = projector.failures();
        return {
          neo4j: executor.up() ? 'answering' : 'not answering',
          projectionLagMs: projector.lagMs(),
          projectionFailedEvents: failed.count,
          lastProjectionFailure: failed.last,
          ...(kafkaLog ? { ingestLog: { kind: 'kafka', graphLag: kafkaLog.lag() } } : {}),
        };
      },
      live: health ? () => health.recoverable() : undefined,
      explorerDir: config.explorer ? defaultExplorerDir() : null,
      embed: config.embed,
      marquez: { service: marquez, lineage: new MarquezLineage(executor, marquez, { maxDepth: config.lineage.maxDepth, maxNodes: config.marquez.maxNodes }) },
    });
    projector.start();
    const gauges = new CoverageGauges(services.coverage, services.breaks, metrics, config.gauges, log);
    const alerts = config.alerts ? new CoverageAlerts(services.diff, config.alerts, metrics, log) : null;
    let closed = false;
    void schedulesAfter
      .catch(() => undefined)
      .then(() => {
        if (closed) return;
        gauges.start();
        alerts?.start();
      });
    return {
      server,
      driver,
      executor,
      ingestor,
      committer,
      projector,
      metrics,
      gauges,
      alerts,
      rules,
      warmUp,
      refresher: core.refresher,
      compiles: core.compiles,
      close: async () => {
        closed = true;
        core.stopWarmUp();
        await core.refresher?.stop();
        await gauges.stop();
        await alerts?.stop();
        await server.close();
        await kafkaLog?.stop();
        await projector.stop();
        await spool.close();
        await core.close();
      },
    };
  } catch (err) {
    await driver.close();
    throw err;
  }
}
