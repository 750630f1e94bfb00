import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { isolate, uniquePrefix } from '../support/isolate';

/**
 * Events exactly as real producers send them (test/fixtures, captured with the scripts in
 * tools/capture), ingested over HTTP and asked for over GraphQL.
 */
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', name), 'utf8')) as Record<string, unknown>;

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('openlineage-python 1.54: column lineage with the deprecated transformation type', () => {
  it('keeps IDENTITY although each input field carries an empty transformations list', async () => {
    const ns = uniquePrefix('ol-python');
    const event = isolate(fixture('openlineage-python-1.54-column-lineage.json'), ns);
    assert.equal((await svc.postEvent(event)).status, 201);
    const total = fieldId(`${ns}postgres://db:5432`, 'public.orders_total', 'total');
    const res = await svc.graphql(
      `query($id: ID!) {
        lineage(nodeId: $id, direction: UPSTREAM, granularity: FIELD, depth: 1) { edges { fromId types } }
        trace(nodeId: $id, depth: 1) { hops { granularity types transformations } }
      }`,
      { id: total },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const amount = fieldId(`${ns}postgres://db:5432`, 'public.orders', 'amount');
    assert.deepEqual(res.data.lineage.edges, [{ fromId: amount, types: ['IDENTITY'] }]);
    assert.deepEqual(res.data.trace.hops, [
      { granularity: 'FIELD', types: ['IDENTITY'], transformations: [{ type: 'IDENTITY', description: 'identical', deprecatedForm: true }] },
    ]);
  });
});

describe('openlineage-spark 1.53 (pyspark 3.5): INDIRECT column dependencies', () => {
  // orders (status filter, customer_id join) ⋈ customers (customer_id join, country group-by key)
  //   → revenue_by_country (saveAsTable: warehouse path + catalog symlink) → top_countries.
  let ns: string;
  const field = (name: string, f: string) => fieldId(`${ns}file`, name, f);
  const ORDERS = '/tmp/sparkcap/raw/orders';
  const REVENUE = '/tmp/sparkcap/warehouse/revenue_by_country';
  const TOP = '/tmp/sparkcap/out/top_countries';

  before(async () => {
    ns = uniquePrefix('spark-indirect');
    const lines = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'openlineage-spark-1.53-orders-by-country.ndjson'), 'utf8');
    const events = lines.trim().split('\n').map((l) => isolate(JSON.parse(l) as Record<string, unknown>, ns));
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events));
    assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events));
  });

  it('traces a filter column downstream at field level, INDIRECT, with no precision lost; DIRECT alone loses it', async () => {
    const Q = `query($id: ID!, $deps: Dependencies) { trace(nodeId: $id, direction: DOWNSTREAM, dependencies: $deps) {
      firstPrecisionLoss { distance toId } hops { distance toId granularity types subtypes } } }`;
    const all = await svc.graphql(Q, { id: field(ORDERS, 'status'), deps: 'ALL' });
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    assert.equal(all.data.trace.firstPrecisionLoss, null);
    const hops = all.data.trace.hops as { distance: number; toId: string; granularity: string; types: string[]; subtypes: string[] }[];
    assert.ok(hops.every((h) => h.granularity === 'FIELD'));
    // Both Spark jobs that write the table (the CTAS command and its plan) report the filter.
    assert.deepEqual(
      hops.filter((h) => h.distance === 1).map((h) => [h.toId, h.types, h.subtypes]),
      [
        [field(REVENUE, 'country'), ['INDIRECT'], ['FILTER']],
        [field(REVENUE, 'country'), ['INDIRECT'], ['FILTER']],
        [field(REVENUE, 'revenue'), ['INDIRECT'], ['FILTER']],
        [field(REVENUE, 'revenue'), ['INDIRECT'], ['FILTER']],
      ],
    );
    // Then on through the job that reads the table back: revenue is both copied and filtered on.
    assert.deepEqual(
      [...new Set(hops.filter((h) => h.distance === 2).map((h) => `${h.toId} ${h.types.join('+')}`))].sort(),
      [`${field(TOP, 'country')} DIRECT`, `${field(TOP, 'country')} INDIRECT`, `${field(TOP, 'revenue')} DIRECT+INDIRECT`].sort(),
    );
    const direct = await svc.graphql(Q, { id: field(ORDERS, 'status'), deps: 'DIRECT' });
    assert.equal(direct.data.trace.firstPrecisionLoss.distance, 1);
    assert.equal(direct.data.trace.firstPrecisionLoss.toId, datasetId(`${ns}file`, REVENUE));
  });

  it('lineage upstream of an aggregate names its filter, join and group-by keys as INFLUENCES', async () => {
    const res = await svc.graphql(
      `query($id: ID!) { lineage(nodeId: $id, direction: UPSTREAM, granularity: FIELD, depth: 1) { edges { fromId type types subtypes } } }`,
      { id: field(REVENUE, 'revenue') },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    type Edge = { fromId: string; type: string; types: string[]; subtypes: string[] };
    const edges = res.data.lineage.edges as Edge[];
    const CUSTOMERS = '/tmp/sparkcap/raw/customers';
    // Two jobs write the table; the adaptive plan also reports the join keys as FILTER (Spark adds
    // isnotnull filters on them), so subtypes are compared as "includes".
    const by = (from: string, type: string) => edges.filter((e) => e.fromId === from && e.type === type);
    assert.deepEqual([...new Set(edges.map((e) => `${e.fromId} ${e.type}`))].sort(), [
      `${field(CUSTOMERS, 'country')} INFLUENCES`,
      `${field(CUSTOMERS, 'customer_id')} INFLUENCES`,
      `${field(ORDERS, 'amount')} DERIVES`,
      `${field(ORDERS, 'customer_id')} INFLUENCES`,
      `${field(ORDERS, 'status')} INFLUENCES`,
    ].sort());
    assert.ok(edges.filter((e) => e.type === 'INFLUENCES').every((e) => e.types.join() === 'INDIRECT'));
    assert.ok(by(field(ORDERS, 'status'), 'INFLUENCES').every((e) => e.subtypes.includes('FILTER')));
    assert.ok(by(field(ORDERS, 'customer_id'), 'INFLUENCES').every((e) => e.subtypes.includes('JOIN')));
    assert.ok(by(field(CUSTOMERS, 'country'), 'INFLUENCES').every((e) => e.subtypes.includes('GROUP_BY')));
    assert.ok(by(field(ORDERS, 'amount'), 'DERIVES').every((e) => e.types.join() === 'DIRECT' && e.subtypes.join() === 'AGGREGATION'));
  });

  it('blast radius of a join key reaches the aggregates it shapes; path finds the way from a filter column', async () => {
    const blast = async (deps: string) =>
      (await svc.graphql(`query($id: ID!, $deps: Dependencies) { blastRadius(nodeId: $id, kinds: [FIELD], dependencies: $deps) { items { id } } }`, {
        id: field(ORDERS, 'customer_id'),
        deps,
      })).data.blastRadius.items.map((i: { id: string }) => i.id);
    assert.deepEqual(await blast('ALL'), [field(REVENUE, 'country'), field(REVENUE, 'revenue'), field(TOP, 'country'), field(TOP, 'revenue')]);
    assert.deepEqual(await blast('DIRECT'), []);
    const path = async (deps: string) =>
      (await svc.graphql(`query($a: ID!, $b: ID!, $deps: Dependencies) { path(fromId: $a, toId: $b, granularity: FIELD, dependencies: $deps) { found paths { length edges { type types } } } }`, {
        a: field(ORDERS, 'status'),
        b: field(TOP, 'revenue'),
        deps,
      })).data.path;
    const found = await path('ALL');
    assert.equal(found.found, true);
    assert.equal(found.paths[0].length, 2);
    assert.deepEqual(found.paths[0].edges[0], { type: 'INFLUENCES', types: ['INDIRECT'] });
    assert.deepEqual(await path('DIRECT'), { found: false, paths: [] });
  });
});

