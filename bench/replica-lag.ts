import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createCore } from '../src/app';
import type { Config } from '../src/config';
import type { Executor } from '../src/graph/executor';
import { startEmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { readLogOffsets, type Ingestor } from '../src/ingest/ingestor';
import { PartitionedSender } from '../src/ingest/kafka-send';
import { KafkaWorker } from '../src/ingest/kafka-worker';
import { createLogger, type Logger } from '../src/log';
import { Metrics } from '../src/metrics';
import { startKafka } from '../test/support/kafka-broker';
import { assignedMembers, createTopic } from '../test/support/kafka';

/**
 * Replica lag under load (issue 27, `npm run bench -- S --scale-out`): one events topic, two
 * graphs each fed by its own projector in its own consumer group, as in the README's production
 * shape: the primary Neo4j (the bench's) and a read replica (a second embedded Neo4j, its own
 * store). Events are produced at a steady offered rate, as the API replicas would acknowledge them
 * (acks=all, keyed by run id, partitioned as the API does); for every 100 ms tick the time from
 * the topic's acknowledgement until each graph's recorded offsets (LogOffset, what
 * `Tributary-Wait: projected` polls) pass the tick's last event is that graph's visibility delay.
 * Both graphs, both projectors, the broker and the producer share this machine's cores: the
 * figures are for that machine, a replica on its own host lags less.
 */

export interface LagLevel {
  /** Offered events per second. */
  offered: number;
  /** Events per second the producer achieved (acknowledged). */
  produced: number;
  events: number;
  primary: Delays;
  replica: Delays;
}

export interface Delays {
  /** Milliseconds from acknowledgement to visible in this graph, over the level's ticks. */
  p50: number;
  p95: number;
  max: number;
  /** Most events acknowledged but not yet in this graph at any sample. */
  maxBehind: number;
  /** Projection transactions in this graph during the level, their mean milliseconds and events. */
  transactions: number;
  meanTxMs: number;
  eventsPerTx: number;
}

const TICK_MS = 100;
const SAMPLE_MS = 50;
/** Longest a level waits for both graphs to catch up after its last event. */
const CATCH_UP_MS = 600_000;

interface Tick {
  ackAt: number;
  until: Map<number, number>;
  seen: { primary?: number; replica?: number };
}

export async function replicaLag(opts: {
  config: Config;
  home: string;
  /** The primary graph's executor and a projector on it (its own projection writer). */
  primary: { executor: Executor; ingestor: Ingestor; metrics: Metrics };
  /** Offered rates (events/s), one level each, and the events for each level (fresh names). */
  levels: { rate: number; events: Record<string, unknown>[] }[];
  /** A short stream, not measured, so that both graphs compile their plans first. */
  warm: Record<string, unknown>[];
  log: Logger;
}): Promise<LagLevel[]> {
  const { config, home, log } = opts;
  const broker = await startKafka(path.join(home, 'kafka-replica'), config.embedded.searchPath, config.embedded.javaHome);
  const neo4j = await startEmbeddedNeo4j({ ...config.embedded, home: path.join(home, 'replica'), port: 0, heap: '2g', pageCache: '2g' }, log);
  const replicaMetrics = new Metrics(false);
  const replica = await createCore({ ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } }, log, replicaMetrics);
  // As the service does after start (TRIBUTARY_PLAN_WARMUP): the replica's hot plans compiled.
  await replica.warmUp(false, false);
  const workers: KafkaWorker[] = [];
  const kafka = new Kafka({ clientId: 'bench-replica-lag', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: false, maxInFlightRequests: 1 });
  try {
    const id = Math.random().toString(16).slice(2, 10);
    const base = { brokers: [broker.bootstrap], topic: `lag.${id}`, dlqTopic: `lag.${id}.dlq`, clientId: `lag-${id}`, sessionTimeoutMs: 10_000, maxBatch: 500, maxBatchBytes: 16 * 2 ** 20, stuckMs: 600_000 };
    const groups = { primary: { ...base, groupId: `lag-${id}-primary` }, replica: { ...base, groupId: `lag-${id}-replica` } };
    await createTopic(groups.primary, 4);
    workers.push(new KafkaWorker(groups.primary, opts.primary.ingestor, createLogger('warn'), new Metrics(false)));
    workers.push(new KafkaWorker(groups.replica, replica.ingestor, createLogger('warn'), new Metrics(false)));
    await Promise.all(workers.map((w) => w.start()));
    for (const g of Object.values(groups)) while ((await assignedMembers(g)) < 1) await new Promise((r) => setTimeout(r, 200));
    await producer.connect();
    const sender = new PartitionedSender(kafka, producer);
    const graphs = { primary: { executor: opts.primary.executor, metrics: opts.primary.metrics }, replica: { executor: replica.executor, metrics: replicaMetrics } };
    const level = (rate: number, events: Record<string, unknown>[]) => runLevel(sender, base.topic, graphs, rate, events);
    await level(Math.max(...opts.levels.map((l) => l.rate)), opts.warm);
    const out: LagLevel[] = [];
    for (const l of opts.levels) {
      out.push(await level(l.rate, l.events));
      process.stdout.write(`replica lag at ${l.rate} events/s offered: primary p95 ${out.at(-1)!.primary.p95} ms, replica p95 ${out.at(-1)!.replica.p95} ms\n`);
    }
    await sender.close();
    return out;
  } finally {
    await producer.disconnect().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop()));
    await replica.close();
    await neo4j.stop();
    await broker.stop();
  }
}

