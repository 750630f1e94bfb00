import { batchLength } from './batching';
import type { IngestItem, IngestOutcome } from './ingestor';

/**
 * Group commit for concurrent single-event requests. One transaction is in flight at a time;
 * the events that arrive meanwhile wait and go together into the next one (at most `maxBatch`
 * events and `maxBatchBytes` of JSON text, one larger event alone: a group's spool append copies
 * its text twice, so it stays small whatever the event size).
 * A lone request is never delayed: with nothing in flight it commits at once. Each caller's
 * promise resolves only after the write holding its event committed (durable ack): `write` is
 * the ingestor's store (the HTTP contract) or store-and-project.
 * One writer at a time also keeps concurrent MERGEs on the same nodes from deadlocking.
 */
export class GroupCommitter {
  private queue: { item: IngestItem; resolve: (o: IngestOutcome) => void; reject: (e: unknown) => void }[] = [];
  private flushing = false;
  private readonly stats = { batches: 0, events: 0, largestBatch: 0 };

  constructor(
    private readonly write: (items: IngestItem[]) => Promise<IngestOutcome[]>,
    private readonly maxBatch = 500,
    private readonly maxBatchBytes = 16 * 2 ** 20,
  ) {}

  submit(item: IngestItem): Promise<IngestOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Batches committed, events in them, and the largest batch, since start. */
  get counters(): Readonly<{ batches: number; events: number; largestBatch: number }> {
    return { ...this.stats };
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, batchLength(this.queue, this.maxBatch, this.maxBatchBytes, (q) => q.item.raw.length));
        this.stats.batches++;
        this.stats.events += batch.length;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
        try {
          const outcomes = await this.write(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(outcomes[i]!));
        } catch (err) {
          batch.forEach((b) => b.reject(err));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
