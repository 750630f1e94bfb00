import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const Q = `query($id: ID!, $direction: LineageDirection!, $depth: Int, $granularity: Granularity, $asOf: String) {
  lineage(nodeId: $id, direction: $direction, depth: $depth, granularity: $granularity, asOf: $asOf) {
    asOf granularity truncated
    nodes { id kind name distance datasetId }
    edges { fromId toId type current jobId types subtypes job { name } }
  }
}`;

async function lineage(vars: Record<string, unknown>) {
  const res = await svc.graphql(Q, vars);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.lineage;
}

describe('lineage: current vs asOf', () => {
  it('a job that stopped reading an input: gone from current lineage, present as of before the switch', async () => {
    const ns = uniquePrefix('asof');
    const r1 = isolatedRunId(ns, '10000000-0000-4000-8000-000000000001');
    const r2 = isolatedRunId(ns, '20000000-0000-4000-8000-000000000002');
    for (const e of [
      runEvent(ns, { job: 'daily', runId: r1, eventType: 'START', eventTime: '2024-06-01T01:00:00Z', inputs: ['legacy_orders'] }),
      runEvent(ns, { job: 'daily', runId: r1, eventType: 'COMPLETE', eventTime: '2024-06-01T01:10:00Z', outputs: ['report'] }),
      runEvent(ns, { job: 'daily', runId: r2, eventType: 'START', eventTime: '2024-06-02T01:00:00Z', inputs: ['orders'] }),
      runEvent(ns, { job: 'daily', runId: r2, eventType: 'COMPLETE', eventTime: '2024-06-02T01:10:00Z', outputs: ['report'] }),
    ]) {
      assert.equal((await svc.postEvent(e)).status, 201);
    }
    const names = (l: { nodes: { kind: string; name: string }[] }) => l.nodes.filter((n) => n.kind === 'DATASET').map((n) => n.name).sort();
    const current = await lineage({ id: datasetId(ns, 'report'), direction: 'UPSTREAM', depth: 2 });
    assert.deepEqual(names(current), ['orders', 'report']);
    assert.equal(current.asOf, null);
    // Midday on June 1st, between runs: the job's latest run by then read legacy_orders.
    const before = await lineage({ id: datasetId(ns, 'report'), direction: 'UPSTREAM', depth: 2, asOf: '2024-06-01T12:00:00+00:00' });
    assert.deepEqual(names(before), ['legacy_orders', 'report']);
    assert.equal(before.asOf, '2024-06-01T12:00:00.000Z');
    const firstEdge = before.edges.find((e: { fromId: string }) => e.fromId === datasetId(ns, 'legacy_orders'));
    assert.equal(firstEdge.current, false);
    // Before any run, there was no lineage.
    const never = await lineage({ id: datasetId(ns, 'report'), direction: 'UPSTREAM', depth: 2, asOf: '2024-05-01T00:00:00Z' });
    assert.deepEqual(names(never), ['report']);
    // From the old input, downstream: current lineage no longer reaches the report.
    const down = await lineage({ id: datasetId(ns, 'legacy_orders'), direction: 'DOWNSTREAM', depth: 2 });
    assert.deepEqual(names(down), ['legacy_orders']);
  });

  it('rejects an asOf that is not a date-time', async () => {
    const res = await svc.graphql(Q, { id: datasetId('x', 'y'), direction: 'UPSTREAM', asOf: 'last tuesday' });
    assert.equal(res.errors![0].extensions.code, 'BAD_INPUT');
    assert.match(res.errors![0].message, /asOf/);
  });
});

describe('lineage at FIELD granularity', () => {
  it('follows column lineage through jobs, with transformation types and the job on each edge', async () => {
    const ns = uniquePrefix('fields');
    await svc.postEvent(runEvent(ns, { job: 'clean', inputs: ['raw'], outputs: ['clean'], columns: { clean: { amount: ['raw.amount_cents'], id: ['raw.id'] } } }));
    await svc.postEvent(runEvent(ns, { job: 'agg', inputs: ['clean'], outputs: ['summary'], columns: { summary: { total: ['clean.amount'] } } }));
    const up = await lineage({ id: fieldId(ns, 'summary', 'total'), direction: 'UPSTREAM', depth: 5, granularity: 'FIELD' });
    assert.deepEqual(
      up.nodes.map((n: { id: string; distance: number; datasetId: string }) => [n.id, n.distance, n.datasetId]),
      [
        [fieldId(ns, 'summary', 'total'), 0, datasetId(ns, 'summary')],
        [fieldId(ns, 'clean', 'amount'), 1, datasetId(ns, 'clean')],
        [fieldId(ns, 'raw', 'amount_cents'), 2, datasetId(ns, 'raw')],
      ],
    );
    assert.deepEqual(
      up.edges.map((e: any) => [e.type, e.jobId, e.job.name, e.types, e.subtypes]),
      [
        ['DERIVES', jobId(ns, 'agg'), 'agg', ['DIRECT'], ['IDENTITY']],
        ['DERIVES', jobId(ns, 'clean'), 'clean', ['DIRECT'], ['IDENTITY']],
      ],
    );
    const down = await lineage({ id: fieldId(ns, 'raw', 'id'), direction: 'DOWNSTREAM', depth: 5, granularity: 'FIELD' });
    assert.deepEqual(down.nodes.map((n: { name: string }) => n.name), ['id', 'id']);
  });

  it('needs a field id at FIELD granularity', async () => {
    const res = await svc.graphql(Q, { id: datasetId('x', 'y'), direction: 'UPSTREAM', granularity: 'FIELD' });
    assert.equal(res.errors![0].extensions.code, 'BAD_INPUT');
    assert.match(res.errors![0].message, /expected datasetField/);
  });
});