/** Produces `events` at `rate` per second while sampling both graphs; resolves once both hold them all. */
async function runLevel(
  sender: PartitionedSender,
  topic: string,
  graphs: Record<'primary' | 'replica', { executor: Executor; metrics: Metrics }>,
  rate: number,
  events: Record<string, unknown>[],
): Promise<LagLevel> {
  const before = { primary: await transactions(graphs.primary.metrics), replica: await transactions(graphs.replica.metrics) };
  const ticks: Tick[] = [];
  const end = new Map<number, number>();
  const behind = { primary: 0, replica: 0 };
  let producing = true;
  let abandoned = false;
  const sampler = (async () => {
    while (!abandoned) {
      const now = Date.now();
      const [p, r] = await Promise.all([readLogOffsets(graphs.primary.executor, topic), readLogOffsets(graphs.replica.executor, topic)]);
      for (const [name, next] of [['primary', p], ['replica', r]] as const) {
        let lag = 0;
        for (const [partition, last] of end) lag += Math.max(0, last + 1 - (next.get(partition) ?? 0));
        behind[name] = Math.max(behind[name], lag);
        for (const t of ticks) if (t.seen[name] === undefined && passed(t.until, next)) t.seen[name] = now - t.ackAt;
      }
      if (!producing && ticks.every((t) => t.seen.primary !== undefined && t.seen.replica !== undefined)) return;
      await new Promise((res) => setTimeout(res, SAMPLE_MS));
    }
  })();
  const started = Date.now();
  const perTick = Math.max(1, Math.round((rate * TICK_MS) / 1000));
  for (let i = 0, k = 0; i < events.length; i += perTick, k++) {
    const chunk = events.slice(i, i + perTick);
    const written = await sender.send(topic, chunk.map((e) => ({ key: keyOf(e), value: JSON.stringify(e) })), { acks: -1, timeout: 30_000 });
    const until = new Map<number, number>();
    for (const w of written) until.set(w.partition, Math.max(until.get(w.partition) ?? -1, w.offset));
    for (const [partition, offset] of until) end.set(partition, Math.max(end.get(partition) ?? -1, offset));
    ticks.push({ ackAt: Date.now(), until, seen: {} });
    const due = started + (k + 1) * TICK_MS;
    if (due > Date.now()) await new Promise((res) => setTimeout(res, due - Date.now()));
  }
  const produced = events.length / ((Date.now() - started) / 1000);
  producing = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([sampler, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the graphs did not catch up within ${CATCH_UP_MS} ms`)), CATCH_UP_MS)))]);
  } finally {
    abandoned = true;
    clearTimeout(timer);
  }
  const delays = async (name: 'primary' | 'replica'): Promise<Delays> => {
    const ms = ticks.map((t) => t.seen[name]!).sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
    const tx = await transactions(graphs[name].metrics);
    const n = tx.count - before[name].count;
    return {
      p50: at(0.5),
      p95: at(0.95),
      max: ms[ms.length - 1]!,
      maxBehind: behind[name],
      transactions: n,
      meanTxMs: n > 0 ? Math.round(((tx.seconds - before[name].seconds) / n) * 1000) : 0,
      eventsPerTx: n > 0 ? Math.round(((tx.events - before[name].events) / n) * 10) / 10 : 0,
    };
  };
  return { offered: rate, produced: Math.round(produced), events: events.length, primary: await delays('primary'), replica: await delays('replica') };
}

/** Projection transactions so far (tributary_projection_seconds, _batch_events). */
async function transactions(metrics: Metrics): Promise<{ count: number; seconds: number; events: number }> {
  const seconds = (await metrics.projectionSeconds.get()).values;
  const events = (await metrics.projectionBatch.get()).values;
  const pick = (values: { metricName?: string; value: number }[], suffix: string) => values.filter((v) => v.metricName?.endsWith(suffix)).reduce((n, v) => n + v.value, 0);
  return { count: pick(seconds, '_count'), seconds: pick(seconds, '_sum'), events: pick(events, '_sum') };
}

const passed = (until: Map<number, number>, next: Map<number, number>) => [...until].every(([partition, offset]) => (next.get(partition) ?? 0) > offset);

/** As the API keys them (kafka-log.ts): a run's events by run id. */
const keyOf = (e: Record<string, unknown>) => String((e.run as { runId?: string } | undefined)?.runId ?? (e as { eventTime?: string }).eventTime ?? '').toLowerCase();
