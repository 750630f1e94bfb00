import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../support/app';
import { runEvent, type RunSpec } from '../support/events';
import { isolate, isolatedRunId, uniquePrefix } from '../support/isolate';

/**
 * Lineage diff (GraphQL lineageDiff, GET /api/v1/lineage/diff) on a namespace whose history holds
 * one change of every kind: `orders` upgraded its producer from 1.52.0 to 1.53.0 and stopped
 * sending column lineage (and its output gained a field), `legacy` moved its output to another
 * dataset, `newjob` appeared. The same events in reverse order give the same diff.
 */
let svc: TestService;
let ns: string;
let nsReversed: string;
const T1 = '2024-03-01T10:00:00.000Z';
const MID = '2024-03-05T00:00:00.000Z';
const T2 = '2024-03-10T10:00:00.000Z';
const schema = (...names: string[]) => ({ schema: { _producer: 't', _schemaURL: 't', fields: names.map((name) => ({ name, type: 'string' })) } });
const producer = (v: string) => `https://github.com/OpenLineage/OpenLineage/tree/${v}/integration/spark`;
const engine = (v: string) => ({ processing_engine: { _producer: 't', _schemaURL: 't', name: 'spark', version: '3.5.9', openlineageAdapterVersion: v } });

/** Run ids of one namespace's history (run ids are global: each namespace gets its own). */
const R = (n: string, i: 1 | 2, k: 1 | 2 | 3) => isolatedRunId(n, `${String(i).repeat(8)}-0000-4000-8000-00000000000${k}`);

function history(n: string) {
  const ev = (spec: RunSpec, version = '1.53.0') => ({ ...runEvent(n, { ...spec, runFacets: engine(version) }), producer: producer(version) });
  return [
    ev({ job: 'orders', eventTime: T1, runId: R(n, 1, 1), inputs: ['src'], outputs: ['out'],
      datasetFacets: { src: schema('x', 'y'), out: schema('a', 'b') }, columns: { out: { a: ['src.x'], b: ['src.y'] } } }, '1.52.0'),
    ev({ job: 'legacy', eventTime: T1, runId: R(n, 1, 2), inputs: ['src'], outputs: ['old_out'], datasetFacets: { src: schema('x', 'y') } }),
    ev({ job: 'orders', eventTime: T2, runId: R(n, 2, 1), inputs: ['src'], outputs: ['out', 'extra'],
      datasetFacets: { src: schema('x', 'y'), out: schema('a', 'b', 'c') } }),
    ev({ job: 'legacy', eventTime: T2, runId: R(n, 2, 2), inputs: ['src'], outputs: ['new_out'], datasetFacets: { src: schema('x', 'y') } }),
    ev({ job: 'newjob', eventTime: T2, runId: R(n, 2, 3), inputs: ['out'], outputs: ['report'] }),
  ];
}

before(async () => {
  svc = await startService();
  ns = uniquePrefix('diff');
  nsReversed = uniquePrefix('diffrev');
  for (const e of history(ns)) assert.equal((await svc.postEvent(e)).status, 201);
  for (const e of history(nsReversed).reverse()) assert.equal((await svc.postEvent(e)).status, 201);
});
after(async () => {
  await svc?.close();
});

const CHANGE = 'kind jobId datasetId direction field inputFieldId fromRunId toRunId cause fromProducer toProducer';
const FIG = 'key edges columnLevel datasetLevelOnly columnLevelShare outputFields fieldsWithInputs fieldShare noInputEdges collectedEdges declaredEdges';
const DIFF = `query($from: String!, $to: String, $value: String, $first: Int, $after: String, $kinds: [LineageChangeKind!]) {
  lineageDiff(from: $from, to: $to, scope: NAMESPACE, value: $value, first: $first, after: $after, kinds: $kinds) {
    from to truncated unrecorded coverageFrom { ${FIG} } coverageTo { ${FIG} } delta { edges columnLevel columnLevelShare fieldShare }
    counts { kind count } changes { total items { ${CHANGE} } pageInfo { endCursor hasNextPage } } } }`;

async function diff(vars: Record<string, unknown>) {
  const r = await svc.graphql(DIFF, vars);
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return (r.data as { lineageDiff: any }).lineageDiff;
}

