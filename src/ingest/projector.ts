import fs from 'node:fs';
import path from 'node:path';
import { AppError, ErrorCode } from '../errors';
import { Contended, DeadlineExceeded, type Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { batchLength, memoryOf } from './batching';
import { prepareBatch, writeBatch } from './ingestor';
import { projectLegacyPending } from './legacy-pending';
import { Lookahead, writable } from './lookahead';
import { NO_RULES, type IdentityRules } from './naming';
import { DatabaseProbe } from './probe';
import { comparePositions, type Spool, type SpoolPosition } from './spool';
import { decodeRecords, type SpooledEvent } from './spooled-event';
import { ProjectionWriter } from './writer';
import { DEFAULT_PROJECTOR, type ProjectorOptions } from './projector-options';

export { DEFAULT_PROJECTOR, type ProjectorOptions } from './projector-options';

/** How often an idle projector looks for events an earlier version left Pending in Neo4j. */
const LEGACY_EVERY_MS = 2_000;

/** Attempts for one event that fails as if the database were unavailable while the probe finds it up, before it is labelled ProjectionFailed. */
const SINGLE_ATTEMPTS = 3;

/** The last event labelled ProjectionFailed by this process (shown on /readyz). */
export interface ProjectionFailure {
  eventId: string;
  error: string;
  at: string;
}

export type { SpooledEvent } from './spooled-event';

/**
 * Projects the spool (spool.ts) into the graph in log order, in batches of up to `batch` events and
 * `batchBytes` of JSON text per transaction; each transaction stores the raw events (Event nodes,
 * once per content) and the projection of those not stored before, then the spool's checkpoint
 * moves past them.
 * Events come from memory (handed over by `offer` as they are acknowledged, already validated) or,
 * after a restart or when more than `maxQueued` events or `maxQueuedBytes` of them wait, are read
 * back from the spool a batch at a time. The next batch is read back and planned while the current
 * transaction runs (lookahead.ts). What the projector holds is bounded in bytes whatever the event
 * size (the queue's bound and two batches), so a stalled database fills the spool to its limit
 * (503), never the heap.
 * A failed batch is followed by a probe of the database (probe.ts). When the database does not
 * answer it is down: the batch waits and is retried with backoff; nothing is dropped (the spool
 * holds it). When it answers, the batch is at fault whatever the error: it is split in halves,
 * down to the one event that fails alone, which is stored with the label ProjectionFailed and its
 * error (logged, counted, shown on /readyz; `npm run reproject` retries it), so it never blocks the
 * others. Events a version before the spool left labelled Pending in Neo4j are projected once after start.
 */
export class Projector {
  private readonly queue: SpooledEvent[] = [];
  /** Estimated heap bytes of `queue` (memoryOf of each event's text). */
  private queuedBytes = 0;
  private readonly probe: DatabaseProbe;
  private failedCount = 0;
  private lastFailure: ProjectionFailure | null = null;
  /** The end of the last event taken (queued or read): offers continue from here. */
  private taken: SpoolPosition;
  /** Set while events after this position are only in the spool, not in memory. */
  private fromDisk: SpoolPosition | null;
  private waiters: { end: SpoolPosition; resolve: () => void }[] = [];
  /** Ids found already stored by recent projections (a waiting client learns it sent a duplicate). */
  private readonly foundStored = new Set<string>();
  /** Ids of recent events that could not be projected, with the reason (a waiting client is told). */
  private readonly failedRecently = new Map<string, string>();
  private readonly startedAt = new Date().toISOString();
  private lastLegacy = 0;
  private wake: (() => void) | null = null;
  private lingering = false;
  /** The batch after the one in flight, read back and planned while that one's transaction runs (prepareNextWhileWriting). */
  private readonly ahead: Lookahead;
  private loop: Promise<void> | null = null;
  private running = false;
  private backoffMs = 0;

  constructor(
    private readonly executor: Executor,
    private readonly spool: Spool,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
    private readonly rules: IdentityRules = NO_RULES,
    private readonly options: ProjectorOptions = DEFAULT_PROJECTOR,
    private readonly writer: ProjectionWriter = new ProjectionWriter(),
  ) {
    this.probe = new DatabaseProbe(executor, options.probeTimeoutMs);
    this.ahead = new Lookahead(rules, options.turns);
    this.taken = spool.checkpoint;
    this.fromDisk = comparePositions(spool.normalise(spool.checkpoint), spool.normalise(spool.end)) < 0 ? spool.checkpoint : null;
    if (metrics) metrics.projectionState = () => ({ lagMs: this.lagMs(), queued: spool.pendingRecords });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the transaction in flight; the rest stays in the spool for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Hands over events just appended to the spool, in log order. */
  offer(events: SpooledEvent[]): void {
    for (const e of events) {
      if (this.fromDisk) break;
      if (comparePositions(this.spool.normalise(e.end), this.spool.normalise(this.taken)) <= 0) continue;
      const full = this.queue.length > 0 && (this.queue.length >= this.options.maxQueued || this.queuedBytes + memoryOf(e.row.raw) > this.options.maxQueuedBytes);
      if (full || comparePositions(this.spool.normalise(e.start), this.spool.normalise(this.taken)) !== 0) {
        this.fromDisk = this.taken;
        break;
      }
      this.push([e]);
      this.taken = e.end;
    }
    if (!this.lingering || this.batchReady() || this.fromDisk) this.wake?.();
  }

  /** Batches read back from the spool since start and how many had been read ahead; batches planned ahead and how many of those plans were used. */
  get lookahead(): Readonly<Lookahead['counts']> {
    return this.ahead.counts;
  }

  /** Events labelled ProjectionFailed by this process since it started, and the last one (for /readyz). */
  failures(): { count: number; last: ProjectionFailure | null } {
    return { count: this.failedCount, last: this.lastFailure };
  }

  /** Milliseconds since the oldest event not yet projected was received; 0 when none. */
  lagMs(): number {
    return this.spool.lagMs();
  }

  /** Whether a recent projection found this event stored before (it was a duplicate). */
  wasStoredBefore(id: string): boolean {
    return this.foundStored.has(id);
  }

  /** Why a recent event could not be projected (labelled ProjectionFailed); null when it was projected or is unknown. */
  projectionError(id: string): string | null {
    return this.failedRecently.get(id) ?? null;
  }

  /** Resolves true once everything up to `end` is projected, false after `timeoutMs`. */
  waitFor(end: SpoolPosition, timeoutMs: number): Promise<boolean> {
    if (this.projectedThrough(end)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { end, resolve: () => finish(true) };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      this.waiters.push(waiter);
      // Somebody waits: project now rather than linger.
      if (this.lingering) this.wake?.();
    });
  }

  /** Number of requests waiting for their projection. */
  waitingOn(): number {
    return this.waiters.length;
  }

  private projectedThrough(end: SpoolPosition): boolean {
    return comparePositions(this.spool.normalise(end), this.spool.normalise(this.spool.checkpoint)) <= 0;
  }

  /** Queues events at the back (or, `front`, events taken and not projected, back at the front). */
  private push(events: SpooledEvent[], front = false): void {
    if (front) this.queue.unshift(...events);
    else this.queue.push(...events);
    for (const e of events) this.queuedBytes += memoryOf(e.row.raw);
  }

  /** The next batch from the queue: at most `batch` events and `batchBytes` of text. */
  private take(): SpooledEvent[] {
    const batch = this.queue.splice(0, batchLength(this.queue, this.options.batch, this.options.batchBytes, (e) => e.row.raw.length));
    for (const e of batch) this.queuedBytes -= memoryOf(e.row.raw);
    if (this.queue.length === 0) this.queuedBytes = 0;
    return batch;
  }

  /** Whether the queue holds a full batch (by count or by bytes). */
  private batchReady(): boolean {
    const n = batchLength(this.queue, this.options.batch, this.options.batchBytes, (e) => e.row.raw.length);
    return n >= this.options.batch || n < this.queue.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.backoffMs > 0) await this.sleep(this.backoffMs);
      if (!this.running) break;
      const age = this.queue.length > 0 ? Date.now() - Date.parse(this.queue[0]!.row.receivedAt!) : 0;
      if (!this.fromDisk && this.queue.length > 0 && !this.batchReady() && this.waiters.length === 0 && age < this.options.lingerMs) {
        this.lingering = true;
        await this.sleep(this.options.lingerMs - age);
        this.lingering = false;
      }
      let batch = this.take();
      try {
        if (batch.length === 0 && this.fromDisk) batch = this.readBack();
        if (batch.length === 0) {
          const legacyDue = Date.now() - this.lastLegacy >= LEGACY_EVERY_MS;
          if (legacyDue) this.lastLegacy = Date.now();
          const legacy = legacyDue && (await projectLegacyPending({ executor: this.executor, writer: this.writer, rules: this.rules, log: this.log }, this.startedAt, this.options.batch));
          if (!legacy) await this.sleep(this.options.idleMs);
          continue;
        }
        const writing = this.project(batch);
        // Handled below; attached now so that a failure while preparing the next batch is not unhandled.
        writing.catch(() => undefined);
        await this.prepareNextWhileWriting();
        await writing;
        this.spool.commit(batch[batch.length - 1]!.end, batch.length);
        this.waiters.filter((w) => this.projectedThrough(w.end)).forEach((w) => w.resolve());
        this.backoffMs = 0;
      } catch (err) {
        // Unavailable: back to the front of the queue, tried again after a pause.
        this.push(batch, true);
        this.backoffMs = Math.min(10_000, Math.max(500, this.backoffMs * 2));
        this.log.warn('projection paused: the graph database is unavailable', { events: batch.length, retryInMs: this.backoffMs, error: (err as Error).message });
      }
    }
  }

  /**
   * Prepares the next batch while the transaction just started runs in Neo4j: reads it back from
   * the spool when that is where it waits, and plans it (Lookahead). Reading back (parse, validate,
   * id: about 150 ms per 1000 events) and planning (about 300 ms per 1000 events of size M) would
   * otherwise run with Neo4j idle, between two transactions. The transaction's messages go out
   * first (one turn of the event loop). A batch still filling in memory is not planned (the next
   * take may hold more events).
   */
  private async prepareNextWhileWriting(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const running = () => this.running;
    if (!this.running) return;
    const from = this.fromDisk;
    if (from && this.queue.length === 0) {
      let records;
      try {
        records = this.spool.read(from, this.options.batch, this.options.batchBytes);
      } catch {
        return; // readBack reads it again, and reports what fails
      }
      await this.ahead.readAndPlan(from, records, running);
    } else if (this.batchReady()) {
      await this.ahead.plan(this.queue.slice(0, batchLength(this.queue, this.options.batch, this.options.batchBytes, (e) => e.row.raw.length)), running);
    }
  }

  /** The next events from the spool (after a restart, or past the memory queue), validated again. */
  private readBack(): SpooledEvent[] {
    const from = this.fromDisk!;
    const events = this.ahead.takeRead(from, (p) => this.spool.normalise(p)) ?? this.decode(from);
    const last = events[events.length - 1];
    if (last) this.taken = last.end;
    // Caught up: offers (which arrive only after their sync moved spool.end) go to memory again.
    this.fromDisk = comparePositions(this.spool.normalise(this.taken), this.spool.normalise(this.spool.end)) >= 0 ? null : this.taken;
    return events;
  }

  /** One batch of the spool from `from`, each event parsed, validated and given its id again. */
  private decode(from: SpoolPosition): SpooledEvent[] {
    return decodeRecords(this.spool.read(from, this.options.batch, this.options.batchBytes));
  }

  /**
   * One transaction for the batch. On a failure the database is probed: down, the error is thrown
   * (UNAVAILABLE: the run loop backs off and retries); up, the batch is at fault and is split in
   * halves, down to the one event that fails alone and is labelled ProjectionFailed (one that
   * fails as if the database were unavailable gets SINGLE_ATTEMPTS tries first, never more; one
   * that only outlived the write deadline is never labelled, nor a batch that lost on locks to
   * concurrent projectors (Contended): the run loop backs off and retries).
   */
  private async project(batch: SpooledEvent[]): Promise<void> {
    const invalid = batch.filter((e) => e.error !== undefined);
    if (invalid.length > 0) {
      for (const e of invalid) await this.fail(e, e.error!);
      batch = batch.filter((e) => e.error === undefined);
      if (batch.length === 0) return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(batch);
        return;
      } catch (err) {
        if (!(await this.probe.up())) throw unavailableFrom(err);
        const unavailable = err instanceof AppError && err.code === ErrorCode.UNAVAILABLE;
        // Too slow is not refused: one event past the write deadline is retried after a pause, never labelled.
        if (err instanceof DeadlineExceeded && batch.length === 1) throw err;
        // Lost on locks to concurrent projectors: the whole batch again after a pause, never split or labelled.
        if (err instanceof Contended) throw err;
        if (batch.length > 1) {
          this.log.warn('projection batch refused while the database answers; splitting it', { events: batch.length, error: (err as Error)?.message ?? String(err) });
          const mid = Math.ceil(batch.length / 2);
          await this.project(batch.slice(0, mid));
          await this.project(batch.slice(mid));
          return;
        }
        if (unavailable && attempt < SINGLE_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, 500 * attempt));
          continue;
        }
        this.log.error('event could not be projected; stored with the label ProjectionFailed', { eventId: batch[0]!.row.id, attempts: attempt, error: err });
        await this.fail(batch[0]!, (err as Error)?.message ?? String(err));
        return;
      }
    }
  }

  /**
   * Stores and projects the batch in one transaction (ids unique: the same event acknowledged twice
   * is stored and projected once), with the plan made ahead when it was made for these events.
   */
  private async write(batch: SpooledEvent[]): Promise<void> {
    const unique = writable(batch);
    const prepared = this.ahead.takePlan(unique) ?? prepareBatch(unique, this.rules);
    const created = await writeBatch({ executor: this.executor, writer: this.writer, metrics: this.metrics }, 'project', prepared);
    for (const e of batch) if (!created.has(e.row.id)) this.remember(e.row.id);
  }

  /**
   * Stores the event unprojected, labelled ProjectionFailed (counted, the last one kept for
   * /readyz); if even that is refused while the database answers, appends it to `failed.ndjson` in
   * the spool folder. Throws UNAVAILABLE when the database is down.
   */
  private async fail(e: SpooledEvent, error: string): Promise<void> {
    if (this.failedRecently.size >= 10_000) this.failedRecently.delete(this.failedRecently.keys().next().value!);
    this.failedRecently.set(e.row.id, error.slice(0, 500));
    const at = new Date().toISOString();
    try {
      await this.writer.exclusive(() =>
        this.executor.writeTx('project-failed', async (tx) => {
          await tx.run(Query.StoreEvents, { events: [e.row], token: 'failed', receivedAt: e.row.receivedAt });
          await tx.run(Query.MarkProjected, { ids: [e.row.id], error: error.slice(0, 2000), at });
        }),
      );
    } catch (err) {
      if (!(await this.probe.up())) throw unavailableFrom(err);
      this.log.error('event could not be stored either; kept in failed.ndjson in the spool folder', { eventId: e.row.id, error: err });
      fs.appendFileSync(path.join(this.spool.dir, 'failed.ndjson'), JSON.stringify({ receivedAt: e.row.receivedAt, error, raw: e.row.raw }) + '\n');
    }
    this.metrics?.projectionFailed.inc();
    this.failedCount++;
    this.lastFailure = { eventId: e.row.id, error: error.slice(0, 500), at };
  }

  private remember(id: string): void {
    if (this.foundStored.size >= 10_000) this.foundStored.delete(this.foundStored.values().next().value!);
    this.foundStored.add(id);
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

/** The error of a batch that failed while the database was down, as UNAVAILABLE (the run loop's cue to back off). */
function unavailableFrom(err: unknown): AppError {
  if (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE) return err;
  return new AppError(ErrorCode.UNAVAILABLE, `the graph database does not answer (${(err as Error)?.message ?? String(err)})`);
}