describe('fields under every name of a dataset (Spark saveAsTable path + catalog symlink, read by its catalog name)', () => {
  // The Spark capture writes /tmp/sparkcap/warehouse/revenue_by_country and declares the catalog
  // name default.revenue_by_country (namespace file:/tmp/sparkcap/warehouse) in `symlinks`; a
  // dbt-style model then reads the catalog name with column lineage.
  let ns: string;
  const REVENUE = '/tmp/sparkcap/warehouse/revenue_by_country';
  const path_ = (name: string, f: string) => fieldId(`${ns}file`, name, f);
  const catalog = (f: string) => fieldId(`${ns}file:/tmp/sparkcap/warehouse`, 'default.revenue_by_country', f);
  const model = (f: string) => fieldId(`${ns}postgres://warehouse:5432`, 'analytics.main.country_report', f);

  before(async () => {
    ns = uniquePrefix('spark-alias');
    const lines = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'openlineage-spark-1.53-orders-by-country.ndjson'), 'utf8');
    const spark = lines.trim().split('\n').map((l) => isolate(JSON.parse(l) as Record<string, unknown>, ns));
    const reader = isolate(
      {
        eventType: 'COMPLETE',
        eventTime: '2026-12-01T03:20:00.000Z',
        producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt',
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
        run: { runId: '0190f2a3-8a8e-7bbb-9c2a-000000000001' },
        job: { namespace: 'dbt', name: 'analytics.main.country_report' },
        inputs: [{ namespace: 'file:/tmp/sparkcap/warehouse', name: 'default.revenue_by_country' }],
        outputs: [
          {
            namespace: 'postgres://warehouse:5432',
            name: 'analytics.main.country_report',
            facets: {
              columnLineage: {
                _producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt',
                _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
                fields: {
                  revenue_eur: {
                    inputFields: [
                      { namespace: 'file:/tmp/sparkcap/warehouse', name: 'default.revenue_by_country', field: 'revenue', transformations: [{ type: 'DIRECT', subtype: 'TRANSFORMATION' }] },
                    ],
                  },
                },
              },
            },
          },
        ],
      },
      ns,
    );
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify([...spark, reader]));
    assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events));
  });

  it('traces a model column back field by field through the Spark job that wrote the table under its path name', async () => {
    const res = await svc.graphql(
      `query($id: ID!) { trace(nodeId: $id) { firstPrecisionLoss { distance } hops { distance fromId toId granularity } } }`,
      { id: model('revenue_eur') },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.trace.firstPrecisionLoss, null);
    const hops = res.data.trace.hops as { distance: number; fromId: string; toId: string; granularity: string }[];
    assert.deepEqual([...new Set(hops.filter((h) => h.distance <= 2).map((h) => `${h.distance} ${h.fromId}`))].sort(), [
      `1 ${catalog('revenue')}`,
      `2 ${path_('/tmp/sparkcap/raw/orders', 'amount')}`,
      `2 ${path_('/tmp/sparkcap/raw/orders', 'customer_id')}`,
      `2 ${path_('/tmp/sparkcap/raw/orders', 'status')}`,
      `2 ${fieldId(`${ns}file`, '/tmp/sparkcap/raw/customers', 'country')}`,
      `2 ${fieldId(`${ns}file`, '/tmp/sparkcap/raw/customers', 'customer_id')}`,
    ].sort());
    assert.ok(hops.every((h) => h.granularity === 'FIELD'));
  });

  it('finds a field by its id under either name, and walks FIELD lineage across the names at no extra hop', async () => {
    // No event ever named `country` under the catalog name: the id resolves to the path name's field.
    const q = `query($id: ID!) { lineage(nodeId: $id, granularity: FIELD, direction: UPSTREAM, depth: 1) { root { id } nodes { id distance } edges { fromId toId type } } }`;
    const res = await svc.graphql(q, { id: catalog('country') });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.lineage.root.id, path_(REVENUE, 'country'));
    // Under the catalog name, the reader's field has the path name's field as an ALIAS at distance 0,
    // and the Spark inputs at distance 1.
    const up = await svc.graphql(q, { id: catalog('revenue') });
    const nodes = up.data.lineage.nodes as { id: string; distance: number }[];
    assert.deepEqual(nodes.find((n) => n.id === path_(REVENUE, 'revenue')), { id: path_(REVENUE, 'revenue'), distance: 0 });
    assert.ok(nodes.some((n) => n.id === path_('/tmp/sparkcap/raw/orders', 'amount') && n.distance === 1));
    assert.ok((up.data.lineage.edges as { type: string }[]).some((e) => e.type === 'ALIAS'));
  });

  it('finds the path from a raw column to the model column across the two names, the alias adding no length', async () => {
    const res = await svc.graphql(
      `query($a: ID!, $b: ID!) { path(fromId: $a, toId: $b, granularity: FIELD) { found paths { length edges { fromId toId type } } } }`,
      { a: path_('/tmp/sparkcap/raw/orders', 'amount'), b: model('revenue_eur') },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.path.found, true);
    const [p] = res.data.path.paths;
    assert.equal(p.length, 2);
    assert.deepEqual(
      p.edges.map((e: { fromId: string; toId: string; type: string }) => [e.fromId, e.toId, e.type]),
      [
        [path_('/tmp/sparkcap/raw/orders', 'amount'), path_(REVENUE, 'revenue'), 'DERIVES'],
        [path_(REVENUE, 'revenue'), catalog('revenue'), 'ALIAS'],
        [catalog('revenue'), model('revenue_eur'), 'DERIVES'],
      ],
    );
  });
});
