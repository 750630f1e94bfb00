import { Kafka, logLevel, type Admin, type Message, type Producer } from 'kafkajs';
import type { KafkaSettings } from '../config';
import { AppError, ErrorCode } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { EventLog, LogPosition } from './event-log';
import { ensureTopic, PartitionedSender } from './kafka-send';
import { isLogPosition } from './event-log';
import { acceptItems, readLogOffsets, settle, type Accepted, type IngestItem, type IngestOutcome } from './ingestor';

/** How often the graph's offsets are read while some request waits for its projection. */
const POLL_MS = 50;
/** How often the graph's lag behind the topic is refreshed (for /readyz and /metrics). */
const LAG_EVERY_MS = 2_000;
/** Longest a produce may take before the request is answered 503 (the event may still land: a retry is a duplicate, harmless). */
const SEND_TIMEOUT_MS = 10_000;

/**
 * TRIBUTARY_INGEST_LOG=kafka: HTTP ingestion acknowledges once the events topic holds the event,
 * so an API replica holds nothing a crash could lose. Validation comes first (a bad event is a
 * 400, never a dead letter); valid events are produced with the exact text received as the value,
 * keyed by run id (a run's events stay in order in one partition; dataset and job events by their
 * event id), with acks=all, one request per partition (kafka-send.ts) and one in flight at a time. The answer says where each event is (topic,
 * partition, offset). Whoever consumes the topic (the Kafka worker, in this process or another)
 * projects it and records, in the graph, each partition's next offset (record-log-offset.cypher);
 * `Tributary-Wait: projected` polls those offsets in the graph this process reads, so it holds on
 * any replica that projects the same topic.
 * `duplicate` is exact only for repeats within one request: the topic keeps every copy, and the
 * projection stores an event once.
 */
export class KafkaEventLog implements EventLog {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer: Producer | null = null;
  private sender: PartitionedSender | null = null;
  private readonly waiters = new Set<{ until: Map<number, number>; done: (ok: boolean) => void }>();
  private polling = false;
  private lagTimer: NodeJS.Timeout | null = null;
  private lastLag: GraphLag | null = null;
  /** The lag measure's admin connection, kept between measures (null after a failure: reconnected next time). */
  private admin: Admin | null = null;
  /** A failing measure is logged once per streak, not every LAG_EVERY_MS. */
  private lagFailing = false;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly executor: Executor,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.kafka = new Kafka({
      clientId: `${settings.clientId}-api`,
      brokers: settings.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry) => this.log.warn(`kafka: ${entry.log.message}`, { namespace: entry.namespace }),
      retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
  }

