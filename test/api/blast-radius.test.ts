import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Fan-out: one Kafka topic read by four pipelines; one sink feeds a report. Pipeline 1 reports
 * column lineage, the others do not; pipeline 4's last run failed.
 */
let svc: TestService;
let ns: string;
const owned = (team: string) => ({ ownership: { owners: [{ name: team, type: 'TEAM' }] } });

before(async () => {
  svc = await startService();
  ns = uniquePrefix('blast');
  const events = [
    runEvent(ns, { job: 'connector', outputs: ['orders'], datasetFacets: { orders: owned('team-ingest') } }),
    runEvent(ns, { job: 'p1', inputs: ['orders'], outputs: ['sink1'], columns: { sink1: { amount: ['orders.amount'] } }, datasetFacets: { sink1: owned('team-a') } }),
    runEvent(ns, { job: 'p2', inputs: ['orders'], outputs: ['sink2'], datasetFacets: { sink2: owned('team-a') } }),
    runEvent(ns, { job: 'p3', inputs: ['orders'], outputs: ['sink3'], datasetFacets: { sink3: owned('team-b') } }),
    runEvent(ns, { job: 'p4', inputs: ['orders'], outputs: ['sink4'], eventType: 'FAIL' }),
    runEvent(ns, { job: 'report', inputs: ['sink1'], outputs: ['report'], datasetFacets: { report: owned('team-bi') } }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

const Q = `query($id: ID!, $first: Int, $after: String, $kinds: [EntityKind!], $namespaces: [String!]) {
  blastRadius(nodeId: $id, first: $first, after: $after, kinds: $kinds, namespaces: $namespaces) {
    truncated
    totals { items datasets fields jobs byDistance { key count } byNamespace { key count } byOwner { key count } }
    items { id kind distance via owners lastRunState }
    pageInfo { endCursor hasNextPage }
  }
}`;

async function blast(vars: Record<string, unknown>) {
  const res = await svc.graphql(Q, vars);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.blastRadius;
}

describe('blastRadius', () => {
  it('from a topic: every consumer, what they write and beyond, with owners and last run states', async () => {
    const b = await blast({ id: datasetId(ns, 'orders'), first: 100 });
    assert.equal(b.truncated, false);
    assert.deepEqual(
      { items: b.totals.items, datasets: b.totals.datasets, jobs: b.totals.jobs, fields: b.totals.fields },
      { items: 10, datasets: 5, jobs: 5, fields: 0 },
    );
    assert.deepEqual(b.totals.byDistance, [
      { key: '1', count: 4 },
      { key: '2', count: 4 },
      { key: '3', count: 1 },
      { key: '4', count: 1 },
    ]);
    assert.deepEqual(b.totals.byOwner, [
      { key: '(no owner)', count: 6 },
      { key: 'team-a', count: 2 },
      { key: 'team-b', count: 1 },
      { key: 'team-bi', count: 1 },
    ]);
    const report = b.items.find((i: { id: string }) => i.id === datasetId(ns, 'report'));
    assert.deepEqual(report, { id: datasetId(ns, 'report'), kind: 'DATASET', distance: 4, via: [jobId(ns, 'p1'), jobId(ns, 'report')], owners: ['team-bi'], lastRunState: null });
    const p4 = b.items.find((i: { id: string }) => i.id === jobId(ns, 'p4'));
    assert.equal(p4.lastRunState, 'FAIL');
  });

  it('pages the items while the totals stay exact', async () => {
    const first = await blast({ id: datasetId(ns, 'orders'), first: 4 });
    assert.equal(first.items.length, 4);
    assert.equal(first.pageInfo.hasNextPage, true);
    assert.equal(first.totals.items, 10);
    const second = await blast({ id: datasetId(ns, 'orders'), first: 4, after: first.pageInfo.endCursor });
    const third = await blast({ id: datasetId(ns, 'orders'), first: 4, after: second.pageInfo.endCursor });
    assert.equal(third.pageInfo.hasNextPage, false);
    const ids = [...first.items, ...second.items, ...third.items].map((i: { id: string }) => i.id);
    assert.equal(new Set(ids).size, 10);
    assert.deepEqual(second.totals, first.totals);
  });

  it('filters by kind and namespace, with totals over the filtered items', async () => {
    const jobs = await blast({ id: datasetId(ns, 'orders'), kinds: ['JOB'] });
    assert.equal(jobs.totals.items, 5);
    assert.ok(jobs.items.every((i: { kind: string }) => i.kind === 'JOB'));
    const elsewhere = await blast({ id: datasetId(ns, 'orders'), namespaces: ['some-other-namespace'] });
    assert.equal(elsewhere.totals.items, 0);
  });

  it('from a field: column-level where pipelines report it, dataset-level elsewhere', async () => {
    const b = await blast({ id: fieldId(ns, 'orders', 'amount'), first: 100 });
    const kinds = Object.fromEntries(b.items.map((i: { id: string; kind: string }) => [i.id, i.kind]));
    assert.equal(kinds[fieldId(ns, 'sink1', 'amount')], 'FIELD');
    assert.equal(kinds[datasetId(ns, 'sink2')], 'DATASET');
    assert.equal(kinds[datasetId(ns, 'report')], 'DATASET');
    assert.equal(b.totals.fields, 1);
    assert.equal(b.totals.jobs, 5);
  });

  it('rejects a bad cursor and an empty page (BAD_INPUT) and a huge page (LIMIT_EXCEEDED, before it runs)', async () => {
    const bad = await svc.graphql(Q, { id: datasetId(ns, 'orders'), after: 'nonsense' });
    assert.equal(bad.errors![0].extensions.code, 'BAD_INPUT');
    const empty = await svc.graphql(Q, { id: datasetId(ns, 'orders'), first: 0 });
    assert.equal(empty.errors![0].extensions.code, 'BAD_INPUT');
    const big = await svc.graphql(Q, { id: datasetId(ns, 'orders'), first: 100000 });
    assert.equal(big.errors![0].extensions.code, 'LIMIT_EXCEEDED');
  });
});

describe('blastRadius across a symlinked name', () => {
  it('reaches the catalog name of a path at the distance of the path, and the jobs on the way through it', async () => {
    const n = uniquePrefix('blast-alias');
    const symlink = { symlinks: { identifiers: [{ namespace: n, name: 'db.events', type: 'TABLE' }] } };
    for (const e of [
      runEvent(n, { job: 'flink', inputs: ['topic'], outputs: ['/lake/events'], datasetFacets: { '/lake/events': symlink } }),
      runEvent(n, { job: 'spark', inputs: ['db.events'], outputs: ['report'] }),
    ]) {
      assert.equal((await svc.postEvent(e)).status, 201);
    }
    const res = await svc.graphql(`query($id: ID!) { blastRadius(nodeId: $id) { truncated items { id distance via } } }`, { id: datasetId(n, 'topic') });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data.blastRadius, {
      truncated: false,
      items: [
        { id: jobId(n, 'flink'), distance: 1, via: [] },
        { id: datasetId(n, '/lake/events'), distance: 2, via: [jobId(n, 'flink')] },
        { id: datasetId(n, 'db.events'), distance: 2, via: [jobId(n, 'flink')] },
        { id: jobId(n, 'spark'), distance: 3, via: [jobId(n, 'flink')] },
        { id: datasetId(n, 'report'), distance: 4, via: [jobId(n, 'flink'), jobId(n, 'spark')] },
      ],
    });
  });
});
