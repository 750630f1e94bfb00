import { GroupCommit } from './group-commit';
import type { IngestItem, IngestOutcome, LogCheckpoint, PreparedChunk } from './ingestor';

export interface Chunk {
  items: IngestItem[];
  checkpoint?: LogCheckpoint;
  /** `items` validated and planned ahead (Ingestor.prepareChunk). */
  prepared?: PreparedChunk;
}

/**
 * Group commit for the Kafka worker's chunks: while one transaction is in flight, the chunks other
 * partitions hand over wait and go together into the next one (at most `maxEvents` items and
 * `maxBytes` of their text, one larger chunk alone), each with its partition's checkpoint. A
 * projection transaction has a fixed cost (its statements, the derived figures, the commit) that
 * dominates at low rates: one chunk per partition and transaction made four partitions at a
 * quarter of one projector's rate keep the writer busy nearly all the time (bench --scale-out,
 * replica lag). A lone chunk is never delayed. Each caller's promise settles with its own chunk's
 * outcomes once the transaction committed, or with the transaction's error (each caller retries
 * its own chunk).
 */
export class ChunkCoalescer extends GroupCommit<Chunk, IngestOutcome[]> {
  constructor(write: (chunks: Chunk[]) => Promise<IngestOutcome[][]>, maxEvents: number, maxBytes: number) {
    super(write, (queue) => {
      let n = 0;
      let events = 0;
      let bytes = 0;
      for (const chunk of queue) {
        const size = bytesOf(chunk);
        if (n > 0 && (events + chunk.items.length > maxEvents || bytes + size > maxBytes)) break;
        events += chunk.items.length;
        bytes += size;
        n++;
      }
      return n;
    });
  }
}

const bytesOf = (c: Chunk) => c.items.reduce((n, i) => n + i.raw.length, 0);
