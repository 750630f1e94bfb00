import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchLength, memoryOf, MEMORY_FACTOR } from '../../src/ingest/batching';

/** Batches bounded in count and in bytes (src/ingest/batching.ts): the projector's, the group commit's, the Kafka worker's. */
describe('batching by count and bytes', () => {
  const w = (x: number) => x;
  it('takes events until either bound would be passed', () => {
    assert.equal(batchLength([1, 1, 1, 1], 3, 100, w), 3, 'count bound');
    assert.equal(batchLength([40, 40, 40, 40], 500, 100, w), 2, 'byte bound: 80 of 100, a third would make 120');
    assert.equal(batchLength([50, 50, 1], 500, 100, w), 2, 'exactly at the bound');
    assert.equal(batchLength([], 500, 100, w), 0);
  });

  it('an event larger than the byte bound is a batch of one, and ends the batch before it', () => {
    assert.equal(batchLength([500, 1, 1], 500, 100, w), 1);
    assert.equal(batchLength([1, 500, 1], 500, 100, w), 1);
  });

  it('1 MB events under the 16 MiB default: 16 per transaction, whatever the count bound', () => {
    const events = Array.from({ length: 500 }, () => ({ row: { raw: 'x'.repeat(2 ** 20 - 100) } }));
    const sizes: number[] = [];
    for (let i = 0; i < events.length; ) {
      const n = batchLength(events.slice(i), 500, 16 * 2 ** 20, (e) => e.row.raw.length);
      sizes.push(n);
      i += n;
    }
    assert.ok(sizes.every((n) => n === 16 || n === 500 % 16), JSON.stringify(sizes));
    assert.equal(sizes.reduce((a, b) => a + b, 0), 500);
  });

  it('estimates memory from the text', () => {
    assert.equal(memoryOf('abcd'), 4 * MEMORY_FACTOR);
  });
});
