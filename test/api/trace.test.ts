import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { uniquePrefix } from '../support/isolate';

/**
 * A bad value in a Spark summary column, traced back across four engines:
 *   postgres shop.public.orders --(Kafka Connect source, column lineage)--> kafka topic orders
 *   --(Flink job, NO column lineage)--> Iceberg table (written as a warehouse path, symlinked to the
 *   catalog name) --(Spark, column lineage: total = sum(amount_usd))--> summary table
 */
let svc: TestService;
let p: string;
const ns = () => ({
  pg: `${p}postgres://db:5432`,
  kafka: `${p}kafka://broker:9092`,
  s3: `${p}s3://warehouse`,
  iceberg: `${p}iceberg://catalog`,
});
const event = (job: string, inputs: { namespace: string; name: string }[], outputs: unknown[], t: string) => ({
  eventType: 'COMPLETE',
  eventTime: t,
  producer: 'test',
  run: { runId: crypto.randomUUID() },
  job: { namespace: `${p}pipelines`, name: job },
  inputs,
  outputs,
});
const cll = (fields: Record<string, [string, string, string][]>, transformations: unknown[]) => ({
  columnLineage: {
    fields: Object.fromEntries(
      Object.entries(fields).map(([out, sources]) => [
        out,
        { inputFields: sources.map(([namespace, name, field]) => ({ namespace, name, field, transformations })) },
      ]),
    ),
  },
});

before(async () => {
  svc = await startService();
  p = uniquePrefix('trace');
  const n = ns();
  const events = [
    event('orders-source-connector', [{ namespace: n.pg, name: 'shop.public.orders' }], [
      { namespace: n.kafka, name: 'orders', facets: cll({ amount: [[n.pg, 'shop.public.orders', 'amount']], id: [[n.pg, 'shop.public.orders', 'id']] }, [{ type: 'DIRECT', subtype: 'IDENTITY' }]) },
    ], '2024-07-01T00:00:00Z'),
    event('flink-enrich-orders', [{ namespace: n.kafka, name: 'orders' }], [
      { namespace: n.s3, name: '/db/orders_enriched', facets: { symlinks: { identifiers: [{ namespace: n.iceberg, name: 'db.orders_enriched', type: 'TABLE' }] } } },
    ], '2024-07-01T00:05:00Z'),
    event('spark-daily-summary', [{ namespace: n.iceberg, name: 'db.orders_enriched' }], [
      { namespace: n.iceberg, name: 'db.daily_summary', facets: cll({ total: [[n.iceberg, 'db.orders_enriched', 'amount_usd']] }, [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum' }]) },
    ], '2024-07-01T01:00:00Z'),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

const TRACE = `query($id: ID!, $direction: LineageDirection) {
  trace(nodeId: $id, direction: $direction) {
    truncated
    start { id kind }
    hops { distance fromId toId granularity precisionLost subtypes job { name } }
    firstPrecisionLoss { distance fromId toId job { name } }
    nodes { id kind distance }
  }
}`;

describe('trace', () => {
  it('follows a bad summary value back to the source connector, saying where column precision was lost', async () => {
    const n = ns();
    const res = await svc.graphql(TRACE, { id: fieldId(n.iceberg, 'db.daily_summary', 'total') });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const t = res.data.trace;
    assert.equal(t.truncated, false);
    assert.deepEqual(t.hops, [
      {
        distance: 1,
        fromId: fieldId(n.iceberg, 'db.orders_enriched', 'amount_usd'),
        toId: fieldId(n.iceberg, 'db.daily_summary', 'total'),
        granularity: 'FIELD',
        precisionLost: false,
        subtypes: ['AGGREGATION'],
        job: { name: 'spark-daily-summary' },
      },
      {
        distance: 2,
        fromId: datasetId(n.kafka, 'orders'),
        toId: fieldId(n.iceberg, 'db.orders_enriched', 'amount_usd'),
        granularity: 'DATASET',
        precisionLost: true,
        subtypes: null,
        job: { name: 'flink-enrich-orders' },
      },
      {
        distance: 3,
        fromId: datasetId(n.pg, 'shop.public.orders'),
        toId: datasetId(n.kafka, 'orders'),
        granularity: 'DATASET',
        precisionLost: false,
        subtypes: null,
        job: { name: 'orders-source-connector' },
      },
    ]);
    assert.deepEqual(t.firstPrecisionLoss, {
      distance: 2,
      fromId: datasetId(n.kafka, 'orders'),
      toId: fieldId(n.iceberg, 'db.orders_enriched', 'amount_usd'),
      job: { name: 'flink-enrich-orders' },
    });
    assert.deepEqual(t.nodes.map((x: { kind: string; distance: number }) => [x.kind, x.distance]), [
      ['FIELD', 0],
      ['FIELD', 1],
      ['DATASET', 2],
      ['DATASET', 3],
    ]);
  });

  it('stays at column level where every hop has column lineage', async () => {
    const n = ns();
    const res = await svc.graphql(TRACE, { id: fieldId(n.kafka, 'orders', 'amount') });
    const t = res.data.trace;
    assert.equal(t.firstPrecisionLoss, null);
    assert.deepEqual(t.hops.map((h: { fromId: string; granularity: string }) => [h.fromId, h.granularity]), [
      [fieldId(n.pg, 'shop.public.orders', 'amount'), 'FIELD'],
    ]);
  });

  it('goes downstream too: from the source column to the summary', async () => {
    const n = ns();
    const res = await svc.graphql(TRACE, { id: fieldId(n.pg, 'shop.public.orders', 'amount'), direction: 'DOWNSTREAM' });
    const t = res.data.trace;
    assert.deepEqual(
      t.hops.map((h: any) => [h.distance, h.granularity, h.precisionLost, h.job.name]),
      [
        [1, 'FIELD', false, 'orders-source-connector'],
        [2, 'DATASET', true, 'flink-enrich-orders'],
        [3, 'DATASET', false, 'spark-daily-summary'],
      ],
    );
    assert.equal(t.hops[2].toId, datasetId(n.iceberg, 'db.daily_summary'));
  });

  it('answers NOT_FOUND for an unknown field and BAD_INPUT for a job id', async () => {
    const missing = await svc.graphql(TRACE, { id: fieldId('nowhere', 't', 'c') });
    assert.equal(missing.errors![0].extensions.code, 'NOT_FOUND');
    const wrongKind = await svc.graphql(TRACE, { id: jobId('ns', 'j') });
    assert.equal(wrongKind.errors![0].extensions.code, 'BAD_INPUT');
  });

  it('follows one direction: BOTH is BAD_INPUT naming the two it takes', async () => {
    const both = await svc.graphql(TRACE, { id: fieldId('nowhere', 't', 'c'), direction: 'BOTH' });
    assert.equal(both.errors![0].extensions.code, 'BAD_INPUT');
    assert.match(both.errors![0].message, /UPSTREAM or DOWNSTREAM/);
  });
});