const row = (kind: string, c: Record<string, string | null>) => ({
  kind, jobId: null, datasetId: null, direction: null, field: null, inputFieldId: null, fromRunId: null, toRunId: null,
  cause: null, fromProducer: null, toProducer: null, ...c,
});

function expected(n: string) {
  const d = (name: string) => `dataset:${n}:${name}`;
  const j = (name: string) => `job:${n}:${name}`;
  const run1 = `run:${R(n, 1, 1)}`;
  const run2 = `run:${R(n, 2, 1)}`;
  return [
    row('GRANULARITY_REGRESSED', { jobId: j('orders'), datasetId: d('out'), direction: 'OUTPUT', fromRunId: run1, toRunId: run2,
      cause: 'PRODUCER_VERSION_CHANGED', fromProducer: producer('1.52.0'), toProducer: producer('1.53.0') }),
    row('JOB_APPEARED', { jobId: j('newjob') }),
    row('DATASET_APPEARED', { datasetId: d('extra') }),
    row('DATASET_APPEARED', { datasetId: d('new_out') }),
    row('DATASET_APPEARED', { datasetId: d('report') }),
    row('DATASET_DISAPPEARED', { datasetId: d('old_out') }),
    row('EDGE_APPEARED', { jobId: j('legacy'), datasetId: d('new_out'), direction: 'OUTPUT', toRunId: `run:${R(n, 2, 2)}` }),
    row('EDGE_APPEARED', { jobId: j('newjob'), datasetId: d('out'), direction: 'INPUT', toRunId: `run:${R(n, 2, 3)}` }),
    row('EDGE_APPEARED', { jobId: j('newjob'), datasetId: d('report'), direction: 'OUTPUT', toRunId: `run:${R(n, 2, 3)}` }),
    row('EDGE_APPEARED', { jobId: j('orders'), datasetId: d('extra'), direction: 'OUTPUT', toRunId: run2 }),
    row('EDGE_DISAPPEARED', { jobId: j('legacy'), datasetId: d('old_out'), direction: 'OUTPUT', fromRunId: `run:${R(n, 1, 2)}` }),
    row('FIELD_APPEARED', { datasetId: d('out'), field: 'c' }),
    row('FIELD_EDGE_DISAPPEARED', { jobId: j('orders'), datasetId: d('out'), direction: 'OUTPUT', field: 'a', inputFieldId: `datasetField:${n}:src:x`, fromRunId: run1, toRunId: run2 }),
    row('FIELD_EDGE_DISAPPEARED', { jobId: j('orders'), datasetId: d('out'), direction: 'OUTPUT', field: 'b', inputFieldId: `datasetField:${n}:src:y`, fromRunId: run1, toRunId: run2 }),
  ];
}

