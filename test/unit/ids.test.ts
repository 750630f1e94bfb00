import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors';
import { EntityKind } from '../../src/lineage/types';
import { datasetId, fieldId, idPrefix, jobId, kindOf, parseId, parseIdOfKind, runId } from '../../src/ids';

describe('node ids', () => {
  it('escapes ":" and "%" inside components, so Kafka and JDBC namespaces parse back unambiguously', () => {
    const id = datasetId('kafka://broker-1:9092,broker-2:9092', 'orders:v2');
    assert.equal(id, 'dataset:kafka%3A//broker-1%3A9092,broker-2%3A9092:orders%3Av2');
    assert.deepEqual(parseId(id), {
      kind: EntityKind.DATASET,
      namespace: 'kafka://broker-1:9092,broker-2:9092',
      name: 'orders:v2',
    });
  });

  it('round-trips every kind, including literal percent signs', () => {
    const cases = [
      { kind: EntityKind.DATASET, namespace: 'postgres://db:5432', name: 'public.100%_orders' },
      { kind: EntityKind.JOB, namespace: 'airflow', name: 'dag:task' },
      { kind: EntityKind.FIELD, namespace: 's3://bucket', name: '/warehouse/t', field: 'address.city' },
    ] as const;
    for (const c of cases) {
      const id =
        c.kind === EntityKind.FIELD ? fieldId(c.namespace, c.name, c.field) : c.kind === EntityKind.JOB ? jobId(c.namespace, c.name) : datasetId(c.namespace, c.name);
      assert.deepEqual(parseId(id), c);
    }
    assert.equal(datasetId('a%3A', 'b'), 'dataset:a%253A:b');
    assert.deepEqual(parseId('dataset:a%253A:b'), { kind: EntityKind.DATASET, namespace: 'a%3A', name: 'b' });
  });

  it('lower-cases run UUIDs', () => {
    assert.equal(runId('41FB5137-F0FD-4EE5-BA5C-56F8571D1BD7'), 'run:41fb5137-f0fd-4ee5-ba5c-56f8571d1bd7');
    assert.deepEqual(parseId('run:41FB5137-F0FD-4EE5-BA5C-56F8571D1BD7'), {
      kind: EntityKind.RUN,
      runId: '41fb5137-f0fd-4ee5-ba5c-56f8571d1bd7',
    });
  });

  it('rejects malformed ids with BAD_INPUT and a hint', () => {
    const bad = [
      'dataset:kafka://b:9092:orders', // unescaped ':' gives too many components
      'dataset:onlyone',
      'dataset:ns:', // an empty name
      'job::name', // a job's namespace is never empty (only a dataset's may be)
      'table:a:b',
      'run:not-a-uuid',
      'dataset:a%2Fb:c', // unknown escape
      '',
    ];
    for (const id of bad) {
      assert.throws(
        () => parseId(id),
        (e: unknown) => e instanceof AppError && e.code === ErrorCode.BAD_INPUT && e.message.includes('malformed node id'),
        id,
      );
    }
  });

  it("parses a dataset (and its fields) with an empty namespace, as openlineage-flink names catalog tables", () => {
    assert.deepEqual(parseId('dataset::lake.shop.orders_by_country'), { kind: EntityKind.DATASET, namespace: '', name: 'lake.shop.orders_by_country' });
    assert.deepEqual(parseId('datasetField::lake.t:revenue'), { kind: EntityKind.FIELD, namespace: '', name: 'lake.t', field: 'revenue' });
    assert.equal(datasetId('', 'lake.t'), 'dataset::lake.t');
  });

  it('checks the kind where one is expected', () => {
    assert.equal(parseIdOfKind('job:ns:n', EntityKind.JOB, EntityKind.DATASET).kind, EntityKind.JOB);
    assert.throws(() => parseIdOfKind('job:ns:n', EntityKind.DATASET), /is a job id; expected dataset/);
  });

  it('tells the kind of an id by its prefix, and builds namespace prefixes that select exactly that namespace', () => {
    assert.equal(kindOf(datasetId('kafka://b:9092', 't')), EntityKind.DATASET);
    assert.equal(kindOf(fieldId('ns', 't', 'f')), EntityKind.FIELD);
    assert.equal(kindOf('run:41fb5137-f0fd-4ee5-ba5c-56f8571d1bd7'), EntityKind.RUN);
    assert.equal(kindOf(jobId('ns', 'j')), EntityKind.JOB);
    assert.equal(kindOf('table:a:b'), null);
    assert.equal(kindOf('dataset'), null);
    const prefix = idPrefix(EntityKind.DATASET, 'kafka://b:9092');
    assert.equal(prefix, 'dataset:kafka%3A//b%3A9092');
    assert.ok(datasetId('kafka://b:9092', 'orders').startsWith(prefix));
    assert.ok(!datasetId('kafka://c:9092', 'orders').startsWith(prefix));
    assert.ok(jobId('kafka://b:9092', 'j').startsWith(idPrefix(EntityKind.JOB, 'kafka://b')));
  });
});