  async start(): Promise<void> {
    // Not kafkajs' idempotent producer: after a send that fails while its request may have landed
    // (a leader killed mid-request), kafkajs rolls the partition's sequence number back, and the next
    // batch, other events under the reused number, is taken by the broker for a duplicate of the one
    // that landed: dropped, and acknowledged with that batch's offset (seen in the cluster tier: an
    // acknowledged event in neither graph). Plain acks=all with one request in flight per broker
    // keeps a partition's order; a retry that duplicates an event is stored once (content hash).
    this.producer = this.kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      // Leadership moves (a broker gone) are seen within seconds, not kafkajs' default 5 minutes.
      metadataMaxAge: 10_000,
    });
    this.sender = new PartitionedSender(this.kafka, this.producer);
    await ensureTopic(this.kafka, this.settings.topic, this.log);
    await this.producer.connect();
    const refresh = () =>
      void this.measureLag().finally(() => {
        if (this.lagTimer) this.lagTimer = setTimeout(refresh, LAG_EVERY_MS).unref();
      });
    this.lagTimer = setTimeout(refresh, 0).unref();
    this.log.info('HTTP ingestion acknowledges into Kafka', { topic: this.settings.topic, brokers: this.settings.brokers });
  }

  async stop(): Promise<void> {
    if (this.lagTimer) clearTimeout(this.lagTimer);
    this.lagTimer = null;
    for (const w of this.waiters) w.done(false);
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = null;
    await this.sender?.close();
    await this.producer?.disconnect().catch(() => undefined);
  }

  async store(items: IngestItem[]): Promise<IngestOutcome[]> {
    const batch = acceptItems(items, this.log);
    if (batch.accepted.size === 0) return batch.outcomes;
    const events = [...batch.accepted.values()];
    const positions = await this.produce(events);
    const results = new Map(events.map((e) => [e.row.id, 'created' as const]));
    return settle(batch, results).map((o) => (o.ok ? { ...o, pending: positions.get(o.eventId)! } : o));
  }

  /** Produces the events (acks=all); their positions by event id. UNAVAILABLE when the topic did not acknowledge them. */
  private async produce(events: Accepted[]): Promise<Map<string, LogPosition>> {
    if (!this.producer) throw new AppError(ErrorCode.UNAVAILABLE, 'the Kafka producer is not connected yet; retry');
    const messages: Message[] = events.map((e) => ({ key: keyOf(e), value: e.row.raw }));
    let timer: NodeJS.Timeout | undefined;
    let written: { partition: number; offset: number }[];
    try {
      written = await Promise.race([
        this.sender!.send(this.settings.topic, messages, { acks: -1, timeout: SEND_TIMEOUT_MS }),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no acknowledgement within ${SEND_TIMEOUT_MS} ms`)), SEND_TIMEOUT_MS))),
      ]);
    } catch (err) {
      this.log.warn('the Kafka events topic did not acknowledge; answering 503', { topic: this.settings.topic, events: events.length, error: err });
      throw new AppError(ErrorCode.UNAVAILABLE, 'the Kafka events topic did not acknowledge the events; retry (a retry of an event that did land is stored once)');
    } finally {
      clearTimeout(timer);
    }
    return new Map(events.map((e, i) => [e.row.id, { topic: this.settings.topic, ...written[i]! }]));
  }

  async projected(outcomes: IngestOutcome[], wait: boolean, timeoutMs: number): Promise<boolean> {
    const until = new Map<number, number>();
    for (const o of outcomes) {
      if (!o.ok || !o.pending || !isLogPosition(o.pending)) continue;
      until.set(o.pending.partition, Math.max(until.get(o.pending.partition) ?? -1, o.pending.offset));
    }
    if (until.size === 0) return true;
    // Not waiting: the event has only just been acknowledged; reading the graph would cost every
    // fire-and-forget request a round trip for an answer that is almost always "not yet".
    if (!wait) return false;
    if (passed(until, await this.offsets())) return true;
    return new Promise((resolve) => {
      const waiter = {
        until,
        done: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
      void this.poll();
    });
  }

  /** One poller for every waiting request, running while any waits. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        let next: Map<number, number>;
        try {
          next = await this.offsets();
        } catch {
          continue; // the graph not answering: the waits time out (202) unless it comes back
        }
        for (const w of [...this.waiters]) if (passed(w.until, next)) w.done(true);
      }
    } finally {
      this.polling = false;
    }
  }

  /** The graph's next offset of each partition of the events topic. */
  private offsets(): Promise<Map<number, number>> {
    return readLogOffsets(this.executor, this.settings.topic);
  }

  /** The last measured lag of the graph behind the topic (null before the first measure, or when it failed). */
  lag(): GraphLag | null {
    return this.lastLag;
  }

  /** The topic's end offsets against the graph's recorded ones (the events this graph has still to project). */
  private async measureLag(): Promise<void> {
    try {
      if (!this.admin) {
        const admin = this.kafka.admin();
        await admin.connect();
        // Stopped meanwhile: nothing would disconnect it.
        if (this.lagTimer === null) return void (await admin.disconnect().catch(() => undefined));
        this.admin = admin;
      }
      const admin = this.admin;
      const [ends, graph] = await Promise.all([admin.fetchTopicOffsets(this.settings.topic), this.offsets()]);
      const partitions = ends
        .map((p) => ({ partition: p.partition, end: Number(p.high), graph: graph.get(p.partition) ?? Number(p.low) }))
        .map((p) => ({ ...p, lag: Math.max(0, p.end - p.graph) }))
        .sort((a, b) => a.partition - b.partition);
      this.lastLag = { topic: this.settings.topic, events: partitions.reduce((n, p) => n + p.lag, 0), partitions, at: new Date().toISOString() };
      this.metrics?.graphLogLag.set({ topic: this.settings.topic }, this.lastLag.events);
      if (this.lagFailing) this.log.info('measuring the graph’s lag behind the Kafka events topic works again', { topic: this.settings.topic });
      this.lagFailing = false;
    } catch (err) {
      this.lastLag = null;
      if (!this.lagFailing) this.log.warn('could not measure the graph’s lag behind the Kafka events topic (logged once until it works again)', { topic: this.settings.topic, error: err });
      this.lagFailing = true;
      await this.admin?.disconnect().catch(() => undefined);
      this.admin = null;
    }
  }

  async projectionErrors(ids: string[]): Promise<Map<string, string>> {
    const missing = await this.executor.read<{ id: string }>(Query.StillPending, { ids });
    return new Map(missing.map((r) => [r.id, `the event could not be projected; it is in the dead-letter topic ${this.settings.dlqTopic}`]));
  }

  wasStoredBefore(): boolean {
    return false;
  }
}

/** How far the graph this process reads is behind the events topic. */
export interface GraphLag {
  topic: string;
  /** Events in the topic the graph has not projected, over every partition. */
  events: number;
  partitions: { partition: number; end: number; graph: number; lag: number }[];
  /** When it was measured. */
  at: string;
}

const passed = (until: Map<number, number>, next: Map<number, number>) => [...until].every(([partition, offset]) => (next.get(partition) ?? 0) > offset);

function keyOf(e: Accepted): string {
  return e.valid.kind === 'RunEvent' ? e.valid.event.run.runId.toLowerCase() : e.row.id;
}
