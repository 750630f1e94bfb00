import { IMMEDIATE, type Turns } from '../cpu-turns';
import { packEventText } from '../graph/event-text';
import { compactPlan } from './compact';
import type { PreparedBatch } from './ingestor';
import type { IdentityRules } from './naming';
import { planEvent } from './plan';
import { emptyPlan } from './plan-rows';
import { comparePositions, type ReadRecord, type SpoolPosition } from './spool';
import { decodeRecords, type SpooledEvent } from './spooled-event';

/**
 * Events decoded or planned per task of the turns (src/cpu-turns.ts) while a transaction runs: the
 * transaction's answers, acknowledgements and reads are handled between tasks.
 */
const SLICE = 5;

/** The events of a batch that a transaction writes: the valid ones, each id once (the last of its copies). */
export function writable(batch: SpooledEvent[]): SpooledEvent[] {
  return [...new Map(batch.filter((e) => e.error === undefined).map((e) => [e.row.id, e])).values()];
}

/**
 * The projector's next batch, prepared while the current one's transaction runs in Neo4j: read back
 * from the spool and decoded (parse, validate, id), planned (plan.ts, compact.ts) and its texts
 * packed as Event nodes keep them (graph/event-text.ts). Without it
 * that CPU work runs between two transactions, with Neo4j idle. Each part is kept for exactly the
 * input it was made from and handed out once: a read for the same spool position (the log only
 * grows, so the records there are the same), a plan for the same events (by identity, in order);
 * anything else is dropped and done again by the caller. Holds at most one batch.
 */
export class Lookahead {
  private read: { from: SpoolPosition; events: SpooledEvent[] } | null = null;
  private planned: { events: SpooledEvent[]; prepared: PreparedBatch } | null = null;
  /** Batches read back from the spool and how many had been read ahead; plans made ahead and how many were used. */
  readonly counts = { readBacks: 0, readAhead: 0, plannedAhead: 0, planUsed: 0 };

  constructor(
    private readonly rules: IdentityRules,
    private readonly turns: Turns = IMMEDIATE,
  ) {}

  /** Decodes `records` (the spool's at `from`), then plans the batch they make; stops early once `running()` is false. */
  async readAndPlan(from: SpoolPosition, records: ReadRecord[], running: () => boolean): Promise<void> {
    const events: SpooledEvent[] = [];
    for (let i = 0; i < records.length; i += SLICE) {
      events.push(...(await this.turns.run(() => decodeRecords(records.slice(i, i + SLICE)), true)));
      if (!running()) return;
    }
    this.read = { from, events };
    await this.plan(events, running);
  }

  /**
   * Plans the batch `batch` will make (its writable events); stops early once `running()` is false.
   * An event that planning throws on leaves no plan: the projector then plans the batch in its
   * transaction's turn, where a failing event is split off and labelled alone (projector.ts project).
   */
  async plan(batch: SpooledEvent[], running: () => boolean): Promise<void> {
    const events = writable(batch);
    if (events.length === 0) return;
    const plan = emptyPlan();
    const packed: Int8Array[] = [];
    try {
      for (let i = 0; i < events.length; i += SLICE) {
        await this.turns.run(() => {
          for (const e of events.slice(i, i + SLICE)) {
            planEvent(plan, e.valid, { rules: this.rules, eventId: e.row.id });
            packed.push(packEventText(e.row.raw));
          }
        }, true);
        if (!running()) return;
      }
      this.planned = { events, prepared: { events, plan: compactPlan(plan), packed } };
      this.counts.plannedAhead++;
    } catch {
      this.planned = null;
    }
  }

  /** The batch read ahead at `from`, once; null when none was (the caller reads it). */
  takeRead(from: SpoolPosition, normalise: (p: SpoolPosition) => SpoolPosition): SpooledEvent[] | null {
    const ahead = this.read;
    this.read = null;
    this.counts.readBacks++;
    if (ahead === null || ahead.events.length === 0 || comparePositions(normalise(ahead.from), normalise(from)) !== 0) return null;
    this.counts.readAhead++;
    return ahead.events;
  }

  /** The plan of exactly `events` (writable's output), once; null when none was made (the caller plans). */
  takePlan(events: SpooledEvent[]): PreparedBatch | null {
    const ahead = this.planned;
    this.planned = null;
    if (ahead === null || ahead.events.length !== events.length || ahead.events.some((e, i) => e !== events[i])) return null;
    this.counts.planUsed++;
    return ahead.prepared;
  }
}
