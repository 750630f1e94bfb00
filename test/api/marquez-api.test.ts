import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { docsOf, repoRoot } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { isolate, isolatedRunId, uniquePrefix } from '../support/isolate';
import { NAMESPACE_LIST_MAX_AGE_MS } from '../../src/marquez/namespace-list';

/**
 * Marquez's read API (src/marquez) end to end on the real graph: Marquez's demo seed
 * (food_delivery), the seed stack's Debezium capture (URI namespaces with ':' and '/') and an
 * openlineage-spark 1.53 capture with column lineage, each in its own namespace prefix (which holds
 * a '/', so every request here also proves the %2F path handling). Expectations follow
 * ../shared/marquez-api/CONTRACT.md; the seed's graph is read off its events (see comments).
 */
let svc: TestService;
let p: string; // namespace prefix
const enc = encodeURIComponent;

async function get(url: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const res = await fetch(svc.baseUrl + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text (stats errors)
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

const ns = () => `${p}food_delivery`;
const jobs = (...names: string[]) => names.map((n) => `job:${ns()}:${n}`);
const datasets = (...names: string[]) => names.map((n) => `dataset:${ns()}:public.${n}`);

before(async () => {
  svc = await startService();
  p = uniquePrefix('marquez-api');
  for (const d of docsOf('marquez/docker__metadata.json')) assert.equal((await svc.postEvent(isolate(d.value, p))).status, 201);
  for (const file of ['seed-stack/debezium.ndjson', 'openlineage-spark-1.53-orders-by-country.ndjson']) {
    const lines = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', file), 'utf8').split('\n').filter(Boolean);
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(lines.map((l) => isolate(JSON.parse(l), p))));
    assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events?.[0]));
  }
});
after(() => svc.close());

