import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ensureMarquezWeb, serveMarquezWeb, type MarquezWebServer } from '../../tools/marquez-web/marquez-web';
import { startService, type TestService } from '../support/app';
import { launchBrowser } from '../support/browser';
import { docsOf, repoRoot } from '../support/corpus';
import { isolate, uniquePrefix } from '../support/isolate';
import { shapesColdAfterWarmUp } from '../support/warm-shapes';

/**
 * Marquez's own web UI, unmodified (tag 0.51.1, built from Marquez's source by
 * tools/marquez-web/marquez-web.ts and served by its own setupProxy.js), against Tributary's
 * Marquez API, in the project's headless Chromium: the dashboard, jobs, a job with its runs and
 * facets, datasets, a dataset with its versions, the lineage graph, column lineage, search and
 * events, over Marquez's demo seed and the seed stack's real Debezium, Flink and Spark captures.
 * Every page must render the expected names with no script error and no failed API call.
 * Screenshots: web/screenshots/marquez-ui-*.png. The first run builds the UI (about 9 minutes, kept
 * under ~/.cache; see tools/marquez-web/README.md), which is why this tier is not in `npm test`:
 * `npm run test:marquez-ui` (run by .ci/run).
 */
let svc: TestService;
let web: MarquezWebServer;
let browser: Browser;
let ns: string;
const shots = path.join(repoRoot, 'web', 'screenshots');

/** Console noise of the UI itself, offline (not Tributary's): Google Fonts unreachable, and its build's broken .ttf copies. */
const OFFLINE_NOISE = [/ERR_NAME_NOT_RESOLVED/, /Failed to decode downloaded font/, /OTS parsing error/];

before(async () => {
  const log = (m: string) => process.stdout.write(`# ${m}\n`);
  await ensureMarquezWeb(log);
  // A refresher whose timer never fires: its record of the shapes run is what the last test reads.
  svc = await startService({ TRIBUTARY_PLAN_REFRESH_S: '3600' });
  const p = uniquePrefix('marquez-ui');
  ns = `${p}food_delivery`;
  for (const d of docsOf('marquez/docker__metadata.json')) assert.equal((await svc.postEvent(isolate(d.value, p))).status, 201);
  for (const file of ['debezium', 'flink', 'spark']) {
    const lines = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'seed-stack', `${file}.ndjson`), 'utf8').split('\n').filter(Boolean);
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(lines.map((l) => isolate(JSON.parse(l), p))));
    assert.equal(res.body.summary.failed, 0);
  }
  web = await serveMarquezWeb({ marquezHost: '127.0.0.1', marquezPort: Number(new URL(svc.baseUrl).port) }, log);
  browser = await launchBrowser();
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
  await web?.stop();
  await svc?.close();
});

interface Visit {
  page: Page;
  problems: string[];
  api: string[];
}

/** Opens `route` with the seed's namespace selected, collecting script errors and failed API calls. */
async function open(route: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // The UI selects the namespace its localStorage names (its own reducer reads selectedNamespace).
  await context.addInitScript(`localStorage.setItem('selectedNamespace', ${JSON.stringify(ns)})`);
  const page = await context.newPage();
  const problems: string[] = [];
  const api: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !OFFLINE_NOISE.some((r) => r.test(m.text()))) problems.push(`console: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e).slice(0, 300)}`));
  page.on('response', (r) => {
    if (!r.url().includes('/api/')) return;
    api.push(`${r.status()} ${decodeURIComponent(new URL(r.url()).pathname)}`);
    if (r.status() >= 400) problems.push(`API ${r.status()} ${r.url().slice(0, 300)}`);
  });
  await page.goto(web.url + route, { waitUntil: 'networkidle' });
  return { page, problems, api };
}

/** Waits until the page's HTML (SVG text included) holds every one of `names`. */
async function shows(v: Visit, names: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let missing = names;
  while (Date.now() < deadline) {
    const html = await v.page.content();
    missing = names.filter((n) => !html.includes(n));
    if (missing.length === 0) return;
    await v.page.waitForTimeout(500);
  }
  assert.fail(`not shown: ${missing.join(', ')} (API calls: ${v.api.join('; ')})`);
}

/** Waits until the page has had an answer to a call whose status and path start with `prefix` ("200 /api/..."). */
async function answered(v: Visit, prefix: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (v.api.some((a) => a.startsWith(prefix))) return;
    await v.page.waitForTimeout(250);
  }
  assert.fail(`no ${prefix} (API calls: ${v.api.join('; ')})`);
}

async function done(v: Visit, shot: string): Promise<void> {
  await v.page.waitForTimeout(1_000);
  await v.page.screenshot({ path: path.join(shots, `marquez-ui-${shot}.png`), timeout: 60_000, animations: 'disabled' });
  assert.deepEqual(v.problems, []);
  await v.page.context().close();
}

