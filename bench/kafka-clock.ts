import type { Config } from '../src/config';
import { openLineageKey } from './kafka-key';
import { processCpuMs } from '../src/graph/embedded/cpu';
import type { Ingestor } from '../src/ingest/ingestor';
import { KafkaWorker } from '../src/ingest/kafka-worker';
import { createLogger } from '../src/log';
import { Metrics } from '../src/metrics';
import { assignedMembers, committed, createTopic, kafkaClient, produce } from '../test/support/kafka';
import { startKafka } from '../test/support/kafka-broker';
import { jvmThreadCpuMs, type JvmThreadGroup } from './processes';
import { cpuSeconds, type Events } from './rounds';

/** Events a Kafka worker takes into one transaction at most. */
export const KAFKA_BATCH = 500;

/** The Kafka workers' clock, and the CPU Neo4j, this process and the broker spent meanwhile. */
export interface KafkaClock {
  seconds: number;
  /** From the group's start until its first batch (not timed). */
  joinSeconds: number;
  cpu: { neo4j: number; node: number; broker: number };
  /** Neo4j's CPU ms by thread group meanwhile. */
  threads: Record<JvmThreadGroup, number> | null;
}

export interface KafkaClockOptions {
  /** The broker's folder (recreated). */
  home: string;
  config: Config;
  neo4jPid: number | undefined;
  /** One worker, events produced beforehand (undefined), or that many in one group (--scale-out). */
  workers?: number;
  /**
   * Message keys: `openlineage` (default) as the OpenLineage transport keys them (kafka-key.ts: by
   * root or parent job, so a pipeline's events share a partition); `run` by run id, which spreads
   * the stream evenly over the partitions (--scale-out, where the workers are to share the load).
   */
  keys?: 'openlineage' | 'run';
  /**
   * A stream consumed first, through the same broker on a topic of its own, not timed: the Kafka
   * path's own statements planned and its code compiled before the clock, as the HTTP path's are
   * by the warm-up stream. Then `settle` (the plan refresher run to its end).
   */
  warm?: { events: Events; settle: () => Promise<void> };
}

/**
 * Kafka workers storing and projecting `events` from a fresh topic of a local broker (a JVM of its
 * own on the same cores, started for the run). One worker: the events are produced beforehand.
 * `workers` given: that many workers (one group, each on its own ingestor) join first, and the
 * events are produced once every one holds a partition, so no rebalance falls inside the timed
 * part; producing 4 partitions' worth overlaps its start.
 */
export async function timedKafka(ingestor: () => Ingestor, events: Events, o: KafkaClockOptions): Promise<KafkaClock> {
  const broker = await startKafka(o.home, o.config.embedded.searchPath, o.config.embedded.javaHome);
  try {
    if (o.warm) {
      await consume(broker, ingestor, o.warm.events, { ...o, workers: undefined });
      await o.warm.settle();
    }
    return await consume(broker, ingestor, events, o);
  } finally {
    await broker.stop();
  }
}

async function consume(broker: { bootstrap: string; pid: number }, ingestor: () => Ingestor, events: Events, o: KafkaClockOptions): Promise<KafkaClock> {
  const id = Math.random().toString(16).slice(2, 10);
  const settings = { brokers: [broker.bootstrap], topic: `bench.${id}`, dlqTopic: `bench.${id}.dlq`, groupId: `bench-${id}`, clientId: `bench-${id}`, sessionTimeoutMs: 10_000, maxBatch: KAFKA_BATCH, maxBatchBytes: 16 * 2 ** 20, stuckMs: 600_000 };
  await createTopic(settings, 4);
  const producer = kafkaClient(settings).producer();
  await producer.connect();
  const key = o.keys === 'run' ? (e: Record<string, unknown>) => String((e.run as { runId?: string } | undefined)?.runId ?? '') : openLineageKey;
  const send = () => produce(producer, settings.topic, events.map((e) => ({ key: key(e), value: JSON.stringify(e) })));
  if (o.workers === undefined) await send();
  // Timed from the first batch handed to a worker (joining the group is not ingestion) until the
  // group's committed offsets cover every event; progress is read from the workers' own metrics,
  // so the clock's polling costs no Kafka connections.
  const metrics = new Metrics();
  const group = Array.from({ length: o.workers ?? 1 }, () => new KafkaWorker(settings, ingestor(), createLogger('warn'), metrics));
  const joinStarted = Date.now();
  await Promise.all(group.map((w) => w.start()));
  if (o.workers !== undefined) {
    while ((await assignedMembers(settings)) < Math.min(o.workers, 4)) await new Promise((r) => setTimeout(r, 200));
    await send();
  }
  await producer.disconnect();
  const batches = async () => (await metrics.kafkaBatch.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
  while ((await batches()) === 0) await new Promise((r) => setTimeout(r, 5));
  const t = Date.now();
  const read = () => ({ ...cpuSeconds(o.neo4jPid), broker: (processCpuMs(broker.pid) ?? NaN) / 1000, threads: o.neo4jPid ? jvmThreadCpuMs(o.neo4jPid) : null });
  const before = read();
  const handled = async () => (await metrics.ingestEvents.get()).values.reduce((n, v) => n + v.value, 0);
  while ((await handled()) < events.length) await new Promise((r) => setTimeout(r, 20));
  while ((await committed(settings)) < events.length) await new Promise((r) => setTimeout(r, 50));
  const seconds = (Date.now() - t) / 1000;
  const after = read();
  await Promise.all(group.map((w) => w.stop()));
  const a = before.threads;
  const b = after.threads;
  return {
    seconds,
    joinSeconds: (t - joinStarted) / 1000,
    cpu: { neo4j: after.neo4j - before.neo4j, node: after.node - before.node, broker: after.broker - before.broker },
    threads: a && b ? { queries: b.queries - a.queries, jit: b.jit - a.jit, gc: b.gc - a.gc, other: b.other - a.other } : null,
  };
}
