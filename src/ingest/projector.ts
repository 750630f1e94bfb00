import { AppError, ErrorCode } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { projectEvents, type PendingEvent } from './ingestor';
import { NO_RULES, type IdentityRules } from './naming';
import { validateEvent } from './validate';

export interface ProjectorOptions {
  /** Events per projection transaction, at most. */
  batch: number;
  /** Events held in memory; beyond it they wait in Neo4j (label Pending) for the sweep. */
  maxQueued: number;
  /** A Pending event this old that no queue holds is taken by the sweep (left by a stopped process). */
  orphanAfterMs: number;
  /** How often an idle projector looks for such events. */
  sweepMs: number;
  /**
   * How long the first event of a batch smaller than `batch` may wait for others, unless a client
   * waits for its projection: fewer, larger transactions leave more of the CPU to acknowledging.
   */
  lingerMs: number;
}

export const DEFAULT_PROJECTOR: ProjectorOptions = { batch: 500, maxQueued: 50_000, orphanAfterMs: 10_000, sweepMs: 2_000, lingerMs: 500 };

/**
 * Projects stored events (label Pending) into the graph, in the background, in batches of up to
 * `batch` events per transaction: the events this process stored (handed over by `enqueue`, already
 * validated), and, when idle, those no process is projecting (stored before this process started,
 * or older than `orphanAfterMs`). The projection is idempotent and order-independent, so an event
 * projected twice (two processes sweeping at once) or in any order gives the same graph.
 * Each transaction writes the projection and drops the Pending labels together. A batch the
 * database refuses is split in halves; an event that fails alone is labelled ProjectionFailed with
 * the error (logged, counted) and never blocks the others. While Neo4j is unavailable the batch
 * waits and is retried with backoff; nothing is dropped (the events are stored).
 */
export class Projector {
  private readonly queue: PendingEvent[] = [];
  private readonly queued = new Set<string>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly startedAt = new Date().toISOString();
  private wake: (() => void) | null = null;
  private lingering = false;
  private loop: Promise<void> | null = null;
  private running = false;
  private lastSweep = 0;
  private backoffMs = 0;
  private oldestInFlight: string | null = null;

