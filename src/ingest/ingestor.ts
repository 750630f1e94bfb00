import { randomUUID } from 'node:crypto';
import { AppError, badInput, ErrorCode } from '../errors';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { Executor, TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { compactPlan, type CompactPlan } from './compact';
import { NO_RULES, type IdentityRules } from './naming';
import { planEvent } from './plan';
import { emptyPlan } from './plan-rows';
import { storedEventRow, type StoredEventRow } from './stored-event';
import { validateEvent, type ValidEvent } from './validate';
import { refreshJobVersions } from './versions';

/**
 * validate → store → project, for one event or a batch. Transport-agnostic (HTTP, files, Kafka).
 *
 * Durability: the raw events and their projection are written in one transaction; `ingest`
 * resolves only after it committed, so an acknowledged event is never lost.
 * Idempotency: an event whose exact JSON text was stored before is acknowledged as a duplicate and
 * not projected again; the projection itself is also idempotent and order-independent.
 */

export interface IngestItem {
  /** The exact JSON text received, stored as is. */
  raw: string;
  /** The parsed JSON value of `raw`. */
  value: unknown;
}

export type IngestOutcome =
  | { ok: true; eventId: string; kind: ValidEvent['kind']; duplicate: boolean; pending?: boolean }
  | { ok: false; error: AppError };

/** The metrics outcome label of an outcome: stored, duplicate, rejected (invalid) or failed. */
export function outcomeLabel(o: IngestOutcome): 'stored' | 'duplicate' | 'rejected' | 'failed' {
  if (o.ok) return o.duplicate ? 'duplicate' : 'stored';
  return o.error.code === ErrorCode.BAD_INPUT ? 'rejected' : 'failed';
}

export class Ingestor {
  constructor(
    private readonly executor: Executor,
    private readonly log?: Logger,
    private readonly metrics?: Metrics,
    private readonly rules: IdentityRules = NO_RULES,
  ) {}

  /** Outcomes in input order. Invalid items never prevent valid ones from being stored. */
  async ingest(items: IngestItem[]): Promise<IngestOutcome[]> {
    const batch = acceptItems(items, this.log);
    if (batch.accepted.size === 0) return batch.outcomes;
    return settle(batch, await this.commit([...batch.accepted.values()]));
  }

  /**
   * validate → store, without projecting: the events are durably stored (label Pending) when this
   * resolves; the projector (projector.ts) projects them afterwards (the HTTP contract). Outcomes
   * in input order, each stored one saying whether it is still `pending`; `created` lists the
   * events this call stored, for the projector. A store the database refuses
   * for a transient reason is tried three times within about a second, then UNAVAILABLE.
   */
  async store(items: IngestItem[]): Promise<{ outcomes: IngestOutcome[]; created: PendingEvent[] }> {
    const batch = acceptItems(items, this.log);
    if (batch.accepted.size === 0) return { outcomes: batch.outcomes, created: [] };
    const events = [...batch.accepted.values()];
    const receivedAt = new Date().toISOString();
    const rows = await retryTransient(this.executor, () =>
      this.executor.autoCommit<{ id: string; created: boolean; pending: boolean }>(Query.StorePendingEvents, {
        events: events.map((e) => e.row),
        token: randomUUID(),
        receivedAt,
      }),
    );
    const byId = new Map(events.map((e) => [e.row.id, e]));
    const created = rows.filter((r) => r.created).map((r) => ({ id: r.id, valid: byId.get(r.id)!.valid, receivedAt }));
    const results = new Map(rows.map((r) => [r.id, r.created ? ('created' as const) : ('duplicate' as const)]));
    const pending = new Set(rows.filter((r) => r.pending).map((r) => r.id));
    const outcomes = settle(batch, results).map((o) => (o.ok ? { ...o, pending: pending.has(o.eventId) } : o));
    return { outcomes, created };
  }

  /**
   * Commits events in one transaction. Should the transaction fail for a reason other than the
   * database being unavailable, the batch is split in halves and each half retried, so that one
   * event the database refuses costs no other event its place; that event alone fails (INTERNAL,
   * logged).
   */
  private async commit(events: Accepted[]): Promise<Map<string, 'created' | 'duplicate' | AppError>> {
    try {
      const timer = this.metrics?.projectionSeconds.startTimer();
      const created = await this.executor.writeTx('ingest', (tx) => storeAndProject(tx, events, this.rules));
      timer?.();
      this.metrics?.projectionBatch.observe(events.length);
      return new Map(events.map((e) => [e.row.id, created.has(e.row.id) ? 'created' : 'duplicate']));
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE) throw err;
      if (events.length === 1) {
        this.log?.error('event could not be projected', { eventId: events[0]!.row.id, error: err });
        return new Map([[events[0]!.row.id, new AppError(ErrorCode.INTERNAL, 'the event could not be stored (logged)')]]);
      }
      const mid = Math.ceil(events.length / 2);
      const [a, b] = [await this.commit(events.slice(0, mid)), await this.commit(events.slice(mid))];
      return new Map([...a, ...b]);
    }
  }
}

type Accepted = { row: StoredEventRow; valid: ValidEvent };

/** A stored event waiting for projection, validated already. */
export interface PendingEvent {
  id: string;
  valid: ValidEvent;
  receivedAt: string;
}

interface AcceptedBatch {
  outcomes: IngestOutcome[];
  /** Valid events by id (an event sent twice in one call is stored once). */
  accepted: Map<string, Accepted>;
  slots: { index: number; id: string; kind: ValidEvent['kind'] }[];
}

