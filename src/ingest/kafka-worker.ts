import { Kafka, logLevel, type Consumer, type EachBatchPayload, type IHeaders, type KafkaMessage, type Producer } from 'kafkajs';
import type { KafkaSettings } from '../config';
import { AppError, ErrorCode } from '../errors';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { batchLength } from './batching';
import { decodeUtf8 } from './decode';
import { outcomeLabel, type IngestItem, type Ingestor, type PreparedChunk } from './ingestor';
import { reasonOf } from './ndjson';
import { ChunkCoalescer } from './chunk-coalescer';
import { ensureTopic, PartitionedSender } from './kafka-send';

/** Longest a newly assigned partition waits for the graph's offsets to be compared with the group's. */
const RESUME_CHECK_MS = 5_000;
/** Partitions whose batches are in hand at once: their chunks share transactions (chunk-coalescer.ts). */
const CONCURRENT_PARTITIONS = 4;
/** Messages validated and planned per turn of the event loop while a transaction runs (its round trips are answered between). */
const PREPARE_SLICE = 50;
/** Subscription attempts (a second apart) while a new events topic has no leader yet. */
const SUBSCRIBE_ATTEMPTS = 60;

/**
 * The ingestion worker for the OpenLineage Kafka transport: a consumer-group member reading one
 * event (JSON) per message from the topic.
 *
 * Delivery: at least once. A batch of a partition's messages, in order, is stored and projected
 * in one Neo4j transaction (with other partitions' batches waiting at that moment:
 * chunk-coalescer.ts); bad messages go to the dead-letter topic (unchanged, the reason in
 * headers) before the offsets are committed; offsets are committed only after both. A crash at
 * any point redelivers, and redelivery is harmless (idempotent projection).
 * Backpressure: up to CONCURRENT_PARTITIONS partitions' batches at a time: while one transaction
 * is in flight, the others (and each partition's next chunk) are decoded, validated and planned,
 * a slice at a time, then wait for the next transaction, which takes
 * them together through the process's one projection writer (writer.ts); at most `maxBatch`
 * events and `maxBatchBytes` of message values per transaction (one larger message alone), so a
 * transaction's message to Neo4j stays small whatever the event size. While Neo4j is unavailable
 * the batch is retried with backoff (heartbeating, so the group keeps the partition):
 * consumption pauses and resumes by itself, nothing is skipped.
 * Shutdown: `stop` lets the batch in flight finish (or abandons it uncommitted) and never commits
 * offsets of events that were not stored.
 */

export const DLQ_HEADERS = {
  reason: 'tributary-reason',
  detail: 'tributary-detail',
  topic: 'tributary-source-topic',
  partition: 'tributary-source-partition',
  offset: 'tributary-source-offset',
} as const;

export class KafkaWorker {
  private readonly kafka: Kafka;
  private consumer: Consumer | null = null;
  private producer: Producer | null = null;
  private sender: PartitionedSender | null = null;
  private stopping = false;
  /** Chunks of several partitions share a transaction (chunk-coalescer.ts). */
  private readonly coalescer: ChunkCoalescer;
  /** `topic/partition` → when storing its current chunk began (cleared once stored). */
  private readonly storingSince = new Map<string, number>();