describe('namespaces, jobs and runs', () => {
  it('lists namespaces in Marquez shape, sorted by name, nulls written out, no totalCount', async () => {
    const res = await get('/api/v1/namespaces?limit=1000');
    assert.equal(res.status, 200);
    assert.equal(res.body.totalCount, undefined);
    const names = res.body.namespaces.map((n: { name: string }) => n.name);
    assert.deepEqual(names, [...names].sort());
    const seed = res.body.namespaces.find((n: { name: string }) => n.name === ns());
    assert.deepEqual(Object.keys(seed).sort(), ['createdAt', 'description', 'isHidden', 'name', 'ownerName', 'updatedAt']);
    assert.equal(seed.description, null);
    assert.equal(seed.createdAt, '2020-02-22T22:42:42.000Z');
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}`)).body.name, ns());
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(p)}nope`)).body, { code: 404, message: `Namespace '${p}nope' not found.` });
  });

  it('shows a namespace as soon as its event is projected here, and within NAMESPACE_LIST_MAX_AGE_MS when another process projected it', async () => {
    // The list is kept in memory between projections (src/marquez/namespace-list.ts): read it first.
    const listed = async (base: TestService) => ((await (await fetch(`${base.baseUrl}/api/v1/namespaces?limit=1000`)).json()) as { namespaces: { name: string }[] }).namespaces.map((n) => n.name);
    const event = (namespace: string) => ({
      eventType: 'COMPLETE',
      eventTime: '2026-03-01T00:00:00Z',
      producer: 'https://example.com/tributary-tests',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/RunEvent',
      run: { runId: randomUUID() },
      job: { namespace, name: 'namespace-list-probe' },
      inputs: [],
      outputs: [],
    });
    assert.ok((await listed(svc)).includes(ns()));
    const here = `${p}appears-here`;
    assert.equal((await svc.postEvent(event(here))).status, 201);
    assert.ok((await listed(svc)).includes(here), 'projected by this process: listed at once');
    assert.equal((await get(`/api/v1/namespaces/${enc(here)}`)).status, 200);

    const other = await startService();
    try {
      const there = `${p}appears-there`;
      assert.equal((await other.postEvent(event(there))).status, 201);
      const since = Date.now();
      while (!(await listed(svc)).includes(there)) {
        assert.ok(Date.now() - since < NAMESPACE_LIST_MAX_AGE_MS + 2_000, `${there}, projected by another process, not listed after ${Date.now() - since} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await other.close();
    }
  });

  it('pages a namespace’s jobs newest first; lastRunStates (any case) filters, totalCount ignores it', async () => {
    const all = await get(`/api/v1/namespaces/${enc(ns())}/jobs?limit=20`);
    assert.equal(all.status, 200);
    assert.equal(all.body.totalCount, 13);
    assert.equal(all.body.jobs.length, 13);
    const updated = all.body.jobs.map((j: { updatedAt: string }) => j.updatedAt);
    assert.deepEqual(updated, [...updated].sort().reverse());
    // delivery_times_7_days completed last (22:58:02).
    assert.equal(all.body.jobs[0].name, 'delivery_times_7_days');
    const page = await get(`/api/v1/namespaces/${enc(ns())}/jobs?limit=5&offset=10`);
    assert.deepEqual(page.body.jobs.map((j: { name: string }) => j.name), all.body.jobs.slice(10).map((j: { name: string }) => j.name));
    assert.equal(page.body.totalCount, 13);
    const failed = await get(`/api/v1/namespaces/${enc(ns())}/jobs?lastRunStates=failed`);
    assert.deepEqual(failed.body, { jobs: [], totalCount: 13 });
    const completed = await get(`/api/v1/namespaces/${enc(ns())}/jobs?lastRunStates=COMPLETED&lastRunStates=running&limit=100`);
    assert.equal(completed.body.jobs.length, 13);
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(p)}unknown/jobs`)).body, { jobs: [], totalCount: 0 });
  });

  it('answers a job in Marquez shape: latest runs, current inputs and outputs, version, nulls written out', async () => {
    const res = await get(`/api/v1/namespaces/${enc(ns())}/jobs/etl_orders_7_days`);
    assert.equal(res.status, 200);
    const j = res.body;
    assert.deepEqual(Object.keys(j).sort(), [
      'createdAt', 'currentVersion', 'description', 'facets', 'id', 'inputs', 'labels', 'latestRun', 'latestRuns', 'location', 'name', 'namespace',
      'outputs', 'parentJobName', 'parentJobUuid', 'simpleName', 'tags', 'type', 'updatedAt',
    ]);
    assert.deepEqual(j.id, { namespace: ns(), name: 'etl_orders_7_days' });
    assert.equal(j.type, 'BATCH');
    assert.deepEqual(j.inputs.map((d: { name: string }) => d.name), ['public.categories', 'public.menu_items', 'public.menus', 'public.orders']);
    assert.deepEqual(j.outputs, [{ namespace: ns(), name: 'public.orders_7_days' }]);
    assert.equal(j.latestRun.state, 'COMPLETED');
    assert.equal(j.latestRun.durationMs, 80_000); // 22:42:42 → 22:44:02
    assert.equal(j.latestRuns.length, 1);
    assert.match(j.currentVersion, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(j.latestRun.jobVersion.version, j.currentVersion);
    assert.equal(j.parentJobName, null);
    assert.equal(j.location, null);
    assert.match(j.facets.sql.query, /INSERT INTO orders_7_days/i);
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/jobs/nope`)).body, { code: 404, message: "Job 'nope' not found." });
  });

  it('lists a job’s runs with totalCount, reads a run by id, and rebuilds its job and run facets from its events', async () => {
    const runs = await get(`/api/v1/namespaces/${enc(ns())}/jobs/etl_orders/runs?limit=14&offset=0`);
    assert.equal(runs.status, 200);
    assert.equal(runs.body.totalCount, 1);
    const run = runs.body.runs[0];
    const seedRun = (docsOf('marquez/docker__metadata.json').map((d) => d.value) as { job: { name: string }; run: { runId: string } }[]).find((e) => e.job.name === 'etl_orders')!.run.runId;
    assert.equal(run.id, isolatedRunId(p, seedRun));
    assert.equal(run.state, 'COMPLETED');
    assert.deepEqual(run.outputDatasetVersions.map((v: { datasetVersionId: { name: string } }) => v.datasetVersionId.name), ['public.orders']);
    assert.deepEqual((await get(`/api/v1/jobs/runs/${run.id}`)).body, run);
    const jobFacets = await get(`/api/v1/jobs/runs/${run.id}/facets?type=job`);
    assert.equal(jobFacets.body.runId, run.id);
    assert.deepEqual(Object.keys(jobFacets.body.facets).sort(), ['documentation', 'sql']);
    const runFacets = await get(`/api/v1/jobs/runs/${run.id}/facets?type=RUN`);
    assert.deepEqual(Object.keys(runFacets.body.facets), ['nominalTime']);
    assert.equal((await get(`/api/v1/jobs/runs/${run.id}/facets?type=dataset`)).status, 204);
    assert.deepEqual((await get(`/api/v1/jobs/runs/${run.id}/facets`)).body, { errors: ['query param type must not be null'] });
    assert.equal((await get('/api/v1/jobs/runs/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await get('/api/v1/jobs/runs/not-a-uuid')).status, 400);
  });
});

describe('datasets and versions', () => {
  it('lists a namespace’s datasets by name with totalCount; columnLineage is null, never [], without column lineage', async () => {
    const res = await get(`/api/v1/namespaces/${enc(ns())}/datasets?limit=20&offset=0`);
    assert.equal(res.status, 200);
    assert.equal(res.body.totalCount, 14);
    const names = res.body.datasets.map((d: { name: string }) => d.name);
    assert.deepEqual(names, [...names].sort());
    const delivery = res.body.datasets.find((d: { name: string }) => d.name === 'public.delivery_7_days');
    assert.ok(Array.isArray(delivery.columnLineage) && delivery.columnLineage.length > 0);
    const categories = res.body.datasets.find((d: { name: string }) => d.name === 'public.categories');
    assert.equal(categories.columnLineage, null);
    assert.equal(categories.deleted, false);
    assert.equal(categories.type, 'DB_TABLE');
    // Fields in the order of the schema facet, as Marquez lists them.
    assert.deepEqual(categories.fields.map((f: { name: string }) => f.name), ['id', 'name', 'menu_id', 'description']);
    assert.equal((await get(`/api/v1/namespaces/${enc(p)}nope/datasets`)).status, 404);
  });

  it('answers a dataset whose namespace holds ":" and "/" (sent %3A and %2F), with or without a trailing slash', async () => {
    const pg = `${p}postgres://127.0.0.1:15432`;
    const url = `/api/v1/namespaces/${enc(pg)}/datasets/${enc('shop.shop.orders')}`;
    const a = await get(url);
    const b = await get(`${url}/`);
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.id, { namespace: pg, name: 'shop.shop.orders' });
    assert.deepEqual(b.body, a.body);
  });

  it('gives a version per writing run, newest first, the newest being the dataset’s currentVersion', async () => {
    const ds = await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders`);
    const versions = await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/versions?limit=10&offset=0`);
    assert.equal(versions.body.totalCount, 1);
    const v = versions.body.versions[0];
    assert.equal(v.version, ds.body.currentVersion);
    assert.equal(v.createdByRun.state, 'COMPLETED');
    assert.equal(v.updatedAt, undefined);
    assert.ok(v.fields.length > 0);
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/versions/${v.version}`)).body.version, v.version);
    // Never written by a run: no versions.
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.menu_item_id/versions`)).body, { versions: [], totalCount: 0 });
  });
});