/** Validation of every item; whatever one event does to validation or its stored form is that event's fault alone. */
function acceptItems(items: IngestItem[], log?: Logger): AcceptedBatch {
  const outcomes: IngestOutcome[] = new Array(items.length);
  const accepted = new Map<string, Accepted>();
  const slots: AcceptedBatch['slots'] = [];
  items.forEach((item, index) => {
    try {
      const valid = validateEvent(item.value);
      const row = storedEventRow(valid, item.raw, item.value);
      if (!accepted.has(row.id)) accepted.set(row.id, { row, valid });
      slots.push({ index, id: row.id, kind: valid.kind });
    } catch (err) {
      if (!(err instanceof AppError)) log?.warn('event refused: it could not be processed', { index, error: err });
      outcomes[index] = { ok: false, error: err instanceof AppError ? err : badInput(`the event could not be processed (${(err as Error)?.name ?? 'error'})`) };
    }
  });
  return { outcomes, accepted, slots };
}

/** The outcomes of a batch once stored: the first slot of a created id is new, any other a duplicate. */
function settle(batch: AcceptedBatch, results: Map<string, 'created' | 'duplicate' | AppError>): IngestOutcome[] {
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

/** `work`, tried again twice (after 100 and 400 ms) while it fails UNAVAILABLE and the database is not known to be down. */
async function retryTransient<T>(executor: Executor, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= 2 || !executor.up() || !(err instanceof AppError) || err.code !== ErrorCode.UNAVAILABLE) throw err;
      await new Promise((r) => setTimeout(r, 100 * 4 ** attempt));
    }
  }
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

/** Stores the events and projects those not stored before; returns the ids it created. */
async function storeAndProject(tx: TxRunner, events: Accepted[], rules: IdentityRules): Promise<Set<string>> {
  const stored = await tx.run<{ id: string; created: boolean }>(Query.StoreEvents, {
    events: events.map((e) => e.row),
    token: randomUUID(),
    receivedAt: new Date().toISOString(),
  });
  const created = new Set(stored.filter((r) => r.created).map((r) => r.id));
  await projectEvents(tx, events.filter((e) => created.has(e.row.id)).map((e) => ({ id: e.row.id, valid: e.valid })), rules);
  return created;
}

/** Plans validated events (each under its stored id) as one compact plan and writes it: every projection goes through here. */
export async function projectEvents(tx: TxRunner, events: { id: string; valid: ValidEvent }[], rules: IdentityRules): Promise<void> {
  const plan = emptyPlan();
  for (const e of events) planEvent(plan, e.valid, { rules, eventId: e.id });
  await writePlan(tx, compactPlan(plan));
}

/**
 * Writes a compact plan: nodes before the edges that MATCH them; facets, current-IO flags and the
 * coverage figures of output edges last.
 * The queries are issued without waiting for each other: the driver pipelines them over one
 * connection and the server runs them in order, so a plan costs one round trip, not twelve.
 */
export async function writePlan(tx: TxRunner, p: CompactPlan): Promise<void> {
  const pending: Promise<unknown>[] = [];
  const run = (query: Query, params: Record<string, unknown>, nonEmpty: boolean) => {
    if (nonEmpty) pending.push(tx.run(query, params));
  };
  const rows = (query: Query, list: unknown[]) => run(query, { rows: list }, list.length > 0);
  const noFacets = <T extends { facets: unknown }>(list: T[]) => list.map(({ facets: _facets, ...rest }) => rest);
  rows(Query.MergeJobs, noFacets(p.jobs));
  rows(Query.MergeDatasets, noFacets(p.datasets));
  rows(Query.MergeFields, p.fields);
  rows(Query.MergeRuns, noFacets(p.runs));
  rows(Query.MergeInputs, noFacets(p.inputs));
  rows(Query.MergeOutputs, noFacets(p.outputs));
  rows(Query.MergeColumnLineage, p.columnEdges);
  rows(Query.MergeDatasetDependencies, p.datasetDependencies);
  rows(Query.MergeSymlinks, p.symlinks);
  rows(Query.MergeParents, p.parents);
  const withFacets = <T extends { facets: unknown[] }>(list: T[]) => list.filter((r) => r.facets.length > 0);
  const facets = {
    jobs: withFacets(p.jobs).map((r) => ({ id: r.id, facets: r.facets })),
    datasets: withFacets(p.datasets).map((r) => ({ id: r.id, facets: r.facets })),
    runs: withFacets(p.runs).map((r) => ({ id: r.id, facets: r.facets })),
    inputs: withFacets(p.inputs).filter((r) => r.runId !== null),
    outputs: withFacets(p.outputs).filter((r) => r.runId !== null),
  };
  run(Query.MergeFacets, facets, Object.values(facets).some((l) => l.length > 0));
  const ioJobs = p.jobs.filter((j) => j.ioAt !== null).map((j) => j.id);
  run(Query.RefreshCurrentIo, { jobIds: ioJobs }, ioJobs.length > 0);
  // Coverage figures change where an output edge, a field, column lineage or a symlink was written.
  const coverageDatasets = [
    ...new Set([...p.outputs.map((o) => o.datasetId), ...p.fields.map((f) => f.datasetId), ...p.symlinks.flatMap((l) => [l.datasetId, l.aliasId])]),
  ];
  run(Query.RefreshOutputCoverage, { datasetIds: coverageDatasets }, coverageDatasets.length > 0);
  await Promise.all(pending);
  await refreshJobVersions(tx, p.runs.map((r) => r.id));
}
