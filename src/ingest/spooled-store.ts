import { IMMEDIATE, type Turns } from '../cpu-turns';
import type { Logger } from '../log';
import { acceptItemsInTurns, settle, type IngestItem, type IngestOutcome } from './ingestor';
import type { Projector } from './projector';
import type { Spool, SpoolPosition } from './spool';

/**
 * The HTTP ingestion path: validate, append to the spool (durable once this resolves), hand the
 * events to the projector. Outcomes in input order; each accepted one carries `pending`, the spool
 * position a client waits for to read its write.
 * `duplicate` is exact for repeats this process saw recently (the last 50,000 distinct events): those
 * are acknowledged without being appended again. An older repeat is appended and found to be one
 * by its projection (a client that waits learns it then); the graph is the same either way.
 */
export class SpooledStore {
  /** Recently appended ids → their end in the spool (a repeat waits for the original's projection). */
  private readonly recent = new Map<string, SpoolPosition>();

  constructor(
    private readonly spool: Spool,
    private readonly projector: Projector,
    private readonly log?: Logger,
    private readonly recentCap = 50_000,
    /** Where validation runs (src/cpu-turns.ts): the service's turns, behind reads. */
    private readonly turns: Turns = IMMEDIATE,
  ) {}

  async store(items: IngestItem[]): Promise<IngestOutcome[]> {
    const batch = await acceptItemsInTurns(items, this.turns, this.log);
    const fresh = [...batch.accepted.values()].filter((e) => !this.recent.has(e.row.id));
    const results = new Map<string, 'created' | 'duplicate'>([...batch.accepted.keys()].map((id) => [id, 'duplicate']));
    const positions = new Map<string, SpoolPosition>();
    for (const id of batch.accepted.keys()) {
      const seen = this.recent.get(id);
      if (seen) positions.set(id, seen);
    }
    if (fresh.length > 0) {
      const receivedAt = new Date().toISOString();
      const ranges = await this.spool.append(fresh.map((e) => ({ receivedAt, raw: e.row.raw, id: e.row.id })));
      const events = fresh.map((e, i) => ({ row: { ...e.row, receivedAt }, valid: e.valid, ...ranges[i]! }));
      this.projector.offer(events);
      for (const e of events) {
        results.set(e.row.id, 'created');
        positions.set(e.row.id, e.end);
        this.remember(e.row.id, e.end);
      }
    }
    return settle(batch, results).map((o) => (o.ok && positions.has(o.eventId) ? { ...o, pending: positions.get(o.eventId)! } : o));
  }

  private remember(id: string, end: SpoolPosition): void {
    if (this.recent.size >= this.recentCap) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(id, end);
  }
}
