import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, jobId } from '../../src/ids';
import { docsOf } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { isolate, uniquePrefix } from '../support/isolate';

/**
 * Lineage over GraphQL on two real captures: Marquez's demo seed data (food_delivery) and the
 * dbt-ol capture of compatibility-tests. Expectations were derived by reading the events (see the
 * comments); a job that only reads a dataset is never upstream of it.
 */
let svc: TestService;
let seed: string; // namespace prefix of the Marquez seed
let dbt: string; // namespace prefix of the dbt capture

const LINEAGE = `query($id: ID!, $direction: LineageDirection!, $depth: Int) {
  lineage(nodeId: $id, direction: $direction, depth: $depth) {
    root { id kind } depth requestedDepth truncated truncatedBy
    nodes { id kind name distance side }
    edges { fromId toId type declared }
  }
}`;

interface Lineage {
  root: { id: string };
  depth: number;
  requestedDepth: number;
  truncated: boolean;
  truncatedBy: string[];
  nodes: { id: string; kind: string; name: string; distance: number; side: string }[];
  edges: { fromId: string; toId: string; type: string; declared: boolean }[];
}

async function lineage(id: string, direction: string, depth?: number): Promise<Lineage> {
  const res = await svc.graphql<{ lineage: Lineage }>(LINEAGE, { id, direction, depth });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data!.lineage;
}

const names = (l: Lineage, kind: string) =>
  l.nodes
    .filter((n) => n.kind === kind && n.side !== 'ROOT')
    .map((n) => n.name)
    .sort();

before(async () => {
  svc = await startService();
  seed = uniquePrefix('marquez-seed');
  dbt = uniquePrefix('dbt');
  for (const d of docsOf('marquez/docker__metadata.json')) {
    assert.equal((await svc.postEvent(isolate(d.value, seed))).status, 201);
  }
  for (let i = 1; i <= 22; i++) {
    const file = `compat-tests/producer__dbt__test_output__csv_to_postgres_local__event_${String(i).padStart(3, '0')}.json`;
    assert.equal((await svc.postEvent(isolate(docsOf(file)[0]!.value, dbt))).status, 201);
  }
});
after(() => svc.close());

