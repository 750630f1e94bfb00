import type { Turns } from '../cpu-turns';
import { AppError, badInput, ErrorCode } from '../errors';
import { logOffsetId } from '../ids';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { Contended, DeadlineExceeded, type Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { compactPlan, type CompactPlan } from './compact';
import { NO_RULES, type IdentityRules } from './naming';
import { planEvent } from './plan';
import { DatabaseProbe } from './probe';
import { emptyPlan, type ProjectionPlan } from './plan-rows';
import { storedEventRow, type StoredEventRow } from './stored-event';
import type { EventPosition } from './event-log';
import { validateEvent, type ValidEvent } from './validate';
import { ProjectionWriter } from './writer';
import { projectEvents, storeAndProject } from './write-plan';

/**
 * validate → store → project, for one event or a batch. Transport-agnostic (HTTP, files, Kafka).
 *
 * Durability: the raw events and their projection are written in one transaction; `ingest`
 * resolves only after it committed, so an acknowledged event is never lost.
 * Idempotency: an event whose exact JSON text was stored before is acknowledged as a duplicate
 * (projecting it again changes nothing: the projection is idempotent and order-independent).
 * One projection transaction at a time per process (writer.ts); validation and planning happen
 * before waiting for it.
 */

export interface IngestItem {
  /** The exact JSON text received, stored as is. */
  raw: string;
  /** The parsed JSON value of `raw`. */
  value: unknown;
}

export type IngestOutcome =
  | { ok: true; eventId: string; kind: ValidEvent['kind']; duplicate: boolean; pending?: EventPosition }
  | { ok: false; error: AppError };

/** The metrics outcome label of an outcome: stored, duplicate, rejected (invalid) or failed. */
export function outcomeLabel(o: IngestOutcome): 'stored' | 'duplicate' | 'rejected' | 'failed' {
  if (o.ok) return o.duplicate ? 'duplicate' : 'stored';
  return o.error.code === ErrorCode.BAD_INPUT ? 'rejected' : 'failed';
}

export class Ingestor {
  private readonly probe: DatabaseProbe;

  constructor(
    private readonly executor: Executor,
    private readonly log?: Logger,
    private readonly metrics?: Metrics,
    private readonly rules: IdentityRules = NO_RULES,
    private readonly writer: ProjectionWriter = new ProjectionWriter(),
  ) {
    this.probe = new DatabaseProbe(executor);
  }

  /** How far the graph has projected each partition of `topic` (see readLogOffsets). */
  logOffsets(topic: string): Promise<Map<number, number>> {
    return readLogOffsets(this.executor, topic);
  }

  /**
   * Outcomes in input order. Invalid items never prevent valid ones from being stored.
   * With a `checkpoint` (the Kafka worker's: the items are a partition's messages up to it), the
   * graph records that partition as projected up to it once every item has its outcome, in the
   * same transaction when the batch commits whole (record-log-offset.cypher).
   */
  async ingest(items: IngestItem[], checkpoint?: LogCheckpoint): Promise<IngestOutcome[]> {
    return (await this.ingestChunks([{ items, checkpoint }]))[0]!;
  }

  /**
   * Validates and plans items ahead of their transaction (the Kafka worker does it while another
   * chunk's transaction runs): ingestChunks then only compacts and writes. Reusable when the
   * chunk is submitted again after a failure. With `yieldEvery`, gives the event loop a turn after
   * every that many items (a transaction in flight has several round trips to answer meanwhile).
   */
  async prepareChunk(items: IngestItem[], yieldEvery = Infinity): Promise<PreparedChunk> {
    const batch = emptyBatch(items.length);
    let plan: ProjectionPlan | null = emptyPlan();
    for (let index = 0; index < items.length; index++) {
      const e = acceptOne(batch, items[index]!, index, this.log);
      try {
        if (e && plan) planEvent(plan, e.valid, { rules: this.rules, eventId: e.row.id });
      } catch {
        plan = null; // planned again in the transaction's turn, where an event that fails is isolated (commit)
      }
      if (index % yieldEvery === yieldEvery - 1) await new Promise((r) => setImmediate(r));
    }
    return { batch, plan };
  }

  private prepareNow(items: IngestItem[]): PreparedChunk {
    const batch = acceptItems(items, this.log);
    return { batch, plan: planOf([...batch.accepted.values()], this.rules) };
  }

  /**
   * Several chunks (the Kafka worker's, of different partitions) in one transaction: each chunk's
   * outcomes in its input order, every checkpoint recorded as `ingest` records one. An event in two
   * chunks is stored once (both chunks see it stored). A chunk's `prepared` (prepareChunk of its
   * items) saves validating and planning it here.
   */
  async ingestChunks(chunks: { items: IngestItem[]; checkpoint?: LogCheckpoint; prepared?: PreparedChunk }[]): Promise<IngestOutcome[][]> {
    const prepared = chunks.map((c) => c.prepared ?? this.prepareNow(c.items));
    const batches = prepared.map((p) => p.batch);
    const checkpoints = chunks.flatMap((c) => (c.checkpoint ? [c.checkpoint] : []));
    const accepted = new Map(batches.flatMap((b) => [...b.accepted]));
    if (accepted.size === 0) {
      if (checkpoints.length > 0) await recordCheckpoints(this.executor, checkpoints);
      return batches.map((b) => b.outcomes);
    }
    const events = [...accepted.values()];
    // The chunks' plans together are the batch's plan unless an event is in two chunks (then planned once, anew).
    const disjoint = batches.reduce((n, b) => n + b.accepted.size, 0) === events.length;
    const plans = prepared.flatMap((p) => (p.plan ? [p.plan] : []));
    const plan = disjoint && plans.length === prepared.length ? compactPlan(concatPlans(plans)) : undefined;
    const results = await this.commit(events, checkpoints, plan);
    return batches.map((b) => settle(b, results));
  }

  /**
   * Commits events in one transaction. Should the transaction fail, the database is probed
   * (probe.ts): when it does not answer, the error is thrown (UNAVAILABLE: the caller retries).
   * When it answers, whatever the error (one that looks like unavailability too, such as a message
   * too large for the server's memory), the batch is split in halves and each half retried, so that
   * one event the database refuses costs no other event its place; that event alone fails
   * (INTERNAL, logged).
   */
  private async commit(events: Accepted[], checkpoints: LogCheckpoint[] = [], plan?: CompactPlan): Promise<Map<string, 'created' | 'duplicate' | AppError>> {
    try {
      const prepared = plan ? { events, plan } : prepareBatch(events, this.rules);
      const created = await writeBatch({ executor: this.executor, writer: this.writer, metrics: this.metrics }, 'ingest', prepared, checkpoints);
      return new Map(events.map((e) => [e.row.id, created.has(e.row.id) ? 'created' : 'duplicate']));
    } catch (err) {
      const unavailable = err instanceof AppError && err.code === ErrorCode.UNAVAILABLE;
      if (!(await this.probe.up())) throw unavailable ? err : new AppError(ErrorCode.UNAVAILABLE, 'the graph database does not answer; retry later');
      // Too slow is not refused: the caller retries (Kafka commits no offset).
      if (err instanceof DeadlineExceeded && events.length === 1) throw err;
      // Nor is losing on locks to concurrent projectors: the caller retries the batch whole.
      if (err instanceof Contended) throw err;
      let results: Map<string, 'created' | 'duplicate' | AppError>;
      if (events.length === 1) {
        this.log?.error('event could not be projected', { eventId: events[0]!.row.id, error: err });
        results = new Map([[events[0]!.row.id, new AppError(ErrorCode.INTERNAL, 'the event could not be stored (logged)')]]);
      } else {
        const mid = Math.ceil(events.length / 2);
        const [a, b] = [await this.commit(events.slice(0, mid)), await this.commit(events.slice(mid))];
        results = new Map([...a, ...b]);
      }
      if (checkpoints.length > 0) await recordCheckpoints(this.executor, checkpoints);
      return results;
    }
  }
}

/** A validated event and its stored form (`receivedAt` when known: the spool's time of receipt). */
export type Accepted = { row: StoredEventRow & { receivedAt?: string }; valid: ValidEvent };

export interface AcceptedBatch {
  outcomes: IngestOutcome[];
  /** Valid events by id (an event sent twice in one call is stored once). */
  accepted: Map<string, Accepted>;
  slots: { index: number; id: string; kind: ValidEvent['kind'] }[];
}

/** Validation of every item; whatever one event does to validation or its stored form is that event's fault alone. */
export function acceptItems(items: IngestItem[], log?: Logger): AcceptedBatch {
  const batch = emptyBatch(items.length);
  items.forEach((item, index) => acceptOne(batch, item, index, log));
  return batch;
}

/** acceptItems with each item's validation one task of `turns` (src/cpu-turns.ts): reads are handled between them. */
export async function acceptItemsInTurns(items: IngestItem[], turns: Turns, log?: Logger): Promise<AcceptedBatch> {
  const batch = emptyBatch(items.length);
  await turns.each(items, (item, index) => acceptOne(batch, item, index, log));
  return batch;
}

function emptyBatch(length: number): AcceptedBatch {
  return { outcomes: new Array<IngestOutcome>(length), accepted: new Map(), slots: [] };
}

/** Validates the item at `index` into `batch`; returns it when it is the first of its id, else null. */
function acceptOne(batch: AcceptedBatch, item: IngestItem, index: number, log?: Logger): Accepted | null {
  try {
    const valid = validateEvent(item.value);
    const row = storedEventRow(valid, item.raw, item.value);
    batch.slots.push({ index, id: row.id, kind: valid.kind });
    if (batch.accepted.has(row.id)) return null;
    const accepted = { row, valid };
    batch.accepted.set(row.id, accepted);
    return accepted;
  } catch (err) {
    if (!(err instanceof AppError)) log?.warn('event refused: it could not be processed', { index, error: err });
    batch.outcomes[index] = { ok: false, error: err instanceof AppError ? err : badInput(`the event could not be processed (${(err as Error)?.name ?? 'error'})`) };
    return null;
  }
}

/** The outcomes of a batch once stored: the first slot of a created id is new, any other a duplicate. */
export function settle(batch: AcceptedBatch, results: Map<string, 'created' | 'duplicate' | AppError>): IngestOutcome[] {
  const { outcomes } = batch;
  const firstSlot = new Set<string>();
  for (const { index, id, kind } of batch.slots) {
    const result = results.get(id)!;
    if (result instanceof AppError) {
      outcomes[index] = { ok: false, error: result };
      continue;
    }
    const isNew = result === 'created' && !firstSlot.has(id);
    firstSlot.add(id);
    outcomes[index] = { ok: true, eventId: id, kind, duplicate: !isNew };
  }
  return outcomes;
}

/**
 * Projects events that are already stored (re-projection after a projection or identity rule
 * change), without storing them again. Returns how many were projected and how many no longer pass
 * validation (those stay stored, unprojected).
 */
export async function projectStored(
  executor: Executor,
  events: { id: string; raw: string }[],
  rules: IdentityRules = NO_RULES,
): Promise<{ projected: number; invalid: number }> {
  const valid: { id: string; valid: ValidEvent }[] = [];
  let invalid = 0;
  for (const e of events) {
    try {
      valid.push({ id: e.id, valid: validateEvent(JSON.parse(e.raw)) });
    } catch {
      invalid++;
    }
  }
  await executor.writeTx('reproject', (tx) => projectEvents(tx, valid, rules));
  return { projected: events.length - invalid, invalid };
}

/**
 * A chunk's items validated (outcomes of the invalid ones set) and the plan of its valid events, not
 * yet compacted; null when planning one of them failed (the transaction's turn plans them again).
 */
export interface PreparedChunk {
  batch: AcceptedBatch;
  plan: ProjectionPlan | null;
}

/** One plan of several plans' rows (compaction then merges rows of the same key, whichever plan they came from). */
function concatPlans(plans: ProjectionPlan[]): ProjectionPlan {
  if (plans.length === 1) return plans[0]!;
  const out = emptyPlan();
  for (const key of Object.keys(out) as (keyof ProjectionPlan)[]) (out[key] as unknown[]) = plans.flatMap((p) => p[key] as unknown[]);
  return out;
}

/** Events to store and the compact plan of their projection, computed before the transaction (CPU work that overlaps the one in flight). */
export interface PreparedBatch {
  events: Accepted[];
  plan: CompactPlan;
  /** The events' texts as their Event nodes keep them (graph/event-text.ts), by index, when packed ahead; else packed in the transaction's turn. */
  packed?: Int8Array[];
}

/**
 * Stores and projects a prepared batch (prepareBatch: ids unique) in one write transaction, through
 * the process's one projection writer, timed and counted in the projection metrics; returns the ids
 * it created. The one place the spool's projector and the ingestor (Kafka, files) write a batch.
 */
export async function writeBatch(
  on: { executor: Executor; writer: ProjectionWriter; metrics?: Metrics },
  name: string,
  prepared: PreparedBatch,
  checkpoints: LogCheckpoint[] = [],
): Promise<Set<string>> {
  const { events } = prepared;
  const created = await on.writer.exclusive(async () => {
    const timer = on.metrics?.projectionSeconds.startTimer();
    const result = await on.executor.writeTx(name, async (tx) => {
      const [ids] = await Promise.all([storeAndProject(tx, prepared), ...checkpoints.map((c) => tx.run(Query.RecordLogOffset, checkpointParams(c)))]);
      return ids;
    });
    timer?.();
    return result;
  });
  on.metrics?.projectionBatch.observe(events.length);
  on.metrics?.projectionBatchBytes.observe(events.reduce((n, e) => n + e.row.raw.length, 0));
  return created;
}

/** How far a batch reaches in one partition of the Kafka events topic: `next` is the offset after its last message. */
export interface LogCheckpoint {
  topic: string;
  partition: number;
  next: number;
}

const checkpointParams = (c: LogCheckpoint) => ({ id: logOffsetId(c.topic, c.partition), topic: c.topic, partition: c.partition, next: c.next });

/** Records checkpoints alone (their batch was split, or held no event to store). */
async function recordCheckpoints(executor: Executor, checkpoints: LogCheckpoint[]): Promise<void> {
  await executor.writeTx('log-offset', (tx) => Promise.all(checkpoints.map((c) => tx.run(Query.RecordLogOffset, checkpointParams(c)))));
}

/** How far this graph has projected each partition of a Kafka events topic: partition → next offset. */
export async function readLogOffsets(executor: Executor, topic: string): Promise<Map<number, number>> {
  const rows = await executor.read<{ partition: number; next: number }>(Query.LogOffsets, { topic });
  return new Map(rows.map((r) => [r.partition, r.next]));
}

/** Plans every event of the batch (ids unique). */
export function prepareBatch(events: Accepted[], rules: IdentityRules): PreparedBatch {
  return { events, plan: compactPlan(planOf(events, rules)) };
}

/** The plan of events (each under its stored id), not yet compacted. */
function planOf(events: Accepted[], rules: IdentityRules): ProjectionPlan {
  const plan = emptyPlan();
  for (const e of events) planEvent(plan, e.valid, { rules, eventId: e.row.id });
  return plan;
}