describe('lineage', () => {
  const ids = (graph: { id: string }[]) => graph.map((n) => n.id);

  it('depth counts job hops; siblings are included; nodes sorted by id with data-flow edges', async () => {
    const d0 = await get(`/api/v1/lineage?nodeId=${enc(jobs('etl_orders')[0]!)}&depth=0`);
    assert.deepEqual(ids(d0.body.graph), [...datasets('orders'), ...jobs('etl_orders')]);
    // One job hop: the reader of public.orders, with all it reads and writes.
    const d1 = await get(`/api/v1/lineage?nodeId=${enc(jobs('etl_orders')[0]!)}&depth=1`);
    assert.deepEqual(ids(d1.body.graph), [...datasets('categories', 'menu_items', 'menus', 'orders', 'orders_7_days'), ...jobs('etl_orders', 'etl_orders_7_days')]);
    // Two: etl_menus writes public.menus, a sibling input of etl_orders_7_days: neither upstream nor downstream of etl_orders.
    const d2 = await get(`/api/v1/lineage?nodeId=${enc(jobs('etl_orders')[0]!)}&depth=2`);
    assert.ok(ids(d2.body.graph).includes(jobs('etl_menus')[0]!));
    assert.ok(ids(d2.body.graph).includes(jobs('etl_delivery_7_days')[0]!));
    const job = d1.body.graph.find((n: { id: string }) => n.id === jobs('etl_orders_7_days')[0]);
    assert.equal(job.type, 'JOB');
    assert.equal(job.data.type, 'BATCH');
    assert.equal(job.data.latestRun.state, 'COMPLETED');
    assert.deepEqual(job.outEdges, [{ origin: job.id, destination: datasets('orders_7_days')[0] }]);
    assert.equal(job.inEdges.length, 4);
    assert.ok(job.inEdges.every((e: { destination: string }) => e.destination === job.id));
    const orders = d1.body.graph.find((n: { id: string }) => n.id === datasets('orders')[0]);
    assert.equal(orders.data.type, 'DB_TABLE');
    assert.ok(orders.data.fields.length > 0);
    assert.equal(orders.data.facets, undefined);
    assert.deepEqual(orders.inEdges, [{ origin: jobs('etl_orders')[0], destination: orders.id }]);
  });

  it('starts a dataset from all the jobs that touch it, answers the raw ids a Python client sends, and 404s an unknown node', async () => {
    const res = await get(`/api/v1/lineage/?nodeId=${enc(datasets('orders_7_days')[0]!)}&depth=0`);
    // Its writer etl_orders_7_days and its reader etl_delivery_7_days, with everything both read and write.
    const touching = ['categories', 'customers', 'delivery_7_days', 'drivers', 'menu_item_id', 'menu_items', 'menus', 'order_status', 'orders', 'orders_7_days', 'restaurants'];
    assert.deepEqual(ids(res.body.graph), [...datasets(...touching), ...jobs('etl_delivery_7_days', 'etl_orders_7_days')]);
    // Debezium's table: namespace postgres://127.0.0.1:15432, id sent with its ':' and '/' raw.
    const raw = `dataset:${p}postgres://127.0.0.1:15432:shop.shop.orders`;
    const pg = await get(`/api/v1/lineage?nodeId=${enc(raw)}&depth=1`);
    assert.equal(pg.status, 200);
    assert.ok(ids(pg.body.graph).includes(raw));
    assert.deepEqual((await get(`/api/v1/lineage?nodeId=${enc(`dataset:${p}x:y`)}`)).body, { code: 404, message: `Dataset 'y' not found.` });
    assert.equal((await get('/api/v1/lineage?nodeId=foo:bar')).status, 400);
    assert.deepEqual((await get('/api/v1/lineage')).body, { errors: ['query param nodeId must not be null'] });
    assert.deepEqual((await get(`/api/v1/lineage?nodeId=${enc(raw)}&depth=-1`)).body, { errors: ['query param depth must be greater than or equal to 0'] });
  });

  it('column lineage: upstream by default (withDownstream in any case), Marquez’s reversed inEdges, 404 and [] where Marquez answers them', async () => {
    const up = await get(`/api/v1/column-lineage?nodeId=${enc(`datasetField:${ns()}:public.delivery_7_days:order_placed_on`)}&depth=20&withDownstream=False`);
    assert.equal(up.status, 200);
    const start = up.body.graph.find((n: { id: string }) => n.id.endsWith(':public.delivery_7_days:order_placed_on'));
    assert.equal(start.type, 'DATASET_FIELD');
    assert.ok(start.inEdges.length > 0);
    // The quirk the UI follows: inEdges run from the node itself to its inputs.
    for (const e of start.inEdges) assert.equal(e.origin, start.id);
    assert.deepEqual(start.data.inputFields.map((i: { field: string }) => i.field), start.inEdges.map((e: { destination: string }) => e.destination.split(':').pop()));
    const input = up.body.graph.find((n: { id: string }) => n.id === start.inEdges[0].destination);
    assert.deepEqual(input.outEdges.map((e: { destination: string }) => e.destination), [start.id]);
    const both = await get(`/api/v1/column-lineage?nodeId=${enc(`dataset:${ns()}:public.orders_7_days`)}&depth=2&withDownstream=true`);
    assert.ok(both.body.graph.some((n: { id: string }) => n.id.includes(':public.delivery_7_days:')));
    assert.deepEqual((await get(`/api/v1/column-lineage?nodeId=${enc(`dataset:${ns()}:public.categories`)}&depth=2`)).body, { graph: [] });
    const versioned = `dataset:${ns()}:public.orders#00000000-0000-4000-8000-000000000000`;
    assert.equal((await get(`/api/v1/column-lineage?nodeId=${enc(versioned)}&withDownstream=true`)).status, 400);
    assert.equal((await get(`/api/v1/column-lineage?nodeId=${enc(versioned)}`)).status, 200);
  });

  it('says where Tributary’s caps cut an answer Marquez would give whole', async () => {
    const capped = await startService({ TRIBUTARY_MARQUEZ_MAX_NODES: '3', TRIBUTARY_MAX_DEPTH: '2', TRIBUTARY_DEFAULT_DEPTH: '2' });
    try {
      const res = await fetch(`${capped.baseUrl}/api/v1/lineage?nodeId=${enc(jobs('etl_orders')[0]!)}&depth=5`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('tributary-truncated'), 'NODE_LIMIT');
      assert.equal(res.headers.get('tributary-depth'), '2');
      assert.ok(((await res.json()) as { graph: unknown[] }).graph.length <= 4);
    } finally {
      await capped.close();
    }
  });
});