  constructor(
    private readonly settings: KafkaSettings,
    private readonly ingestor: Ingestor,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.coalescer = new ChunkCoalescer((chunks) => ingestor.ingestChunks(chunks), settings.maxBatch, settings.maxBatchBytes);
    this.kafka = new Kafka({
      clientId: settings.clientId,
      brokers: settings.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry) => this.log.warn(`kafka: ${entry.log.message}`, { namespace: entry.namespace }),
      // A dead broker: kafkajs retries a request to it without reading the cluster's metadata
      // again (the partition's new leader, the group's new coordinator); a short budget lets the
      // consumer fail within seconds and restart on fresh metadata (kafkajs restarts it itself).
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 2_000 },
    });
  }

  async start(): Promise<void> {
    this.producer = this.kafka.producer({ allowAutoTopicCreation: true, idempotent: false, metadataMaxAge: 10_000 });
    this.sender = new PartitionedSender(this.kafka, this.producer);
    await this.producer.connect();
    // Dead letters are sent per partition (kafka-send.ts), which needs the topic's partitions:
    // a missing dead-letter topic would fail every send and redeliver its chunk forever.
    await ensureTopic(this.kafka, this.settings.dlqTopic, this.log);
    await this.startConsumer();
    this.log.info('Kafka worker consuming', { topic: this.settings.topic, group: this.settings.groupId, brokers: this.settings.brokers });
  }

  /**
   * Joins the group and consumes. A consumer that crashes with an error kafkajs will not retry
   * (e.g. its group membership expired) is replaced by a new one: the worker never stops silently.
   */
  /**
   * Partitions stuck longer than KAFKA_STUCK_MS: storing their current messages has not succeeded
   * for that long (the database down or refusing whole batches, retried); the worker is then not
   * ready (/readyz 503) until they move.
   */
  stuck(): StuckPartition[] {
    return stuckPartitions(this.storingSince, this.settings.stuckMs);
  }

  private async startConsumer(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.settings.groupId,
      sessionTimeout: this.settings.sessionTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(this.settings.sessionTimeoutMs / 10)),
      allowAutoTopicCreation: true,
      // Leadership moves (a broker gone) are seen within seconds, not kafkajs' default 5 minutes.
      metadataMaxAge: 10_000,
      // A partition's fetch fills a transaction (OpenLineage events run 2-20 KB; kafkajs' 1 MiB
      // default handed over ~200 of them); memory stays bounded by the partitions in hand.
      maxBytesPerPartition: 8 * 1024 * 1024,
      maxBytes: 32 * 1024 * 1024,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping) return;
      this.log.error('Kafka consumer crashed; starting a new one', { error: payload.error });
      setTimeout(() => {
        if (this.stopping) return;
        void consumer
          .disconnect()
          .catch(() => undefined)
          .then(() => this.startConsumer())
          .catch((err) => this.log.error('restarting the Kafka consumer failed', { error: err }));
      }, 1000);
    });
    // The graph's recorded offsets are what it holds: a graph restored from a copy of another
    // (a new read replica, its own group) resumes where the copy ends, not at the topic's start.
    // Its partitions stay paused until that is decided.
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const partitions = payload.memberAssignment[this.settings.topic] ?? [];
      if (partitions.length === 0) return;
      const assigned = [{ topic: this.settings.topic, partitions }];
      consumer.pause(assigned);
      // Bounded: with a broker gone the comparison may wait on its retries; the partitions move on.
      const bounded = Promise.race([this.resumeFromGraph(consumer, partitions), new Promise((r) => setTimeout(r, RESUME_CHECK_MS).unref())]);
      void bounded.finally(() => consumer.resume(assigned));
    });
    await consumer.connect();
    await this.subscribe(consumer);
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: CONCURRENT_PARTITIONS,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  /**
   * Subscribes to the events topic, also when it does not exist yet: on a new cluster the topic is
   * created (the broker's defaults; refused creation is left to the broker's auto-creation) and its
   * leader may take a while to be elected, so retriable errors are retried for up to a minute.
   */
  private async subscribe(consumer: Consumer): Promise<void> {
    await ensureTopic(this.kafka, this.settings.topic, this.log);
    for (let attempt = 1; ; attempt++) {
      try {
        await consumer.subscribe({ topic: this.settings.topic, fromBeginning: true });
        return;
      } catch (err) {
        const retriable = (err as { retriable?: boolean }).retriable === true;
        if (!retriable || attempt >= SUBSCRIBE_ATTEMPTS || this.stopping) throw err;
        this.log.warn('Kafka events topic not ready; retrying', { topic: this.settings.topic, attempt, error: err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /**
   * Seeks a newly assigned partition to the next offset the graph records for it when the group
   * has committed none (a new read replica started from a copy of another graph, in its own group:
   * it resumes where the copy ends, not at the topic's start) or an offset past it (the graph was
   * restored from an older copy: what it lacks is read again). A graph ahead of the group is
   * normal after a crash between the projection and the commit: that chunk is read again, so its
   * bad messages still reach the dead-letter topic. A batch fetched before the seek lands is
   * projected twice: harmless.
   */
  private async resumeFromGraph(consumer: Consumer, partitions: number[]): Promise<void> {
    const admin = this.kafka.admin();
    try {
      const graph = await this.ingestor.logOffsets(this.settings.topic);
      await admin.connect();
      const [committed] = await admin.fetchOffsets({ groupId: this.settings.groupId, topics: [this.settings.topic] });
      const group = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      for (const partition of partitions) {
        const next = graph.get(partition);
        const at = group.get(partition) ?? -1;
        if (next === undefined || (at >= 0 && at <= next)) continue;
        this.log.info('resuming a partition where the graph ends', { topic: this.settings.topic, partition, graph: next, group: at < 0 ? null : at });
        consumer.seek({ topic: this.settings.topic, partition, offset: String(next) });
      }
    } catch (err) {
      this.log.warn('could not compare the graph’s Kafka offsets with the group’s; resuming from the group’s', { error: err });
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect().catch((err) => this.log.warn('Kafka consumer disconnect failed', { error: err }));
    await this.sender?.close();
    await this.producer?.disconnect().catch(() => undefined);
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    // kafkajs heartbeats only when asked; a transaction can outlast the session timeout, so keep
    // the membership alive while the batch is being stored.
    const beat = setInterval(() => void payload.heartbeat().catch(() => undefined), Math.max(500, Math.floor(this.settings.sessionTimeoutMs / 5)));
    try {
      await this.handleBatchInner(payload);
    } finally {
      clearInterval(beat);
    }
  }

  private async handleBatchInner({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.metrics?.kafkaBatch.observe(batch.messages.length);
    const active = () => isRunning() && !isStale() && !this.stopping;
    const chunks: KafkaMessage[][] = [];
    for (let i = 0, n = 0; i < batch.messages.length; i += n) {
      n = batchLength(batch.messages.slice(i, i + this.settings.maxBatch), this.settings.maxBatch, this.settings.maxBatchBytes, (m) => m.value?.length ?? 0);
      chunks.push(batch.messages.slice(i, i + n));
    }
    let next = chunks.length > 0 ? this.parseChunk(chunks[0]!) : null;
    for (let c = 0; c < chunks.length; c++) {
      if (!active()) return;
      const parsed = await next!;
      // The partition's next chunk is parsed, validated and planned while this one is stored (a
      // partition alone, as with producers' job-based keys, still overlaps its CPU work with Neo4j's).
      next = c + 1 < chunks.length ? this.parseChunk(chunks[c + 1]!) : null;
      next?.catch(() => undefined); // awaited below; not left unhandled if this loop returns first
      const stored = await this.storeChunk(batch.topic, batch.partition, parsed, heartbeat, active);
      if (!stored) return; // stopped while waiting for Neo4j: nothing committed, the batch is redelivered
      const chunk = parsed.messages;
      const last = chunk[chunk.length - 1]!.offset;
      resolveOffset(last);
      // The committed offset is the next one to read.
      await this.consumer!.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() }]);
      await heartbeat();
    }
    this.metrics?.kafkaLag.set({ topic: batch.topic, partition: String(batch.partition) }, Number(batch.offsetLag()));
  }

  /**
   * Decodes a chunk's messages (those that are not UTF-8 JSON are set aside for the dead-letter
   * topic), then validates and plans the events (Ingestor.prepareChunk), a slice per turn of the
   * event loop: done while another chunk's transaction runs, so that the transaction taking this
   * chunk only compacts the plans and writes. Never throws; counts nothing (storeChunk does, once).
   */
  private async parseChunk(messages: KafkaMessage[]): Promise<ParsedChunk> {
    const items: { message: KafkaMessage; item: IngestItem }[] = [];
    const dead: DeadLetter[] = [];
    for (let k = 0; k < messages.length; k++) {
      const message = messages[k]!;
      if (k % PREPARE_SLICE === PREPARE_SLICE - 1) await new Promise((r) => setImmediate(r));
      const raw = decodeUtf8(message.value ?? Buffer.alloc(0));
      if (raw === null) {
        dead.push({ message, reason: 'NOT_UTF8', detail: 'the message value is not valid UTF-8' });
        continue;
      }
      try {
        items.push({ message, item: { raw, value: JSON.parse(raw) } });
      } catch {
        dead.push({ message, reason: 'NOT_JSON', detail: 'the message value is not JSON' });
      }
    }
    const chunk = items.map((i) => i.item);
    return { messages, items, chunk, dead, prepared: await this.ingestor.prepareChunk(chunk, PREPARE_SLICE) };
  }

  /** Stores one parsed chunk (retrying while Neo4j is unavailable) and dead-letters its bad messages. */
  private async storeChunk(topic: string, partition: number, parsed: ParsedChunk, heartbeat: () => Promise<void>, active: () => boolean): Promise<boolean> {
    const { messages, items, chunk, prepared } = parsed;
    const dead = [...parsed.dead];
    if (dead.length > 0) this.metrics?.ingestEvents.inc({ transport: 'kafka', outcome: 'rejected' }, dead.length);
    const key = `${topic}/${partition}`;
    if (!this.storingSince.has(key)) this.storingSince.set(key, Date.now());
    const next = Number(BigInt(messages[messages.length - 1]!.offset) + 1n);
    for (let attempt = 0; ; attempt++) {
      try {
        const outcomes = await this.coalescer.submit({ items: chunk, checkpoint: { topic, partition, next }, prepared });
        this.storingSince.delete(key);
        outcomes.forEach((o, k) => {
          this.metrics?.ingestEvents.inc({ transport: 'kafka', outcome: outcomeLabel(o) });
          if (!o.ok) dead.push({ message: items[k]!.message, reason: reasonCode(o.error), detail: reasonOf(o.error.message, o.error.details) });
        });
        break;
      } catch (err) {
        // Per-event failures come back as outcomes; a thrown error means the database (or the
        // connection to it) failed the whole batch: wait and retry, never skip.
        this.metrics?.retries.inc();
        const wait = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
        const unavailable = err instanceof AppError && err.code === ErrorCode.UNAVAILABLE;
        if (attempt % 5 === 0) {
          this.log.warn(unavailable ? 'Neo4j unavailable; Kafka consumption paused, retrying' : 'batch failed; retrying', {
            topic,
            partition,
            attempt,
            waitMs: wait,
            ...(unavailable ? {} : { error: err }),
          });
        }
        for (let waited = 0; waited < wait; waited += 500) {
          if (!active()) {
            this.storingSince.delete(key); // no longer ours (rebalance or stop)
            return false;
          }
          await heartbeat().catch(() => undefined);
          await new Promise((r) => setTimeout(r, Math.min(500, wait - waited)));
        }
      }
    }
    if (dead.length > 0) {
      await this.sender!.send(
        this.settings.dlqTopic,
        dead.map(({ message, reason, detail }) => ({
          key: message.key,
          value: message.value,
          headers: {
            ...(message.headers as IHeaders),
            [DLQ_HEADERS.reason]: reason,
            [DLQ_HEADERS.detail]: detail.slice(0, 1000),
            [DLQ_HEADERS.topic]: topic,
            [DLQ_HEADERS.partition]: String(partition),
            [DLQ_HEADERS.offset]: message.offset,
          },
        })),
        { acks: -1, timeout: 30_000 },
      );
      for (const d of dead) this.metrics?.dlq.inc({ reason: d.reason });
    }
    return true;
  }
}

type DeadLetter = { message: KafkaMessage; reason: string; detail: string };

/** A chunk's messages decoded, validated and planned (parseChunk), ready to be stored. */
interface ParsedChunk {
  messages: KafkaMessage[];
  items: { message: KafkaMessage; item: IngestItem }[];
  /** The items' events, as prepared. */
  chunk: IngestItem[];
  dead: DeadLetter[];
  prepared: PreparedChunk;
}

export interface StuckPartition {
  partition: string;
  forMs: number;
}

/** Partitions whose current messages have been storing for longer than `olderThanMs` (readiness). */
export function stuckPartitions(storingSince: ReadonlyMap<string, number>, olderThanMs: number, now = Date.now()): StuckPartition[] {
  return [...storingSince]
    .map(([partition, since]) => ({ partition, forMs: now - since }))
    .filter((p) => p.forMs > olderThanMs)
    .sort((a, b) => b.forMs - a.forMs);
}

function reasonCode(e: AppError): string {
  return e.details[0]?.reason ?? e.code;
}