const enc = encodeURIComponent;

describe('Marquez web UI 0.51.1 on Tributary', () => {
  it('dashboard: the event chart, counters and the newest jobs', async () => {
    const newest = (await (await fetch(`${svc.baseUrl}/api/v1/jobs?limit=10`)).json()) as { jobs: { name: string }[] };
    const v = await open('/');
    await shows(v, [newest.jobs[0]!.name]);
    // The dashboard asks for its charts' figures on its own schedule, not always before the job list.
    await answered(v, '200 /api/v1/stats/lineage-events');
    await answered(v, '200 /api/v1/stats/jobs');
    await done(v, 'dashboard');
  });

  it('jobs: the namespace’s jobs', async () => {
    const v = await open('/jobs');
    await shows(v, ['etl_orders_7_days', 'delivery_times_7_days', 'etl_delivery_7_days']);
    await done(v, 'jobs');
  });

  it('a job: its lineage and its detail with runs and SQL facet', async () => {
    // The UI opens a node's drawer (JobDetailPage: runs, facets) from ?tableLevelNode=<node id>.
    const v = await open(`/lineage/job/${enc(ns)}/etl_orders_7_days?tableLevelNode=${enc(`job:${ns}:etl_orders_7_days`)}`);
    await shows(v, ['etl_orders_7_days', 'public.orders_7_days', 'public.menus', 'Loads newly placed orders weekly', 'INSERT INTO orders_7_days', 'COMPLETED']);
    assert.ok(v.api.some((a) => /^200 \/api\/v1\/jobs\/runs\/[0-9a-f-]+\/facets$/.test(a)), v.api.join('; '));
    assert.ok(v.api.some((a) => a.startsWith(`200 /api/v1/namespaces/${ns}/jobs/etl_orders_7_days`)), v.api.join('; '));
    await done(v, 'job');
  });

  it('datasets: the namespace’s datasets, with a column-lineage link where there is some', async () => {
    const v = await open('/datasets');
    await shows(v, ['public.delivery_7_days', 'public.categories', 'public.orders']);
    await done(v, 'datasets');
  });

  it('a dataset: lineage graph with its fields, the dataset’s detail and versions', async () => {
    const v = await open(`/lineage/dataset/${enc(ns)}/public.delivery_7_days?tableLevelNode=${enc(`dataset:${ns}:public.delivery_7_days`)}`);
    // The drawer's text (the dataset's description) comes from its own request, after the graph's.
    await shows(v, ['public.delivery_7_days', 'etl_delivery_7_days', 'public.orders_7_days', 'customer_email', 'A table for weekly deliveries']);
    assert.ok(v.api.some((a) => a.startsWith(`200 /api/v1/namespaces/${ns}/datasets/public.delivery_7_days`)), v.api.join('; '));
    await done(v, 'dataset-lineage');
  });

  it('a table of the real captures: Debezium’s PostgreSQL table, whose namespace holds ":" and "/"', async () => {
    const pg = `${ns.slice(0, -'food_delivery'.length)}postgres://127.0.0.1:15432`;
    const v = await open(`/lineage/dataset/${enc(pg)}/${enc('shop.shop.orders')}`);
    await shows(v, ['shop.shop.orders', 'pg.shop.orders']);
    await done(v, 'debezium-lineage');
  });

  it('column lineage: the fields of delivery_7_days and their inputs', async () => {
    const v = await open(`/datasets/column-level/${enc(ns)}/public.delivery_7_days`);
    await shows(v, ['customer_email', 'public.customers', 'order_placed_on']);
    assert.ok(v.api.some((a) => a.startsWith('200 /api/v1/column-lineage')));
    await done(v, 'column-lineage');
  });

  it('search: the header box finds jobs and datasets', async () => {
    const v = await open('/');
    await v.page.locator('#searchBar').first().fill('delivery_7');
    await shows(v, ['etl_delivery_7_days']);
    assert.ok(v.api.some((a) => a.startsWith('200 /api/v1/search')), v.api.join('; '));
    await done(v, 'search');
  });

  it('events: the seed’s events in the window the page’s URL names', async () => {
    const v = await open('/events?dateFrom=2020-02-22T00:00:00.000Z&dateTo=2020-02-22T23:59:59.000Z');
    // Newest first: the seed's last event is delivery_times_7_days' COMPLETE at 22:58:02.
    await shows(v, ['delivery_times_7_days', 'COMPLETE', 'Feb 22, 2020']);
    assert.ok(v.api.some((a) => a.startsWith('200 /api/v1/events/lineage')), v.api.join('; '));
    await done(v, 'events');
  });

  it('every query shape these pages ran is one the default warm-up compiles', () => {
    // Else the first user to open that page after a start waits for a plan (about a second).
    assert.deepEqual(shapesColdAfterWarmUp(svc), []);
  });
});