describe('lineage diff', () => {
  it('reports the producer upgrade that stopped sending column lineage, and every other change, exactly', async () => {
    const d = await diff({ from: MID, to: '2024-03-20T00:00:00Z', value: ns });
    assert.deepEqual(d.changes.items, expected(ns));
    assert.equal(d.changes.total, 14);
    assert.equal(d.unrecorded, 0);
    assert.equal(d.truncated, false);
    assert.deepEqual(d.coverageFrom, { key: 'from', edges: 2, columnLevel: 1, datasetLevelOnly: 1, columnLevelShare: 0.5, outputFields: 2, fieldsWithInputs: 2, fieldShare: 1, noInputEdges: 0, collectedEdges: 0, declaredEdges: 0 });
    assert.deepEqual(d.coverageTo, { key: 'to', edges: 4, columnLevel: 0, datasetLevelOnly: 4, columnLevelShare: 0, outputFields: 3, fieldsWithInputs: 0, fieldShare: 0, noInputEdges: 0, collectedEdges: 0, declaredEdges: 0 });
    assert.deepEqual(d.delta, { edges: 2, columnLevel: -1, columnLevelShare: -0.5, fieldShare: -1 });
    assert.deepEqual(d.counts.find((c: { kind: string }) => c.kind === 'EDGE_APPEARED'), { kind: 'EDGE_APPEARED', count: 4 });
  });

  it('gives the same diff whatever order the events arrived in', async () => {
    const d = await diff({ from: MID, to: '2024-03-20T00:00:00Z', value: nsReversed });
    assert.deepEqual(d.changes.items, expected(nsReversed));
  });

  it('current coverage sees the regression too; a diff to now counts as coverage does, and from a minute ago finds nothing', async () => {
    const cov = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { ${FIG} } } }`, { ns });
    const overall = (cov.data as any).coverage.overall;
    assert.equal(overall.columnLevel, 0);
    const d = await diff({ from: MID, value: ns });
    assert.equal(d.to, null);
    assert.deepEqual({ ...d.coverageTo, key: 'all' }, overall);
    assert.deepEqual(d.changes.items, expected(ns));
    const recent = await diff({ from: new Date(Date.now() - 60_000).toISOString(), value: ns });
    assert.equal(recent.changes.total, 0);
    assert.deepEqual(recent.delta, { edges: 0, columnLevel: 0, columnLevelShare: 0, fieldShare: 0 });
  });

  it('before anything ran, everything appears; between the same times, nothing changed', async () => {
    const d = await diff({ from: '2020-01-01T00:00:00Z', to: MID, value: ns });
    assert.deepEqual(d.counts, [
      { kind: 'JOB_APPEARED', count: 2 },
      { kind: 'DATASET_APPEARED', count: 3 },
      { kind: 'EDGE_APPEARED', count: 4 },
    ]);
    const same = await diff({ from: MID, to: MID, value: ns });
    assert.equal(same.changes.total, 0);
    assert.deepEqual(same.coverageFrom, { ...same.coverageTo, key: 'from' });
  });

  it('pages and filters: first=1 walks the same list; kinds keeps only the kinds asked', async () => {
    const seen: unknown[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const d = await diff({ from: MID, to: '2024-03-20T00:00:00Z', value: ns, first: 1, after });
      seen.push(...d.changes.items);
      if (!d.changes.pageInfo.hasNextPage) break;
      after = d.changes.pageInfo.endCursor;
    }
    assert.deepEqual(seen, expected(ns));
    const only = await diff({ from: MID, to: '2024-03-20T00:00:00Z', value: ns, kinds: ['GRANULARITY_REGRESSED', 'FIELD_APPEARED'] });
    assert.deepEqual(only.changes.items.map((c: { kind: string }) => c.kind), ['GRANULARITY_REGRESSED', 'FIELD_APPEARED']);
    assert.equal(only.changes.total, 2);
  });

  it('GET /api/v1/lineage/diff answers the same rows as GraphQL, with a cursor', async () => {
    const gql = await diff({ from: MID, to: '2024-03-20T00:00:00Z', value: ns, first: 5 });
    const params = new URLSearchParams({ scope: 'NAMESPACE', value: ns, from: MID, to: '2024-03-20T00:00:00Z', first: '5' });
    const res = await fetch(`${svc.baseUrl}/api/v1/lineage/diff?${params}`);
    assert.equal(res.status, 200);
    const rest = (await res.json()) as any;
    assert.deepEqual(rest.changes, gql.changes.items);
    assert.deepEqual(rest.coverageFrom, gql.coverageFrom);
    assert.equal(rest.total, 14);
    assert.equal(typeof rest.nextCursor, 'string');
    const next = await fetch(`${svc.baseUrl}/api/v1/lineage/diff?${params}&after=${rest.nextCursor}&kinds=EDGE_APPEARED,FIELD_APPEARED`);
    assert.equal(next.status, 200);
    assert.deepEqual(((await next.json()) as any).changes, []);
  });

  it('refuses bad arguments with the reason (GraphQL BAD_INPUT, REST 400)', async () => {
    const bad = async (vars: Record<string, unknown>, pattern: RegExp) => {
      const r = await svc.graphql(DIFF, { value: ns, ...vars });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_INPUT', JSON.stringify(r.errors));
      assert.match(r.errors![0]!.message, pattern);
    };
    await bad({ from: 'yesterday' }, /from must be an ISO-8601/);
    await bad({ from: T2, to: T1 }, /to must not be before from/);
    await bad({ from: T1, first: 0 }, /first must be between 1 and 1000/);
    await bad({ from: T1, first: 1001 }, /first must be between 1 and 1000/);
    await bad({ from: T1, after: 'bm90LWEtY3Vyc29y' }, /invalid cursor/);
    const noValue = await svc.graphql(`{ lineageDiff(from: "${T1}", scope: JOB) { from } }`);
    assert.equal(noValue.errors?.[0]?.extensions?.code, 'BAD_INPUT');
    const rest = async (query: string, pattern: RegExp) => {
      const res = await fetch(`${svc.baseUrl}/api/v1/lineage/diff?${query}`);
      assert.equal(res.status, 400, query);
      assert.match(JSON.stringify(await res.json()), pattern);
    };
    await rest('scope=ALL', /from/);
    await rest(`from=${T1}&kinds=EDGE_APPEARED,NOPE`, /kinds/);
    await rest(`from=${T1}&first=5000`, /first/);
    await rest(`from=${T1}&value=${'x'.repeat(3000)}&scope=JOB`, /value/);
    await rest(`from=${'9'.repeat(200)}`, /from/);
  });

  it('real Spark events: an upgrade from openlineage-spark 1.37.0 to 1.53.0 run with column lineage off regresses exactly the edges that had it', async () => {
    // Captured with tools/capture/spark_orders_by_country.py: the same job under 1.37.0 (15:28 UTC),
    // then under 1.53.0 with spark.openlineage.facets.columnLineage.disabled (15:31 UTC).
    const prefix = uniquePrefix('diffspark');
    for (const name of ['openlineage-spark-1.37-orders-by-country.ndjson', 'openlineage-spark-1.53-orders-by-country-no-cll.ndjson']) {
      const lines = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', name), 'utf8');
      const events = lines.trim().split('\n').map((l) => isolate(JSON.parse(l) as Record<string, unknown>, prefix));
      const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events));
      assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events));
    }
    const d = await diff({ from: '2026-12-01T15:30:00Z', value: `${prefix}spark-batch`, kinds: ['GRANULARITY_REGRESSED', 'GRANULARITY_IMPROVED'] });
    const job = (n: string) => `job:${prefix}spark-batch:orders_by_country.${n}`;
    const file = (p: string) => `dataset:${prefix}file:${p}`;
    assert.deepEqual(
      d.changes.items.map((c: any) => [c.kind, c.jobId, c.datasetId, c.cause, c.fromProducer, c.toProducer]),
      [
        ['GRANULARITY_REGRESSED', job('adaptive_spark_plan.warehouse_revenue_by_country'), file('/tmp/sparkcap/warehouse/revenue_by_country'),
          'PRODUCER_VERSION_CHANGED', producer('1.37.0'), producer('1.53.0')],
        ['GRANULARITY_REGRESSED', job('execute_insert_into_hadoop_fs_relation_command.out_top_countries'), file('/tmp/sparkcap/out/top_countries'),
          'PRODUCER_VERSION_CHANGED', producer('1.37.0'), producer('1.53.0')],
      ],
    );
    assert.equal(d.coverageFrom.columnLevel - d.coverageTo.columnLevel, 2);
    assert.equal(d.unrecorded, 0);
    const fieldEdges = await diff({ from: '2026-12-01T15:30:00Z', value: `${prefix}spark-batch`, kinds: ['FIELD_EDGE_DISAPPEARED', 'FIELD_EDGE_APPEARED'], first: 1000 });
    assert.ok(fieldEdges.changes.total > 0);
    assert.ok(fieldEdges.changes.items.every((c: any) => c.kind === 'FIELD_EDGE_DISAPPEARED'));
  });

  it('ten aliases of lineageDiff in one query are refused before they run; ten concurrent requests agree', async () => {
    const aliases = Array.from({ length: 10 }, (_, i) => `d${i}: lineageDiff(from: "${MID}", scope: NAMESPACE, value: "${ns}") { changes { total } }`).join(' ');
    const refused = await svc.graphql(`{ ${aliases} }`);
    assert.equal(refused.errors?.[0]?.extensions?.code, 'LIMIT_EXCEEDED', JSON.stringify(refused.errors));
    const answers = await Promise.all(Array.from({ length: 10 }, () => diff({ from: MID, to: '2024-03-20T00:00:00Z', value: ns })));
    for (const a of answers) assert.deepEqual(a, answers[0]);
    assert.equal(answers[0].changes.total, 14);
  });

  it('a unicode namespace and a scope with nothing in it answer empty diffs, not errors', async () => {
    const d = await diff({ from: T1, value: 'データ:ns/無い' });
    assert.equal(d.changes.total, 0);
    assert.equal(d.coverageTo.edges, 0);
  });
});
