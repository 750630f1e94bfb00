import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { withTimeout } from './graph/liveness';
import type { PlanCounters } from './graph/plan-cache';
import { logLoss } from './log';

/**
 * Prometheus metrics (`GET /metrics`). One registry per process; names are stable API for
 * dashboards: tributary_ingest_events_total{transport,outcome}, tributary_http_ingest_seconds,
 * tributary_projection_seconds, tributary_projection_batch_events, tributary_projection_batch_bytes,
 * tributary_kafka_batch_events,
 * tributary_kafka_consumer_lag{topic,partition}, tributary_graph_log_lag_events{topic} (how far the
 * graph read here is behind the events topic), tributary_kafka_dlq_messages_total{reason},
 * tributary_kafka_retries_total, tributary_projection_lag_seconds, tributary_projection_queued_events,
 * tributary_projection_failed_events_total, tributary_write_lock_conflicts_total{tx} (concurrent
 * projectors, lock-projection.cypher), tributary_read_requests{lane,state} (admission,
 * src/http/lanes.ts); the lineage gauges refreshed on a schedule
 * (src/http/coverage-gauges.ts): tributary_lineage_coverage_ratio{namespace,engine},
 * tributary_lineage_edges{granularity,namespace,engine}, tributary_lineage_breaks{kind},
 * tributary_lineage_gauges_refreshed_timestamp_seconds; coverage-drop alerts (src/http/coverage-alerts.ts):
 * tributary_alerts_total{outcome}, tributary_alert_checks_total{outcome}; the Kafka Connect collector
 * (src/kafka-connect/): tributary_kafka_connect_rounds_total{cluster,outcome},
 * tributary_kafka_connect_connectors{cluster,lineage}, tributary_kafka_connect_events_total{cluster};
 * tributary_neo4j_plans_compiled{kind} (the embedded Neo4j's own count, src/graph/plan-cache.ts);
 * tributary_log_write_failures_total{kind} (log lines stderr refused, src/log.ts).
 */
/** A counter by `kind` whose totals another module keeps: set from `counts` at each scrape. */
function kindCounter(registry: Registry, name: string, help: string, counts: () => Record<string, number>): Counter<'kind'> {
  const counter: Counter<'kind'> = new Counter({
    name,
    help,
    labelNames: ['kind'] as const,
    registers: [registry],
    collect: (): void => {
      counter.reset();
      for (const [kind, n] of Object.entries(counts())) counter.inc({ kind }, n);
    },
  });
  return counter;
}

/** How long a scrape waits for Neo4j's plan counters (tributary_neo4j_plans_compiled). */
export const PLAN_COUNTERS_WAIT_MS = 1_000;

