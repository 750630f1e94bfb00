import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneEntryPerDataset } from '../../src/lineage/breaks-service';
import { BreakRole } from '../../src/lineage/types';

const row = (id: string, aliases: string[], jobs: string[] = [], engines: string[] = []) => ({ id, namespace: 'ns', name: id, role: BreakRole.SOURCE, jobs, engines, aliases });

describe('lineage-break entries', () => {
  it('lists a table read under its path, with its catalog name beside it, once', () => {
    const path = 'dataset:file:/wh/shop/orders_by_country';
    const catalog = 'dataset:file%3A/wh:shop.orders_by_country';
    const out = oneEntryPerDataset([row(catalog, [path]), row(path, [catalog], ['job:spark:summary'], ['spark'])]);
    assert.deepEqual(out, [{ ...row(path, [catalog], ['job:spark:summary'], ['spark']) }]);
  });

  it('merges the jobs and engines of every name, keeps datasets without symlinks apart, orders by id', () => {
    const out = oneEntryPerDataset([
      row('dataset:b', ['dataset:c'], ['job:x'], ['flink']),
      row('dataset:a', []),
      row('dataset:c', ['dataset:b'], ['job:y'], ['spark']),
    ]);
    assert.deepEqual(out.map((e) => [e.id, e.aliases, e.jobs, e.engines]), [
      ['dataset:a', [], [], []],
      ['dataset:b', ['dataset:c'], ['job:x', 'job:y'], ['flink', 'spark']],
    ]);
  });
});
