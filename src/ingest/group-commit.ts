import { batchLength } from './batching';
import type { IngestItem, IngestOutcome } from './ingestor';

/**
 * Group commit: one write in flight at a time; what is submitted meanwhile waits and goes together
 * into the next write, as much of the queue as `take` allows (at least one). A lone submission is
 * never delayed: with nothing in flight it is written at once. Each caller's promise settles only
 * after the write holding its submission: with that write's answer for it, or its error.
 */
export class GroupCommit<T, R> {
  private queue: { value: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private flushing = false;
  private readonly stats = { batches: 0, events: 0, largestBatch: 0 };

  constructor(
    private readonly write: (values: T[]) => Promise<R[]>,
    /** How many of the queue's first values go into the next write (1 or more). */
    private readonly take: (queue: readonly T[]) => number,
  ) {}

  submit(value: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ value, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Writes, values in them, and the largest write, since start. */
  get counters(): Readonly<{ batches: number; events: number; largestBatch: number }> {
    return { ...this.stats };
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, Math.max(1, this.take(this.queue.map((q) => q.value))));
        this.stats.batches++;
        this.stats.events += batch.length;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
        try {
          const answers = await this.write(batch.map((b) => b.value));
          batch.forEach((b, i) => b.resolve(answers[i]!));
        } catch (err) {
          batch.forEach((b) => b.reject(err));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

/**
 * Group commit for concurrent single-event requests: at most `maxBatch` events and
 * `maxBatchBytes` of JSON text per write, one larger event alone (a group's spool append copies
 * its text twice, so it stays small whatever the event size). `write` is the ingestor's store (the
 * HTTP contract) or store-and-project: each caller's promise resolves only after the write holding
 * its event committed (durable ack). One writer at a time also keeps concurrent MERGEs on the same
 * nodes from deadlocking.
 */
export class GroupCommitter extends GroupCommit<IngestItem, IngestOutcome> {
  constructor(write: (items: IngestItem[]) => Promise<IngestOutcome[]>, maxBatch = 500, maxBatchBytes = 16 * 2 ** 20) {
    super(write, (queue) => batchLength(queue, maxBatch, maxBatchBytes, (item) => item.raw.length));
  }
}