describe('search, events and stats', () => {
  it('searches jobs and datasets, with Marquez’s nodeIds; a blank q is a 400', async () => {
    const res = await get(`/api/v1/search?q=delivery_7_days&sort=update_at&limit=100&namespace=${enc(ns())}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.totalCount, res.body.results.length);
    const nodeIds = res.body.results.map((r: { nodeId: string }) => r.nodeId);
    assert.ok(nodeIds.includes(datasets('delivery_7_days')[0]));
    assert.ok(nodeIds.includes(jobs('etl_delivery_7_days')[0]));
    const onlyJobs = await get(`/api/v1/search?q=delivery_7_days&filter=job&namespace=${enc(ns())}`);
    assert.ok(onlyJobs.body.results.length > 0 && onlyJobs.body.results.every((r: { type: string }) => r.type === 'JOB'));
    assert.deepEqual((await get('/api/v1/search?q=%20')).body, { errors: ['query param q must not be blank'] });
    assert.equal((await get('/api/v1/search?q=x&filter=run')).status, 400);
  });

  it('lists RunEvents in a window, oldest first when asked; the total counts the window', async () => {
    const res = await get('/api/v1/events/lineage?after=2020-02-22T22:42:00.000Z&before=2020-02-22T22:43:00.000Z&sortDirection=asc&limit=500');
    assert.equal(res.status, 200);
    const ours = res.body.events.filter((e: { job: { namespace: string } }) => e.job.namespace === ns());
    assert.equal(ours.length, 13); // the 13 START events at 22:42:42
    assert.ok(res.body.totalCount >= 13);
    const times = res.body.events.map((e: { eventTime: string }) => e.eventTime);
    assert.deepEqual(times, [...times].sort());
    assert.equal((await get('/api/v1/events/lineage?before=yesterday')).status, 400);
  });

  it('answers the dashboard’s stats buckets, and Marquez’s plain-text 400s', async () => {
    const day = await get('/api/v1/stats/lineage-events?period=DAY&timezone=Europe/Berlin');
    assert.equal(day.status, 200);
    assert.equal(day.body.length, 24);
    assert.deepEqual(Object.keys(day.body[0]).sort(), ['abort', 'complete', 'endInterval', 'fail', 'start', 'startInterval']);
    const week = await get(`/api/v1/stats/datasets?period=week&timezone=${enc('America/Los_Angeles')}`);
    assert.equal(week.body.length, 7);
    const counts = week.body.map((b: { count: number }) => b.count);
    assert.deepEqual(counts, [...counts].sort((a: number, b: number) => a - b)); // cumulative
    assert.ok(counts[6] >= 14);
    assert.deepEqual([(await get('/api/v1/stats/jobs?period=YEAR')).status, (await get('/api/v1/stats/jobs?period=YEAR')).text], [400, 'Invalid period']);
    assert.equal((await get('/api/v1/stats/jobs?period=WEEK')).status, 400);
    assert.equal((await get('/api/v1/stats/jobs?period=WEEK&timezone=Mars/Olympus')).status, 400);
  });
});

describe('the writes Marquez’s UI makes', () => {
  it('tags jobs, datasets and fields (field tags upper-cased), describes tags; GraphQL shows them', async () => {
    const job = await get(`/api/v1/namespaces/${enc(ns())}/jobs/etl_orders/tags/${enc('pii é')}`, 'POST');
    assert.deepEqual(job.body.tags, ['pii é']);
    const ds = await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/fields/id/tags/key`, 'POST');
    assert.deepEqual(ds.body.fields.find((f: { name: string }) => f.name === 'id').tags, ['KEY']);
    await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/tags/gold`, 'POST');
    await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/tags/gold`, 'POST'); // idempotent
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders`)).body.tags, ['gold']);
    assert.deepEqual((await get('/api/v1/tags/gold', 'PUT', { description: 'curated' })).body, { name: 'gold', description: 'curated' });
    const tags = (await get('/api/v1/tags?limit=1000')).body.tags;
    assert.ok(tags.some((t: { name: string; description: string }) => t.name === 'gold' && t.description === 'curated'));
    const q = await svc.graphql(`query($j: ID!, $d: ID!) { j: node(id: $j) { ... on Job { tags } } d: node(id: $d) { ... on Dataset { tags fields { name tags } } } }`, {
      j: `job:${ns().replace(/:/g, '%3A')}:etl_orders`,
      d: `dataset:${ns().replace(/:/g, '%3A')}:public.orders`,
    });
    assert.equal(q.errors, undefined, JSON.stringify(q.errors));
    assert.deepEqual(q.data.j.tags, ['pii é']);
    assert.deepEqual(q.data.d.tags, ['gold']);
    assert.deepEqual(q.data.d.fields.find((f: { name: string }) => f.name === 'id').tags, ['KEY']);
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.orders/tags/gold`, 'DELETE')).body.tags, []);
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/jobs/nope/tags/x`, 'POST')).status, 404);
  });

  it('soft-deletes a dataset: left out of lists and lineage, 404 on read, GraphQL says when; a newer event brings it back', async () => {
    const del = await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.discounts`, 'DELETE');
    assert.equal(del.status, 200);
    assert.equal(del.body.name, 'public.discounts');
    const list = await get(`/api/v1/namespaces/${enc(ns())}/datasets?limit=100`);
    assert.equal(list.body.totalCount, 13);
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.discounts`)).status, 404);
    const lineage = await get(`/api/v1/lineage?nodeId=${enc(jobs('email_discounts')[0]!)}&depth=0`);
    assert.ok(!lineage.body.graph.some((n: { id: string }) => n.id === datasets('discounts')[0]));
    const found = await get(`/api/v1/search?q=discounts&filter=dataset&namespace=${enc(ns())}`);
    assert.deepEqual(found.body, { totalCount: 0, results: [] });
    const q = await svc.graphql(`query($d: ID!) { node(id: $d) { ... on Dataset { hiddenAt } } }`, { d: `dataset:${ns().replace(/:/g, '%3A')}:public.discounts` });
    assert.ok(q.data.node.hiddenAt);
    // An event after the deletion names it again.
    const event = {
      eventType: 'COMPLETE', eventTime: new Date(Date.now() + 60_000).toISOString(), producer: 'https://example.com/test', schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId: '0193a1b2-0000-7000-8000-00000000d15c' }, job: { namespace: ns(), name: 'refresh_discounts' },
      inputs: [], outputs: [{ namespace: ns(), name: 'public.discounts' }],
    };
    assert.equal((await svc.postEvent(event)).status, 201);
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.discounts`)).status, 200);
  });
});

