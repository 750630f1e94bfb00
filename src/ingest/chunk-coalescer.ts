import type { IngestItem, IngestOutcome, LogCheckpoint } from './ingestor';

export interface Chunk {
  items: IngestItem[];
  checkpoint?: LogCheckpoint;
}

/**
 * Group commit for the Kafka worker's chunks: while one transaction is in flight, the chunks other
 * partitions hand over wait and go together into the next one (at most `maxEvents` items and
 * `maxBytes` of their text, one larger chunk alone), each with its partition's checkpoint. A projection transaction has a fixed
 * cost (its statements, the derived figures, the commit) that dominates at low rates: one chunk
 * per partition and transaction made four partitions at a quarter of one projector's rate keep the
 * writer busy nearly all the time (bench --scale-out, replica lag). A lone chunk is never delayed.
 * Each caller's promise settles with its own chunk's outcomes once the transaction committed, or
 * with the transaction's error (each caller retries its own chunk, as before).
 */
export class ChunkCoalescer {
  private queue: { chunk: Chunk; resolve: (o: IngestOutcome[]) => void; reject: (e: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly write: (chunks: Chunk[]) => Promise<IngestOutcome[][]>,
    private readonly maxEvents: number,
    private readonly maxBytes: number,
  ) {}

  submit(chunk: Chunk): Promise<IngestOutcome[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ chunk, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        let n = 1;
        let events = this.queue[0]!.chunk.items.length;
        let bytes = bytesOf(this.queue[0]!.chunk);
        for (; n < this.queue.length; n++) {
          const next = this.queue[n]!.chunk;
          if (events + next.items.length > this.maxEvents || bytes + bytesOf(next) > this.maxBytes) break;
          events += next.items.length;
          bytes += bytesOf(next);
        }
        const batch = this.queue.splice(0, n);
        try {
          const outcomes = await this.write(batch.map((b) => b.chunk));
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

const bytesOf = (c: Chunk) => c.items.reduce((n, i) => n + i.raw.length, 0);