describe('lineage on the Marquez seed data (food_delivery)', () => {
  const ds = (name: string) => datasetId(`${seed}food_delivery`, name);

  it('UPSTREAM of public.delivery_7_days: every job and table it is built from', async () => {
    const l = await lineage(ds('public.delivery_7_days'), 'UPSTREAM', 20);
    assert.equal(l.truncated, false);
    // etl_delivery_7_days reads orders_7_days, customers, order_status, drivers, restaurants;
    // etl_orders_7_days builds orders_7_days from menus, menu_items, orders, categories.
    // The seed's column lineage for delivery_7_days.category_id names a dataset
    // "public.menu_item_id" (a slip for public.menu_items) that no event lists as an input: it shows
    // up as a read that only column lineage implies (declared: false).
    assert.deepEqual(names(l, 'DATASET'), [
      'public.categories',
      'public.customers',
      'public.drivers',
      'public.menu_item_id',
      'public.menu_items',
      'public.menus',
      'public.order_status',
      'public.orders',
      'public.orders_7_days',
      'public.restaurants',
    ]);
    assert.deepEqual(names(l, 'JOB'), [
      'etl_categories',
      'etl_customers',
      'etl_delivery_7_days',
      'etl_drivers',
      'etl_menu_items',
      'etl_menus',
      'etl_order_status',
      'etl_orders',
      'etl_orders_7_days',
      'etl_restaurants',
    ]);
    assert.ok(l.nodes.every((n) => n.side !== 'DOWNSTREAM'));
    const undeclared = l.edges.filter((e) => !e.declared).map((e) => e.fromId);
    assert.deepEqual(undeclared, [ds('public.menu_item_id')]);
  });

  it('DOWNSTREAM of public.delivery_7_days: what breaks if it changes', async () => {
    const l = await lineage(ds('public.delivery_7_days'), 'DOWNSTREAM', 20);
    // delivery_times_7_days writes top_delivery_times and discounts; orders_popular_day_of_week
    // reads top_delivery_times; email_discounts reads discounts.
    assert.deepEqual(names(l, 'JOB'), ['delivery_times_7_days', 'email_discounts', 'orders_popular_day_of_week']);
    assert.deepEqual(names(l, 'DATASET'), ['public.discounts', 'public.popular_orders_day_of_week', 'public.top_delivery_times']);
    const readsDiscounts = l.edges.find((e) => e.fromId === ds('public.discounts'));
    assert.deepEqual(readsDiscounts, {
      fromId: ds('public.discounts'),
      toId: jobId(`${seed}food_delivery`, 'email_discounts'),
      type: 'FEEDS',
      declared: true,
    });
  });

  it('is directed: jobs that only read public.customers are not upstream of it', async () => {
    const up = await lineage(ds('public.customers'), 'UPSTREAM', 20);
    assert.deepEqual(names(up, 'JOB'), ['etl_customers']);
    assert.deepEqual(names(up, 'DATASET'), []);
    const down = await lineage(ds('public.customers'), 'DOWNSTREAM', 1);
    assert.deepEqual(names(down, 'JOB'), ['email_discounts', 'etl_delivery_7_days', 'orders_popular_day_of_week']);
  });

  it('reports truncation when lineage continues beyond the depth', async () => {
    const l = await lineage(ds('public.delivery_7_days'), 'UPSTREAM', 2);
    assert.equal(l.truncated, true);
    assert.deepEqual(l.truncatedBy, ['DEPTH']);
    assert.deepEqual(names(l, 'JOB'), ['etl_delivery_7_days']);
    assert.equal(names(l, 'DATASET').length, 6); // the five inputs and public.menu_item_id
    assert.ok(l.nodes.every((n) => n.distance <= 2));
  });

  it('caps the depth at the configured maximum', async () => {
    const l = await lineage(ds('public.orders'), 'DOWNSTREAM', 500);
    assert.equal(l.requestedDepth, 500);
    assert.equal(l.depth, svc.config.lineage.maxDepth);
    assert.equal(l.truncated, false);
  });

  it('BOTH from a job: its inputs and its output, distance 1', async () => {
    const l = await lineage(jobId(`${seed}food_delivery`, 'etl_delivery_7_days'), 'BOTH', 1);
    assert.equal(l.root.id, jobId(`${seed}food_delivery`, 'etl_delivery_7_days'));
    assert.deepEqual(
      l.nodes.filter((n) => n.side === 'UPSTREAM').map((n) => n.name).sort(),
      ['public.customers', 'public.drivers', 'public.menu_item_id', 'public.order_status', 'public.orders_7_days', 'public.restaurants'],
    );
    assert.deepEqual(l.nodes.filter((n) => n.side === 'DOWNSTREAM').map((n) => n.name), ['public.delivery_7_days']);
  });

  it('job lookup: latest run with merged START/COMPLETE times, inputs and outputs', async () => {
    const res = await svc.graphql(
      `query($id: ID!) { job(id: $id) { name latestRun { state startedAt endedAt inputs { name } outputs { name } } outputs { name } } }`,
      { id: jobId(`${seed}food_delivery`, 'etl_delivery_7_days') },
    );
    assert.deepEqual(res.data.job, {
      name: 'etl_delivery_7_days',
      latestRun: {
        state: 'COMPLETE',
        startedAt: '2020-02-22T22:42:42.000Z',
        endedAt: '2020-02-22T22:48:12.000Z',
        inputs: ['customers', 'drivers', 'menu_item_id', 'order_status', 'orders_7_days', 'restaurants'].map((n) => ({
          name: `public.${n}`,
        })),
        outputs: [{ name: 'public.delivery_7_days' }],
      },
      outputs: [{ name: 'public.delivery_7_days' }],
    });
  });
});

