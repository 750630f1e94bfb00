import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChunkCoalescer, type Chunk } from '../../src/ingest/chunk-coalescer';
import type { IngestOutcome } from '../../src/ingest/ingestor';

const chunk = (partition: number, n: number, size = 10): Chunk => ({
  items: Array.from({ length: n }, (_, i) => ({ raw: 'x'.repeat(size), value: { partition, i } })),
  checkpoint: { topic: 't', partition, next: n },
});
/** A write that records the chunks of each call and answers each item with its partition and index. */
function recorder(gate?: Promise<void>) {
  const calls: number[][] = [];
  const write = async (chunks: Chunk[]): Promise<IngestOutcome[][]> => {
    calls.push(chunks.map((c) => c.checkpoint!.partition));
    if (calls.length === 1 && gate) await gate;
    return chunks.map((c) => c.items.map((it) => ({ ok: true, eventId: JSON.stringify(it.value), kind: 'RunEvent', duplicate: false })));
  };
  return { calls, write };
}

describe('the Kafka worker’s chunk coalescer', () => {
  it('commits a lone chunk at once, and the chunks that arrive meanwhile together in the next transaction', async () => {
    let open!: () => void;
    const { calls, write } = recorder(new Promise((r) => (open = r)));
    const c = new ChunkCoalescer(write, 100, 1e6);
    const first = c.submit(chunk(0, 3));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(calls, [[0]], 'the first chunk did not wait for company');
    const rest = [1, 2, 3].map((p) => c.submit(chunk(p, 2)));
    open();
    const outcomes = await Promise.all([first, ...rest]);
    assert.deepEqual(calls, [[0], [1, 2, 3]]);
    // Each caller gets its own chunk's outcomes, in its order.
    assert.deepEqual(outcomes.map((o) => o.map((x) => (x.ok ? JSON.parse(x.eventId).partition : -1))), [[0, 0, 0], [1, 1], [2, 2], [3, 3]]);
  });

  it('keeps a transaction within the event and byte bounds, one larger chunk alone', async () => {
    let open!: () => void;
    const { calls, write } = recorder(new Promise((r) => (open = r)));
    const c = new ChunkCoalescer(write, 10, 100);
    const all = [c.submit(chunk(0, 1)), c.submit(chunk(1, 6)), c.submit(chunk(2, 6)), c.submit(chunk(3, 20)), c.submit(chunk(4, 2, 40)), c.submit(chunk(5, 2, 40))];
    open();
    await Promise.all(all);
    // 1 | 6 (6 + 6 > 10 events) | 6 | 20 events alone | 80 bytes (80 + 80 > 100 bytes) | 80 bytes
    assert.deepEqual(calls, [[0], [1], [2], [3], [4], [5]]);
    let again!: () => void;
    const second = recorder(new Promise((r) => (again = r)));
    const merged = new ChunkCoalescer(second.write, 10, 100);
    const small = [merged.submit(chunk(0, 1)), merged.submit(chunk(1, 4)), merged.submit(chunk(2, 4)), merged.submit(chunk(3, 4))];
    again();
    await Promise.all(small);
    assert.deepEqual(second.calls, [[0], [1, 2], [3]], '4 + 4 events fit in 10, a third 4 does not');
  });

  it('fails every chunk of a failed transaction (each caller retries its own), and goes on with the next', async () => {
    let n = 0;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const c = new ChunkCoalescer(async (chunks) => {
      n++;
      if (n === 1) await gate;
      if (n === 2) throw new Error('Neo4j went away');
      return chunks.map((ch) => ch.items.map(() => ({ ok: true, eventId: 'e', kind: 'RunEvent', duplicate: false }) as IngestOutcome));
    }, 100, 1e6);
    const first = c.submit(chunk(0, 1));
    await new Promise((r) => setImmediate(r));
    const failing = [c.submit(chunk(1, 1)), c.submit(chunk(2, 1))];
    open();
    await first;
    for (const f of failing) await assert.rejects(f, /Neo4j went away/);
    assert.equal((await c.submit(chunk(3, 1))).length, 1);
  });
});
