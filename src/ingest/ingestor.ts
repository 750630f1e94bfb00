import { randomUUID } from 'node:crypto';
import { AppError, badInput, ErrorCode } from '../errors';
import { logOffsetId } from '../ids';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { Contended, DeadlineExceeded, type Executor, type TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { compactPlan, type CompactPlan } from './compact';
import { NO_RULES, type IdentityRules } from './naming';
import { planEvent } from './plan';
import { DatabaseProbe } from './probe';
import { emptyPlan } from './plan-rows';
import { storedEventRow, type StoredEventRow } from './stored-event';
import type { EventPosition } from './event-log';
import { validateEvent, type ValidEvent } from './validate';
import { ProjectionWriter } from './writer';
import { refreshJobVersions } from './versions';
import { RETIRED_FACET } from './derive';
import { METADATA_COLUMNS } from '../lineage/metadata-columns';

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
   * Several chunks (the Kafka worker's, of different partitions) in one transaction: each chunk's
   * outcomes in its input order, every checkpoint recorded as `ingest` records one. An event in two
   * chunks is stored once (both chunks see it stored).
   */
  async ingestChunks(chunks: { items: IngestItem[]; checkpoint?: LogCheckpoint }[]): Promise<IngestOutcome[][]> {
    const batches = chunks.map((c) => acceptItems(c.items, this.log));
    const checkpoints = chunks.flatMap((c) => (c.checkpoint ? [c.checkpoint] : []));
    const accepted = new Map(batches.flatMap((b) => [...b.accepted]));
    if (accepted.size === 0) {
      if (checkpoints.length > 0) await recordCheckpoints(this.executor, checkpoints);
      return batches.map((b) => b.outcomes);
    }
    const results = await this.commit([...accepted.values()], checkpoints);
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
  private async commit(events: Accepted[], checkpoints: LogCheckpoint[] = []): Promise<Map<string, 'created' | 'duplicate' | AppError>> {
    try {
      const created = await writeBatch({ executor: this.executor, writer: this.writer, metrics: this.metrics }, 'ingest', prepareBatch(events, this.rules), checkpoints);
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

/** Events to store and the compact plan of their projection, computed before the transaction (CPU work that overlaps the one in flight). */
export interface PreparedBatch {
  events: Accepted[];
  plan: CompactPlan;
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
  const plan = emptyPlan();
  for (const e of events) planEvent(plan, e.valid, { rules, eventId: e.row.id });
  return { events, plan: compactPlan(plan) };
}

/**
 * Stores the events and writes the projection of all of them; returns the ids it created (the
 * others were stored before). An event stored before is projected again: the projection is
 * idempotent, so this costs work and changes nothing, and it lets the store and the projection go
 * out in one pipelined round trip instead of waiting for the store's answer.
 */
export async function storeAndProject(tx: TxRunner, prepared: PreparedBatch): Promise<Set<string>> {
  const projectedAt = new Date().toISOString();
  const stored = tx.run<{ id: string; created: boolean }>(Query.StoreEvents, {
    events: prepared.events.map((e) => ({ ...e.row, projectedAt })),
    token: randomUUID(),
    receivedAt: new Date().toISOString(),
  });
  const written = writePlan(tx, prepared.plan);
  const [rows] = await Promise.all([stored, written]);
  return new Set(rows.filter((r) => r.created).map((r) => r.id));
}

/** Plans validated events (each under its stored id) as one compact plan and writes it: every projection goes through here. */
export async function projectEvents(tx: TxRunner, events: { id: string; valid: ValidEvent }[], rules: IdentityRules): Promise<void> {
  const plan = emptyPlan();
  for (const e of events) planEvent(plan, e.valid, { rules, eventId: e.id });
  await writePlan(tx, compactPlan(plan));
}

/**
 * Writes a compact plan: first the locks of what its derived values read and write
 * (lock-projection.cypher: concurrent projectors serialise there), nodes before the edges that MATCH
 * them; facets, current-IO flags and the coverage figures of output edges last.
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
  // Every dataset an edge, field or symlink of the plan names is one of its datasets (plan.ts datasetRef).
  const lock = { jobIds: p.jobs.map((j) => j.id), datasetIds: p.datasets.map((d) => d.id), runIds: p.runs.map((r) => r.id) };
  run(Query.LockProjection, lock, lock.jobIds.length + lock.datasetIds.length + lock.runIds.length > 0);
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
  // A job's current IO changes with its IO reports, and with its retirement (derive.ts RETIRED_FACET).
  const ioJobs = [...new Set(p.jobs.filter((j) => j.ioAt !== null || j.facets.some((f) => f.key === RETIRED_FACET)).map((j) => j.id))];
  run(Query.RefreshCurrentIo, { jobIds: ioJobs }, ioJobs.length > 0);
  // Coverage figures (refresh-output-coverage.cypher, maintained incrementally): counts change with
  // column lineage or dataset-level dependencies into a dataset, a symlink, a storage facet (which
  // says which fields are metadata columns), or a field created (merge-fields flags its dataset);
  // decisions with the batch's runs and output edges.
  const fieldDatasets = new Map(p.fields.map((f) => [f.id, f.datasetId]));
  const countDatasetIds = [
    ...new Set([
      ...p.columnEdges.flatMap((c) => fieldDatasets.get(c.toId) ?? []),
      ...p.datasetDependencies.map((c) => c.toId),
      ...p.symlinks.flatMap((l) => [l.datasetId, l.aliasId]),
      ...p.datasets.filter((d) => d.facets.some((f) => f.key === 'storage')).map((d) => d.id),
    ]),
  ];
  const fieldDatasetIds = [...new Set(fieldDatasets.values())];
  const edges = [...new Map(p.outputs.map((o) => [`${o.jobId}\n${o.datasetId}`, { jobId: o.jobId, datasetId: o.datasetId }])).values()];
  const runIds = p.runs.map((r) => r.id);
  run(
    Query.RefreshOutputCoverage,
    { countDatasetIds, fieldDatasetIds, edges, runIds, metadata: METADATA_COLUMNS },
    countDatasetIds.length + fieldDatasetIds.length + edges.length + runIds.length > 0,
  );
  await Promise.all(pending);
  await refreshJobVersions(tx, runIds);
  // Last: a namespace's lock is then held only while this transaction commits (merge-namespaces.cypher).
  const namespaces = namespaceRows(p);
  if (namespaces.length > 0) await tx.run(Query.MergeNamespaces, { rows: namespaces });
}

/**
 * The namespaces a plan names (its jobs', datasets', parent and root jobs'), each with the earliest
 * and latest time of the plan's rows in it, sorted by name (the order concurrent projectors lock them in).
 */
export function namespaceRows(p: CompactPlan): { name: string; firstSeen: string; lastSeen: string }[] {
  const seen = new Map<string, { name: string; firstSeen: string; lastSeen: string }>();
  const add = (name: string | null | undefined, firstSeen: string, lastSeen: string) => {
    if (name === null || name === undefined) return;
    const s = seen.get(name);
    if (!s) seen.set(name, { name, firstSeen, lastSeen });
    else {
      if (firstSeen < s.firstSeen) s.firstSeen = firstSeen;
      if (lastSeen > s.lastSeen) s.lastSeen = lastSeen;
    }
  };
  for (const r of [...p.jobs, ...p.datasets]) add(r.namespace, r.firstSeen, r.lastSeen);
  for (const r of p.parents) {
    add(r.parentJobNamespace, r.firstSeen, r.lastSeen);
    add(r.rootJobNamespace, r.firstSeen, r.lastSeen);
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
