import type { IngestItem, IngestOutcome } from './ingestor';
import type { Projector } from './projector';
import { comparePositions, type SpoolPosition } from './spool';
import type { SpooledStore } from './spooled-store';

/**
 * Where the HTTP transport acknowledges events (TRIBUTARY_INGEST_LOG): this node's spool (the
 * single-node default, spooled-store.ts) or the Kafka events topic (kafka-log.ts). Either way an
 * acknowledged event is durable before the answer, and the projection into the graph follows.
 */
export interface EventLog {
  readonly kind: 'spool' | 'kafka';
  /** Validates and appends; durable once resolved. Outcomes in input order; an accepted one carries where it is (`pending`). */
  store(items: IngestItem[]): Promise<IngestOutcome[]>;
  /**
   * Whether the graph holds every accepted event of `outcomes`: at once, or (`wait`) once it does,
   * false after `timeoutMs` (stored all the same).
   */
  projected(outcomes: IngestOutcome[], wait: boolean, timeoutMs: number): Promise<boolean>;
  /** For events `projected` said are past: why each one that is not in the graph could not be projected. */
  projectionErrors(ids: string[]): Promise<Map<string, string>>;
  /** Whether the projection of this recently stored event found it stored before (exact only after waiting). */
  wasStoredBefore(id: string): boolean;
}

/** A position in the Kafka events topic (the API's answer says it; waits compare the graph's offsets with it). */
export interface LogPosition {
  topic: string;
  partition: number;
  offset: number;
}

export type EventPosition = SpoolPosition | LogPosition;

export const isLogPosition = (p: EventPosition): p is LogPosition => 'partition' in p;

/** The spool, projected by this process's projector. */
export class SpoolEventLog implements EventLog {
  readonly kind = 'spool' as const;

  constructor(
    private readonly spooled: SpooledStore,
    private readonly projector: Projector,
  ) {}

  store(items: IngestItem[]): Promise<IngestOutcome[]> {
    return this.spooled.store(items);
  }

  async projected(outcomes: IngestOutcome[], wait: boolean, timeoutMs: number): Promise<boolean> {
    const pending = outcomes.flatMap((o) => (o.ok && o.pending && !isLogPosition(o.pending) ? [o.pending] : []));
    if (pending.length === 0) return true;
    if (!wait) return false;
    return this.projector.waitFor(pending.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)), timeoutMs);
  }

  async projectionErrors(ids: string[]): Promise<Map<string, string>> {
    return new Map(ids.flatMap((id) => {
      const error = this.projector.projectionError(id);
      return error === null ? [] : [[id, error] as const];
    }));
  }

  wasStoredBefore(id: string): boolean {
    return this.projector.wasStoredBefore(id);
  }
}