  constructor(
    private readonly executor: Executor,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
    private readonly rules: IdentityRules = NO_RULES,
    private readonly options: ProjectorOptions = DEFAULT_PROJECTOR,
  ) {
    if (metrics) metrics.projectionState = () => ({ lagMs: this.lagMs(), queued: this.queue.length });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the transaction in flight; what is still queued stays Pending in Neo4j for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Hands over events this process just stored (created, label Pending). */
  enqueue(events: PendingEvent[]): void {
    for (const e of events) {
      if (this.queue.length >= this.options.maxQueued || this.queued.has(e.id)) continue;
      this.queue.push(e);
      this.queued.add(e.id);
    }
    if (!this.lingering || this.queue.length >= this.options.batch) this.wake?.();
  }

  /** Event ids some request is waiting on (Tributary-Wait: projected). */
  waitingOn(): number {
    return this.waiters.size;
  }

  /** Milliseconds since the oldest event this process has still to project was received; 0 when none. */
  lagMs(): number {
    const oldest = this.oldestInFlight ?? this.queue[0]?.receivedAt ?? null;
    return oldest === null ? 0 : Math.max(0, Date.now() - Date.parse(oldest));
  }

  /**
   * Resolves true once none of `ids` is Pending any more (projected, or failed), false after
   * `timeoutMs`. Events this process projects resolve as their transaction commits; others (stored
   * by another process, or beyond the in-memory queue) are checked in Neo4j every 250 ms.
   */
  async waitFor(ids: string[], timeoutMs: number): Promise<boolean> {
    let left = new Set(ids);
    const deadline = Date.now() + timeoutMs;
    while (left.size > 0) {
      const remaining = await this.executor.read<{ id: string }>(Query.StillPending, { ids: [...left] });
      left = new Set(remaining.map((r) => r.id));
      if (left.size === 0) return true;
      const wait = Math.min(250, deadline - Date.now());
      if (wait <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          for (const id of left) {
            const ws = this.waiters.get(id);
            ws?.delete(done);
            if (ws?.size === 0) this.waiters.delete(id);
          }
          resolve();
        };
        const timer = setTimeout(done, wait);
        for (const id of left) {
          if (!this.waiters.has(id)) this.waiters.set(id, new Set());
          this.waiters.get(id)!.add(done);
        }
        // Somebody waits: project now rather than linger.
        if (this.lingering) this.wake?.();
      });
    }
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.backoffMs > 0) await this.sleep(this.backoffMs);
      const age = this.queue.length > 0 ? Date.now() - Date.parse(this.queue[0]!.receivedAt) : 0;
      if (this.queue.length > 0 && this.queue.length < this.options.batch && this.waiters.size === 0 && age < this.options.lingerMs) {
        this.lingering = true;
        await this.sleep(this.options.lingerMs - age);
        this.lingering = false;
      }
      let batch = this.queue.splice(0, this.options.batch);
      for (const e of batch) this.queued.delete(e.id);
      if (batch.length === 0 && Date.now() - this.lastSweep >= this.options.sweepMs) batch = await this.sweep().catch(() => []);
      if (batch.length === 0) {
        await this.sleep(this.options.sweepMs);
        continue;
      }
      this.oldestInFlight = batch.reduce((m, e) => (e.receivedAt < m ? e.receivedAt : m), batch[0]!.receivedAt);
      try {
        await this.project(batch);
        this.backoffMs = 0;
      } catch (err) {
        // Unavailable: back to the front of the queue, tried again after a pause.
        this.queue.unshift(...batch);
        for (const e of batch) this.queued.add(e.id);
        this.backoffMs = Math.min(10_000, Math.max(500, this.backoffMs * 2));
        this.log.warn('projection paused: the graph database is unavailable', { events: batch.length, retryInMs: this.backoffMs, error: (err as Error).message });
      } finally {
        this.oldestInFlight = null;
      }
    }
  }

  /** Stored events no queue holds: received before this process started, or long enough ago. */
  private async sweep(): Promise<PendingEvent[]> {
    this.lastSweep = Date.now();
    const cutoff = new Date(Date.now() - this.options.orphanAfterMs).toISOString();
    const before = cutoff > this.startedAt ? cutoff : this.startedAt;
    let rows: { id: string; raw: string; receivedAt: string }[];
    try {
      rows = await this.executor.read(Query.PendingEvents, { before, limit: this.options.batch });
    } catch {
      return []; // unavailable: the next sweep tries again
    }
    const events: PendingEvent[] = [];
    for (const r of rows) {
      try {
        events.push({ id: r.id, valid: validateEvent(JSON.parse(r.raw)), receivedAt: r.receivedAt });
      } catch (err) {
        await this.fail([r.id], `no longer valid: ${(err as Error).message}`).catch(() => {});
      }
    }
    if (events.length > 0) this.log.info('projecting stored events no process was projecting', { events: events.length });
    return events;
  }

  /** One transaction for the batch; halves on a failure that is not the database being down. */
  private async project(batch: PendingEvent[]): Promise<void> {
    try {
      const timer = this.metrics?.projectionSeconds.startTimer();
      await this.executor.writeTx('project', async (tx) => {
        await projectEvents(tx, batch, this.rules);
        await tx.run(Query.MarkProjected, { ids: batch.map((e) => e.id), error: null, at: new Date().toISOString() });
      });
      timer?.();
      this.metrics?.projectionBatch.observe(batch.length);
      this.settled(batch.map((e) => e.id));
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE) throw err;
      if (batch.length === 1) {
        this.log.error('event could not be projected; labelled ProjectionFailed', { eventId: batch[0]!.id, error: err });
        await this.fail([batch[0]!.id], (err as Error)?.message ?? String(err));
        return;
      }
      const mid = Math.ceil(batch.length / 2);
      await this.project(batch.slice(0, mid));
      await this.project(batch.slice(mid));
    }
  }

  private async fail(ids: string[], error: string): Promise<void> {
    await this.executor.writeTx(Query.MarkProjected, (tx) => tx.run(Query.MarkProjected, { ids, error: error.slice(0, 2000), at: new Date().toISOString() }));
    this.metrics?.projectionFailed.inc(ids.length);
    this.settled(ids);
  }

  private settled(ids: string[]): void {
    for (const id of ids) {
      const ws = this.waiters.get(id);
      if (!ws) continue;
      this.waiters.delete(id);
      for (const w of ws) w();
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
