import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stuckPartitions } from '../../src/ingest/kafka-worker';

describe('stuck Kafka partitions (readiness)', () => {
  it('lists partitions failing longer than the limit, longest first', () => {
    const since = new Map([
      ['t/0', 1_000],
      ['t/1', 50_000],
      ['t/2', 9_000],
    ]);
    assert.deepEqual(stuckPartitions(since, 30_000, 60_000), [
      { partition: 't/0', forMs: 59_000 },
      { partition: 't/2', forMs: 51_000 },
    ]);
    assert.deepEqual(stuckPartitions(new Map(), 1, 60_000), []);
  });
});