describe('lineage on the dbt-ol capture (csv_to_postgres_local)', () => {
  const pg = () => `${dbt}postgres://localhost:5432`;
  const ds = (name: string) => datasetId(pg(), `dbt_test.main.${name}`);
  const model = (name: string) => `dbt_test.main.openlineage_compatibility_test.${name}`;

  it('UPSTREAM of customer_analytics reaches the raw seeds through column lineage', async () => {
    const l = await lineage(ds('customer_analytics'), 'UPSTREAM', 10);
    assert.deepEqual(names(l, 'JOB'), [model('customer_analytics'), model('stg_customers'), model('stg_orders')]);
    assert.deepEqual(names(l, 'DATASET'), [
      'dbt_test.main.raw_customers',
      'dbt_test.main.raw_orders',
      'dbt_test.main.stg_customers',
      'dbt_test.main.stg_orders',
    ]);
    // dbt-ol lists no inputs for the staging models; only their column lineage names the raw tables.
    const rawToStg = l.edges.find((e) => e.fromId === ds('raw_orders'));
    assert.deepEqual(rawToStg, { fromId: ds('raw_orders'), toId: jobId(`${dbt}dbt`, model('stg_orders')), type: 'FEEDS', declared: false });
  });

  it('DOWNSTREAM of raw_orders: models and the dbt tests that read them, not the parent run job', async () => {
    const l = await lineage(ds('raw_orders'), 'DOWNSTREAM', 10);
    assert.deepEqual(names(l, 'JOB'), [
      model('customer_analytics'),
      model('customer_analytics.test'),
      model('stg_orders'),
      model('stg_orders.test'),
      'dbt_test.main.source.openlineage_compatibility_test.raw_data.raw_orders.test',
    ]);
    assert.deepEqual(names(l, 'DATASET'), ['dbt_test.main.customer_analytics', 'dbt_test.main.stg_orders']);
  });

  it('dataset lookup: fields from schema and column lineage, producers and consumers', async () => {
    const res = await svc.graphql(
      `query($id: ID!) { dataset(id: $id) { name fields { name } producers { name } consumers { name } } }`,
      { id: ds('stg_orders') },
    );
    assert.deepEqual(res.data.dataset, {
      name: 'dbt_test.main.stg_orders',
      fields: ['amount', 'completed_amount', 'customer_id', 'order_date', 'order_id', 'status'].map((name) => ({ name })),
      producers: [{ name: model('stg_orders') }],
      consumers: [{ name: model('customer_analytics') }, { name: model('stg_orders.test') }],
    });
  });
});

describe('GraphQL errors', () => {
  it('a malformed id is BAD_INPUT, with a hint about escaping', async () => {
    const res = await svc.graphql(LINEAGE, { id: 'dataset:kafka://b:9092:orders', direction: 'UPSTREAM' });
    assert.equal(res.errors![0].extensions.code, 'BAD_INPUT');
    assert.match(res.errors![0].message, /%3A/);
  });

  it('an unknown node is NOT_FOUND; lookups answer null', async () => {
    const res = await svc.graphql(LINEAGE, { id: datasetId('nowhere', 'nothing'), direction: 'UPSTREAM' });
    assert.equal(res.errors![0].extensions.code, 'NOT_FOUND');
    const lookup = await svc.graphql(`{ dataset(id: "dataset:nowhere:nothing") { id } }`);
    assert.deepEqual(lookup, { data: { dataset: null } });
  });

  it('depth below 1 and invalid documents are BAD_INPUT; no stack traces leak', async () => {
    const res = await svc.graphql(LINEAGE, { id: datasetId('x', 'y'), direction: 'UPSTREAM', depth: 0 });
    assert.equal(res.errors![0].extensions.code, 'BAD_INPUT');
    const invalid = await svc.graphql(`{ lineage(nodeId: "x") { nope } }`);
    assert.equal(invalid.errors![0].extensions.code, 'BAD_INPUT');
    assert.ok(!JSON.stringify(invalid).includes('stacktrace'));
  });
});