describe('hostile requests', () => {
  it('refuses huge, many-part and malformed ids and segments with a 4xx, and serves concurrent lineage', async () => {
    assert.equal((await get(`/api/v1/lineage?nodeId=dataset:${'a'.repeat(12_000)}:b`)).status, 400);
    const tooLong = (await get(`/api/v1/lineage?nodeId=dataset:${'a'.repeat(20_000)}:b`)).status;
    assert.ok(tooLong >= 400 && tooLong < 500, `status ${tooLong}`);
    assert.equal((await get(`/api/v1/lineage?nodeId=datasetField:${'a:'.repeat(100)}b`)).status, 400);
    assert.equal((await get(`/api/v1/namespaces/${'%E0%A4%A'}/datasets`)).status, 400);
    assert.equal((await get(`/api/v1/namespaces/${enc('ünïcødé ☃')}/jobs`)).status, 200);
    assert.equal((await get('/api/v1/jobs?limit=abc')).status, 400);
    const big = await get('/api/v1/jobs?limit=100000');
    assert.equal(big.headers.get('tributary-limit'), '1000');
    // Twenty tags put on one dataset at once, its Annotation created by the first: none is lost.
    const tagged = await Promise.all(Array.from({ length: 20 }, (_, i) => get(`/api/v1/namespaces/${enc(ns())}/datasets/public.menus/tags/c${i}`, 'POST')));
    assert.ok(tagged.every((r) => r.status === 200));
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/datasets/public.menus`)).body.tags.length, 20);
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/jobs/etl_menus/tags/${'x'.repeat(300)}`, 'POST')).status, 400);
    // A 300-character dataset name in the path (S3 paths are long) is a name, not a 414.
    assert.deepEqual((await get(`/api/v1/namespaces/${enc(ns())}/datasets/${enc(`s3://bucket/${'p/'.repeat(150)}`)}`)).body, { code: 404, message: `Dataset 's3://bucket/${'p/'.repeat(150)}' not found.` });
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/datasets/${'x'.repeat(5_000)}`)).status, 400);
    assert.equal((await get(`/api/v1/namespaces/${enc(ns())}/datasets/nope`, 'DELETE')).status, 404);
    const many = await Promise.all(Array.from({ length: 20 }, () => get(`/api/v1/lineage?nodeId=${enc(jobs('etl_orders')[0]!)}&depth=20`)));
    assert.ok(many.every((r) => r.status === 200));
    assert.ok(many.every((r) => JSON.stringify(r.body) === JSON.stringify(many[0]!.body)));
  });
});