export class Metrics {
  readonly registry = new Registry();
  readonly ingestEvents = new Counter({
    name: 'tributary_ingest_events_total',
    help: 'Events received, by transport (http, batch, kafka, file) and outcome (stored, duplicate, rejected, failed)',
    labelNames: ['transport', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly httpIngestSeconds = new Histogram({
    name: 'tributary_http_ingest_seconds',
    help: 'Latency of POST /api/v1/lineage and /api/v1/lineage/batch, until the commit',
    labelNames: ['route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly projectionSeconds = new Histogram({
    name: 'tributary_projection_seconds',
    help: 'Duration of one store-and-project transaction',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly projectionBatch = new Histogram({
    name: 'tributary_projection_batch_events',
    help: 'Events per store-and-project transaction',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [this.registry],
  });
  readonly projectionBatchBytes = new Histogram({
    name: 'tributary_projection_batch_bytes',
    help: 'JSON text (characters) of the events per projection transaction of the background projector (bounded by TRIBUTARY_PROJECTION_BATCH_BYTES, one larger event alone excepted)',
    buckets: [2 ** 16, 2 ** 18, 2 ** 20, 2 ** 22, 2 ** 23, 2 ** 24, 2 ** 25, 2 ** 26, 2 ** 28],
    registers: [this.registry],
  });
  readonly kafkaBatch = new Histogram({
    name: 'tributary_kafka_batch_events',
    help: 'Messages per Kafka batch handled by the worker',
    buckets: [1, 5, 10, 50, 100, 250, 500, 1000, 5000],
    registers: [this.registry],
  });
  readonly kafkaLag = new Gauge({
    name: 'tributary_kafka_consumer_lag',
    help: 'Messages behind the partition high watermark after the last batch',
    labelNames: ['topic', 'partition'] as const,
    registers: [this.registry],
  });
  readonly graphLogLag = new Gauge({
    name: 'tributary_graph_log_lag_events',
    help: 'Events in the Kafka events topic the graph this process reads has not projected yet (TRIBUTARY_INGEST_LOG=kafka), refreshed every few seconds',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });
  readonly dlq = new Counter({
    name: 'tributary_kafka_dlq_messages_total',
    help: 'Messages sent to the dead-letter topic, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly retries = new Counter({
    name: 'tributary_kafka_retries_total',
    help: 'Batches retried because Neo4j was unavailable',
    registers: [this.registry],
  });

  /** The projector's state, read at each scrape (set by src/ingest/projector.ts). */
  projectionState: () => { lagMs: number; queued: number } = () => ({ lagMs: 0, queued: 0 });
  readonly projectionLag: Gauge = new Gauge({
    name: 'tributary_projection_lag_seconds',
    help: 'Age of the oldest stored event this process has still to project (0 when none)',
    registers: [this.registry],
    collect: (): void => this.projectionLag.set(this.projectionState().lagMs / 1000),
  });
  readonly projectionQueued: Gauge = new Gauge({
    name: 'tributary_projection_queued_events',
    help: 'Stored events waiting in this process for projection',
    registers: [this.registry],
    collect: (): void => this.projectionQueued.set(this.projectionState().queued),
  });
  /** Reads executing and waiting in each admission lane, read at each scrape (set by src/http/server.ts). */
  readState: () => Record<string, { active: number; waiting: number }> = () => ({});
  readonly readRequests: Gauge<'lane' | 'state'> = new Gauge({
    name: 'tributary_read_requests',
    help: 'Reads executing (state=active) and waiting for a slot (state=waiting), by admission lane (lookup, heavy, embed)',
    labelNames: ['lane', 'state'] as const,
    registers: [this.registry],
    collect: (): void => {
      for (const [lane, s] of Object.entries(this.readState())) {
        this.readRequests.set({ lane, state: 'active' }, s.active);
        this.readRequests.set({ lane, state: 'waiting' }, s.waiting);
      }
    },
  });
  /** Ingestion's CPU turns since start (src/cpu-turns.ts), read at each scrape (set by src/app.ts). */
  cpuTurns: () => { turns: number; tasks: number; yielded: number } = () => ({ turns: 0, tasks: 0, yielded: 0 });
  readonly ingestTurns = kindCounter(
    this.registry,
    'tributary_ingest_cpu_turns_total',
    "Ingestion's CPU work (body parsing, validation, planning ahead): turns of the event loop taken (kind=turns), tasks run (kind=tasks), turns deferred because reads were executing (kind=yielded)",
    () => this.cpuTurns(),
  );
  readonly logWriteFailures = kindCounter(
    this.registry,
    'tributary_log_write_failures_total',
    'Log writes stderr refused since start (kind=error: kept and retried with the next line; kind=drop: a line dropped, the kept text being full), e.g. a full disk under a redirected log',
    () => ({ error: logLoss.failed, drop: logLoss.dropped }),
  );
  /**
   * Neo4j's plan compilations since it started, read at each scrape (set by src/app.ts); null where
   * it does not count them. A scrape waits for them at most PLAN_COUNTERS_WAIT_MS: with Neo4j slow
   * or frozen, the gauge keeps its last values and the rest of the scrape is answered.
   */
  planCounters: () => Promise<PlanCounters | null> = async () => null;
  /**
   * Reports, by name, the plan compiles Neo4j has counted (set by src/app.ts: the compile watch,
   * src/graph/plan-compiles.ts). A scrape runs it after reading the counters, within the same wait,
   * so tributary_plans_compiled_after_warmup_total names every compile the scrape's
   * tributary_neo4j_plans_compiled counts (without it the watch's 10 s timer lags the counters).
   */
  namePlanCompiles: () => Promise<void> = async () => undefined;
  /** The plan readings of the scrape in progress, shared by the metrics that show them. */
  private planScrape: Promise<PlanCounters | null> | null = null;
  readonly plansCompiled: Gauge<'kind'> = new Gauge({
    name: 'tributary_neo4j_plans_compiled',
    help: 'Query plans Neo4j compiled since it started, by kind: plan (the planner ran), codegen (recompiled with compiled expressions once hot), stale (replanned after the statistics changed); only the embedded Neo4j counts them',
    labelNames: ['kind'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      const c = await this.readPlans();
      if (!c) return;
      this.plansCompiled.set({ kind: 'plan' }, c.plans);
      this.plansCompiled.set({ kind: 'codegen' }, c.codeGen);
      this.plansCompiled.set({ kind: 'stale' }, c.stale);
    },
  });
  readonly plansRefreshed = new Counter({
    name: 'tributary_plans_refreshed_total',
    help: 'Query plans the plan refresher replanned off the request path after the graph statistics changed (each one is also counted in tributary_neo4j_plans_compiled{kind="plan"})',
    registers: [this.registry],
  });
  readonly plansCompiledAfterWarmUp = new Counter({
    name: 'tributary_plans_compiled_after_warmup_total',
    help: 'Query plans Neo4j compiled after the plan warm-up for a statement a caller was waiting on (a request, a projection batch, a scheduled read), by query (its cypher/ file; "other" for another client\'s) and cause (new: not cached before; stale: replanned as the statistics changed); the plan refresher\'s replans are not counted; only the embedded Neo4j reports them',
    labelNames: ['query', 'cause'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      await this.readPlans();
    },
  });
  readonly projectionFailed = new Counter({
    name: 'tributary_projection_failed_events_total',
    help: 'Stored events whose projection failed (label ProjectionFailed; npm run reproject retries them)',
    registers: [this.registry],
  });

  readonly lockConflicts = new Counter({
    name: 'tributary_write_lock_conflicts_total',
    help: 'Write transaction attempts that lost on locks to a concurrent writer (deadlock or lock timeout; retried), by transaction',
    labelNames: ['tx'] as const,
    registers: [this.registry],
  });

  readonly coverageRatio = new Gauge({
    name: 'tributary_lineage_coverage_ratio',
    help: 'Share of current job → output edges with column-level lineage, by job namespace and engine (refreshed on a schedule)',
    labelNames: ['namespace', 'engine'] as const,
    registers: [this.registry],
  });
  readonly lineageEdges = new Gauge({
    name: 'tributary_lineage_edges',
    help: 'Current job → output edges by granularity (column: with column lineage; dataset: dataset level only), job namespace and engine',
    labelNames: ['granularity', 'namespace', 'engine'] as const,
    registers: [this.registry],
  });
  readonly lineageBreaks = new Gauge({
    name: 'tributary_lineage_breaks',
    help: 'Lineage breaks: datasets read but never written (read_never_written), written but never read (written_never_read), probable cross-engine matches (probable_match)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly gaugesRefreshed = new Gauge({
    name: 'tributary_lineage_gauges_refreshed_timestamp_seconds',
    help: 'When the lineage gauges were last refreshed (Unix time); stale when refreshes fail',
    registers: [this.registry],
  });

  readonly alerts = new Counter({
    name: 'tributary_alerts_total',
    help: 'Coverage-drop alerts by outcome: delivered to TRIBUTARY_ALERT_WEBHOOK, failed (every attempt failed, or the webhook refused it), dropped (the delivery queue was full)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly alertChecks = new Counter({
    name: 'tributary_alert_checks_total',
    help: 'Scheduled coverage-drop checks by outcome: quiet (nothing to report), alerted, baseline (first check: nothing to compare with), unsettled (the scope changed between its reads: compared again next time), failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly connectRounds = new Counter({
    name: 'tributary_kafka_connect_rounds_total',
    help: 'Kafka Connect collector rounds per cluster by outcome: ok, or why the round failed (UNREACHABLE, TIMEOUT, HTTP_ERROR, TOO_LARGE, GARBAGE, INGEST_FAILED)',
    labelNames: ['cluster', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly connectConnectors = new Gauge({
    name: 'tributary_kafka_connect_connectors',
    help: 'Connectors of each Kafka Connect cluster at its last good round, by lineage: mapped (from the configuration), unknown (a class Tributary does not map), all',
    labelNames: ['cluster', 'lineage'] as const,
    registers: [this.registry],
  });
  readonly connectEvents = new Counter({
    name: 'tributary_kafka_connect_events_total',
    help: 'OpenLineage events the Kafka Connect collector sent into ingestion (changes only), per cluster',
    labelNames: ['cluster'] as const,
    registers: [this.registry],
  });
  readonly sqlStatements = new Counter({
    name: 'tributary_sql_statements_total',
    help: 'Statements of sql job facets the SQL declarer recorded, by status (parsed, unparsed) and reason (none, TOO_LARGE, TOO_DEEP, UNKNOWN_DIALECT, SYNTAX, TIMEOUT, FAILED)',
    labelNames: ['status', 'reason'] as const,
    registers: [this.registry],
  });
  readonly sqlRounds = new Counter({
    name: 'tributary_sql_declarer_rounds_total',
    help: 'Rounds of the SQL declarer by outcome (ok, failed: the graph did not answer; retried next round)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: 'tributary_' });
  }

  /**
   * Neo4j's plan counters, then the compiles they count named: one reading per scrape (the metrics
   * showing them are collected at once), waited for at most PLAN_COUNTERS_WAIT_MS in all; null
   * when the counters did not come (the gauge keeps its last values). Naming that fails or does not
   * finish in time costs the scrape its names only (the watch's own timer names them later).
   */
  private readPlans(): Promise<PlanCounters | null> {
    this.planScrape ??= (async () => {
      const started = Date.now();
      const counters = await withTimeout(this.planCounters(), PLAN_COUNTERS_WAIT_MS).catch(() => null);
      const left = Math.max(0, PLAN_COUNTERS_WAIT_MS - (Date.now() - started));
      await withTimeout(Promise.resolve().then(() => this.namePlanCompiles()), left).catch(() => undefined);
      return counters;
    })().finally(() => {
      this.planScrape = null;
    });
    return this.planScrape;
  }
}
