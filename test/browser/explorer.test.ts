import assert from 'node:assert/strict';
import { randomBytes, randomUUID as randomUUIDv4 } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { generate } from '../../bench/generator';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { connectorEvent } from '../../src/kafka-connect/events';
import { SqlDeclarer } from '../../src/sql/declarer';
import { SqlParsePool } from '../../src/sql/parse-pool';
import { startService, type TestService } from '../support/app';
import { shapesColdAfterWarmUp } from '../support/warm-shapes';
import { launchBrowser } from '../support/browser';
import { backwardEdgesClearOfNodes, labelsApart } from '../support/canvas';
import { docsOf, isAccepted, manifest, repoRoot } from '../support/corpus';
import { crossEngine, type CrossEngine } from '../support/cross-engine';
import { scratchDir } from '../support/scratch';
import { seedDelivery, type SeedDelivery } from '../support/seed-stack';

/**
 * The explorer in a real headless Chromium against a real service and Neo4j loaded with the corpus,
 * the cross-engine scenario (Debezium → Flink → Iceberg → Spark → dbt, shaped as those producers send them, with symlinks and a precision
 * loss) and a generated stream: what a user sees, asserted from the page. Screenshots of each view
 * go to web/screenshots/ (git-ignored).
 */
const SHOTS = path.join(repoRoot, 'web', 'screenshots');
let svc: TestService;
let browser: Browser;
let page: Page;
let scenario: CrossEngine;
let seed: SeedDelivery;
const errors: string[] = [];

before(async () => {
  scenario = crossEngine(`b${randomBytes(3).toString('hex')}`);
  // The rules lineageBreaks suggests for the scenario (its API test shows them suggested): with them
  // the trace crosses the Iceberg table's two names and reaches the source table.
  const rules = path.join(scratchDir('explorer-rules-'), 'rules.json');
  fs.writeFileSync(rules, JSON.stringify(scenario.identityRules));
  // A refresher whose timer never fires: its record of the shapes run is what the last test reads.
  svc = await startService({ TRIBUTARY_IDENTITY_RULES: rules, TRIBUTARY_PLAN_REFRESH_S: '3600' });
  seed = seedDelivery(`b${randomBytes(3).toString('hex')}`);
  const corpus = manifest()
    .filter((m) => !m.templated)
    .flatMap((m) => docsOf(m.file))
    .filter((d) => isAccepted(d.value))
    .map((d) => d.value);
  const generated = generate({ jobs: 60, runsPerJob: 2, layers: 8, columnLineageShare: 0.6, seed: 7, nameOffset: 30_000_000 + Math.floor(Math.random() * 1e6) }).events;
  for (const events of [corpus, scenario.events, seed.events, generated]) {
    for (let i = 0; i < events.length; i += 200) {
      const res = await fetch(`${svc.baseUrl}/api/v1/lineage/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(events.slice(i, i + 200)),
      });
      assert.ok(res.status < 300, `batch answered ${res.status}`);
    }
  }
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(60_000);
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
const canvasReady = () => page.waitForSelector('[data-laid-out="true"] .react-flow__node');
const labels = async () => page.locator('.react-flow__node .entity-label').allInnerTexts();

describe('the explorer in a browser', () => {
  it('a newcomer finds a table by typing part of its name, with the keyboard only, and sees its lineage', async () => {
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('heading', { name: 'Lineage explorer' }).waitFor();
    await page.keyboard.press('/');
    assert.equal(await page.getByRole('combobox', { name: 'Search datasets, jobs and fields' }).evaluate((el: any) => el === el.ownerDocument.activeElement), true, '"/" focuses the search box');
    await page.keyboard.type('daily_reve');
    // The box offers the best ten as you type; other scenarios in the shared test database have a
    // daily_revenue too, so the last option ("Every hit") lists them all, and Enter on ours opens it.
    await page.getByRole('option', { name: /Every hit for/ }).waitFor();
    const offered = await page.getByRole('option').count();
    for (let i = 0; i < offered - 1; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=daily_reve/);
    // One hit stands for the dataset's two names (the S3 path and the catalog table), the other shown beside it.
    const ours = page.locator('.hits li').filter({ hasText: scenario.ns.hive }).filter({ hasText: 'db.daily_revenue' });
    await ours.first().waitFor();
    assert.equal(await ours.count(), 1, 'one hit for the path and the catalog name');
    assert.match(await ours.getByTestId('also-named').innerText(), /also (db\.daily_revenue|warehouse\/db\/daily_revenue)/);
    await ours.getByRole('link').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/lineage\?/);
    const names = [datasetId(scenario.ns.hive, 'db.daily_revenue'), datasetId(scenario.ns.s3, 'warehouse/db/daily_revenue')];
    const opened = new URL(page.url()).searchParams.get('node')!;
    assert.ok(names.includes(opened), opened);
    await canvasReady();
    const seen = await labels();
    // The canvas draws the path and the catalog name as one node, named by the catalog name, the path beside it.
    for (const name of ['db.daily_revenue', 'model.shop.revenue_report', 'analytics.revenue_report']) assert.ok(seen.includes(name), `${name} drawn: ${seen.join(', ')}`);
    assert.ok((await page.locator('.entity-root .entity-alias').allInnerTexts()).some((a) => a.includes('warehouse/db/daily_revenue')));
    await shot('lineage');
  });

  it('colours each job → output edge by coverage: column level vs dataset level only', async () => {
    const root = datasetId(scenario.ns.hive, 'db.daily_revenue');
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(root)}&up=6&down=2`);
    await canvasReady();
    const edges = page.locator('.react-flow__edge');
    assert.ok((await edges.locator('xpath=self::*[contains(@class,"edge-column")]').count()) >= 2, 'Spark and dbt write with column lineage');
    assert.ok((await edges.locator('xpath=self::*[contains(@class,"edge-dataset")]').count()) >= 1, 'the Flink SQL job writes at dataset level only');
    assert.match(await page.getByTestId('truncated').innerText(), /continues beyond this depth/);
    // Keyboard: focus a node, Enter selects it and opens its actions beside the canvas.
    const job = page.locator('.react-flow__node', { hasText: 'model.shop.revenue_report' });
    await job.focus();
    await page.keyboard.press('Enter');
    await page.locator('.selected h2', { hasText: 'model.shop.revenue_report' }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'Expand its next hop' }).isVisible());
  });

  it('column mode lists fields and draws field edges with their transformation; a permalink reopens the same view', async () => {
    const root = datasetId(scenario.ns.hive, 'db.daily_revenue');
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(root)}`);
    await canvasReady();
    await page.getByLabel('Upstream').fill('4');
    await page.getByRole('radio', { name: 'Columns' }).check();
    await page.waitForURL(/mode=column/);
    await canvasReady();
    const fields = await page.locator('.entity-root .entity-fields li').allInnerTexts();
    assert.deepEqual(fields.map((f) => f.trim()).sort(), ['day', 'revenue']);
    const edgeLabels = (await labelsApart(page)).texts;
    assert.ok(edgeLabels.some((t) => /AGGREGATION|GROUP_BY|FILTER/.test(t)), `transformation labels: ${edgeLabels.join(' | ')}`);
    const url = page.url();
    const count = await page.getByTestId('node-count').innerText();
    await shot('column-lineage');
    const other = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await other.goto(url);
      await other.waitForSelector('[data-laid-out="true"] .react-flow__node', { timeout: 60_000 });
      assert.equal(await other.getByTestId('node-count').innerText(), count);
      assert.equal(await other.getByLabel('Upstream').inputValue(), '4');
      assert.ok(await other.getByRole('radio', { name: 'Columns' }).isChecked());
    } finally {
      await other.close();
    }
  });

  it('a trace marks the first precision loss on the canvas and in the list, as the API reports it', async () => {
    const start = fieldId(scenario.ns.hive, 'analytics.revenue_report', 'total');
    // The explorer shows DIRECT dependencies first; INDIRECT ones on request.
    const api = await svc.graphql(`query($id: ID!) { trace(nodeId: $id, dependencies: DIRECT) { hops { fromId } firstPrecisionLoss { jobId distance } stops { datasetId reason } } }`, { id: start });
    const all = await svc.graphql(`query($id: ID!) { trace(nodeId: $id) { hops { fromId } } }`, { id: start });
    const loss = api.data.trace.firstPrecisionLoss;
    assert.equal(loss.jobId, jobId(scenario.ns.flink, scenario.sqlJob));
    await page.goto(`${svc.baseUrl}/trace?node=${encodeURIComponent(start)}`);
    const note = await page.getByTestId('precision-loss').innerText();
    assert.match(note, new RegExp(`hop ${loss.distance}: insert-into_iceberg_${scenario.tag}\\.db\\.orders_enriched`));
    assert.equal(await page.getByTestId('hop-count').innerText(), `${api.data.trace.hops.length} hops`);
    await canvasReady();
    assert.equal(await page.locator('.react-flow__node .badge-loss').count(), 1, 'one node marked where precision is lost');
    assert.equal(await page.locator('.hops .hop-loss').count(), 1);
    assert.match(await page.locator('.hops .hop-loss').innerText(), /first precision loss/);
    // Where lineage stops: the source table, in words, marked on the canvas.
    // (Other scenarios in the shared database may offer other names for the source table: the reason is the API's.)
    assert.equal(api.data.trace.stops.length, 1);
    assert.equal(api.data.trace.stops[0].datasetId, datasetId(scenario.ns.postgres, 'shop.public.orders'));
    assert.match(await page.getByTestId('stops').innerText(), /shop\.public\.orders/);
    assert.equal(await page.locator('.react-flow__node .badge-stop').count(), 1);
    await shot('trace');
    await page.getByLabel('Indirect dependencies too').check();
    await page.getByTestId('hop-count').filter({ hasText: `${all.data.trace.hops.length} hops` }).waitFor();
    assert.ok(all.data.trace.hops.length > api.data.trace.hops.length, 'INDIRECT dependencies add hops');
  });

  it('draws edge labels that never overlap, on the real Spark capture\'s trace with every INDIRECT dependency, and says how many it left out', async () => {
    const summary = seed.name('<wd>/warehouse/shop/revenue_summary');
    const id = fieldId('file', summary, 'revenue');
    const all = await svc.graphql(`query($id: ID!) { trace(nodeId: $id) { hops { fromId toId types subtypes } } }`, { id });
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const indirect = all.data.trace.hops.filter((h: { types: string[] | null }) => h.types?.includes('INDIRECT'));
    assert.ok(indirect.length >= 1, `INDIRECT hops on the real capture: ${indirect.length}`);
    await page.goto(`${svc.baseUrl}/trace?node=${encodeURIComponent(id)}&deps=all`);
    await page.getByTestId('hop-count').filter({ hasText: `${all.data.trace.hops.length} hops` }).waitFor();
    await canvasReady();
    const { texts, left } = await labelsApart(page);
    // Every hop has an edge; each edge is either labelled in a free place or counted as left out.
    const edges = await page.locator('.react-flow__edge').count();
    assert.ok(texts.length >= 2, `labels drawn: ${texts.join(' | ')} (${left} left out)`);
    assert.ok(texts.length + left <= edges, `${texts.length} drawn + ${left} left out ≤ ${edges} edges`);
    if (left > 0) assert.match(await page.getByTestId('edge-labels').innerText(), new RegExp(`${left} edge labels? left out`));
    await shot('trace-indirect-labels');
    // The summary's column lineage, upstream: Spark's field edges and its INDIRECT dependencies.
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(datasetId('file', summary))}&mode=column&up=4&down=2`);
    await canvasReady();
    const column = await labelsApart(page);
    assert.ok(column.texts.length >= 2, `labels drawn: ${column.texts.join(' | ')}`);
    await shot('column-lineage-labels');
  });

  it('draws an edge that runs backwards (a job reading the table it writes) around its nodes, not through them', async () => {
    // The corpus's Marquez event: myjob.mytask reads and writes instance.schema.table.
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(datasetId('my-datasource-namespace', 'instance.schema.table'))}`);
    await canvasReady();
    await labelsApart(page);
    assert.ok((await backwardEdgesClearOfNodes(page)) >= 1, 'the read edge runs backwards');
    await shot('backward-edge');
  });

  it('blast radius: totals, groups by distance and the last run state, as the API counts them', async () => {
    const source = datasetId(scenario.ns.postgres, 'shop.public.orders');
    const api = await svc.graphql(`query($id: ID!) { blastRadius(nodeId: $id) { totals { items datasets jobs } } }`, { id: source });
    await page.goto(`${svc.baseUrl}/impact?node=${encodeURIComponent(source)}`);
    const totals = await page.getByTestId('impact-totals').innerText();
    const t = api.data.blastRadius.totals;
    assert.match(totals, new RegExp(`${t.items}\\s+affected in all`));
    assert.match(totals, new RegExp(`${t.datasets}\\s+datasets`));
    assert.ok(await page.getByRole('heading', { name: /1 hop away/ }).isVisible());
    assert.ok((await page.locator('.state').allInnerTexts()).includes('COMPLETE'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync((await (await download).path())!, 'utf8').trim().split('\n');
    assert.equal(csv.length, t.items + 1, 'a header and one line per affected item');
    await shot('blast-radius');
  });

  it('the coverage dashboard shows the same figure as the GraphQL answer', async () => {
    const ns = scenario.ns.spark;
    const api = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { columnLevelShare edges } } }`, { ns });
    const share = `${(api.data.coverage.overall.columnLevelShare * 100).toFixed(1)}%`;
    await page.goto(`${svc.baseUrl}/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}`);
    const overall = await page.getByTestId('coverage-overall').innerText();
    assert.ok(overall.includes(share), `${share} in ${overall}`);
    assert.match(overall, new RegExp(`${api.data.coverage.overall.edges}\\s+edges`));
    await page.goto(`${svc.baseUrl}/coverage`);
    await page.getByTestId('gaps').waitFor();
    await shot('coverage');
  });

  it('the coverage dashboard lists the jobs whose lineage is unknown, with the reason, apart from the ranked gaps', async () => {
    const cluster = `b-connect-${randomBytes(3).toString('hex')}`;
    const snapshot = { name: 'mm2-checkpoints', type: 'source', config: { 'connector.class': 'org.apache.kafka.connect.mirror.MirrorCheckpointConnector' }, connectorState: 'RUNNING', connectorTrace: null, tasks: [{ id: 0, state: 'RUNNING' }] };
    const { event } = connectorEvent(cluster, snapshot, { kafkaNamespace: 'kafka://broker:9092', knownTopics: [] }, new Date());
    assert.equal((await svc.postEvent(event)).status, 201);
    await page.goto(`${svc.baseUrl}/coverage?scope=NAMESPACE&value=${encodeURIComponent(`kafka-connect://${cluster}`)}`);
    const table = page.getByTestId('lineage-unknown');
    await table.waitFor();
    const text = await table.innerText();
    assert.match(text, /mm2-checkpoints/);
    assert.match(text, /MirrorCheckpointConnector is not in the mapping table/);
    await shot('coverage-lineage-unknown');
  });

  it('draws the edges of a collected Kafka Connect connector dotted, in their own tone, saying why', async () => {
    const cluster = `b-connect-${randomBytes(3).toString('hex')}`;
    const snapshot = {
      name: 'orders-archive',
      type: 'sink',
      config: { 'connector.class': 'org.apache.kafka.connect.file.FileStreamSinkConnector', topics: 'pg.shop.orders', file: `/archive/${cluster}.jsonl` },
      connectorState: 'RUNNING',
      connectorTrace: null,
      tasks: [{ id: 0, state: 'RUNNING' }],
    };
    const { event } = connectorEvent(cluster, snapshot, { kafkaNamespace: `kafka://${cluster}:9092`, knownTopics: [] }, new Date());
    assert.equal((await svc.postEvent(event)).status, 201);
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(jobId(`kafka-connect://${cluster}`, 'orders-archive'))}`);
    const collected = page.locator('.react-flow__edge.edge-collected');
    await collected.first().waitFor();
    assert.equal(await collected.count(), 2, 'its read and its write');
    assert.match((await collected.first().getAttribute('aria-label')) ?? '', /collected by Tributary \(kafka-connect/);
    assert.match(await page.getByLabel('legend').innerText(), /collected: a Kafka Connect connector's configuration/);
    await shot('lineage-collected');
  });

  it("draws the table a job's SQL reads and its events do not list dash-dotted, titled with the statement's position", async () => {
    const declarer = new SqlDeclarer(svc.app.executor, new SqlParsePool({ timeoutMs: 20_000, coldTimeoutMs: 60_000, maxQueue: 100 }), 0);
    try {
      const round = await declarer.round(`spark-batch-${seed.tag}`);
      assert.equal(round?.unparsed, 0, JSON.stringify(round));
    } finally {
      await declarer.stop();
    }
    const spark = jobId(`spark-batch-${seed.tag}`, 'revenue_summary.overwrite_by_expression.lake_shop_revenue_summary');
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent(spark)}`);
    const declared = page.locator('.react-flow__edge.edge-declared');
    await declared.first().waitFor();
    assert.equal(await declared.count(), 1, 'the Flink table it reads by its catalog name');
    assert.match((await declared.first().getAttribute('aria-label')) ?? '', new RegExp(`declared: the job's SQL reads lake${seed.tag}\\.shop\\.orders_by_country \\(line 4, column 23\\)`));
    assert.match(await page.getByLabel('legend').innerText(), /declared: the job's SQL names the table, its events do not/);
    await shot('lineage-declared');

    // The trace of the summary column says what it leaves, and follows it when asked.
    await page.goto(`${svc.baseUrl}/trace?node=${encodeURIComponent(fieldId('file', seed.name('<wd>/warehouse/shop/revenue_summary'), 'revenue'))}`);
    const notice = page.getByTestId('unfollowed');
    await notice.waitFor();
    assert.match(await notice.innerText(), new RegExp(`1 hop that jobs' SQL declares is not followed \\(first: .*reads lake${seed.tag}\\.shop\\.orders_by_country\\)`));
    await notice.getByRole('button', { name: 'Follow them' }).click();
    const declaredHop = page.locator('.react-flow__edge.edge-declared');
    await declaredHop.first().waitFor();
    assert.match(await page.getByLabel('hops').innerText(), new RegExp(`declared: its SQL reads lake${seed.tag}\\.shop\\.orders_by_country \\(line 4, column 23\\), which its events do not list`));
    assert.ok(page.url().includes('ev=all'), page.url());
    assert.match(await page.getByTestId('precision-kept').innerText(), /the declared hops are dataset level/);
    await shot('trace-declared');

    // The coverage dashboard counts a declared output apart: a Flink SQL job that reports its input only.
    const ns = `b-sql-${randomBytes(3).toString('hex')}`;
    const db = ns.replace(/-/g, '_');
    const ev = (name: string, extra: Record<string, unknown>) => ({
      eventType: 'COMPLETE', eventTime: new Date().toISOString(), producer: 'https://tributary.test/sql',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent', run: { runId: randomUUIDv4() },
      job: { namespace: ns, name }, inputs: [], outputs: [], ...extra,
    });
    const sink = ev('sink', { inputs: [{ namespace: `${ns}-wh`, name: `${db}.src` }] });
    (sink.job as Record<string, unknown>).facets = { sql: { _producer: 'https://tributary.test/sql', _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json', query: `INSERT INTO ${db}.landed SELECT * FROM ${db}.src`, dialect: 'flink' } };
    const events = [sink, ev('consumer', { inputs: [{ namespace: `${ns}-wh`, name: `${db}.landed` }], outputs: [{ namespace: `${ns}-wh`, name: `${db}.report` }] })];
    const res = await fetch(`${svc.baseUrl}/api/v1/lineage/batch`, { method: 'POST', headers: { 'content-type': 'application/json', 'Tributary-Wait': 'projected' }, body: JSON.stringify(events) });
    assert.equal(res.status, 200, await res.text());
    const second = new SqlDeclarer(svc.app.executor, new SqlParsePool({ timeoutMs: 20_000, coldTimeoutMs: 60_000, maxQueue: 100 }), 0);
    try {
      assert.equal((await second.round(ns))?.parsed, 1);
    } finally {
      await second.stop();
    }
    await page.goto(`${svc.baseUrl}/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}`);
    const note = page.getByTestId('declared-edges');
    await note.waitFor();
    assert.match(await note.innerText(), /Not counted above: 1 output edge that jobs' SQL declares and their events do not report/);
    const paired = page.getByTestId('declared-breaks');
    await paired.waitFor();
    assert.match(await paired.innerText(), new RegExp(`STRONG ${db}\\.landed \\(read, never written\\): sink's SQL writes ${db}\\.landed \\(line 1, column 12\\)\\s+the job reports no output at all`));
    await shot('coverage-declared');
  });

  it('the coverage dashboard lists the last day\'s regression with its likely cause, as lineageDiff reports it', async () => {
    const ns = `b-diff-${randomBytes(3).toString('hex')}`;
    const hour = 3_600_000;
    const ev = (runId: string, hoursAgo: number, version: string, cll: boolean) => ({
      eventType: 'COMPLETE',
      eventTime: new Date(Date.now() - hoursAgo * hour).toISOString(),
      producer: `https://github.com/OpenLineage/OpenLineage/tree/${version}/integration/spark`,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId },
      job: { namespace: ns, name: 'nightly_orders' },
      inputs: [{ namespace: ns, name: 'raw_orders' }],
      outputs: [{ namespace: ns, name: 'orders', facets: cll ? { columnLineage: { _producer: 'p', _schemaURL: 's', fields: { id: { inputFields: [{ namespace: ns, name: 'raw_orders', field: 'id' }] } } } } : {} }],
    });
    for (const e of [ev(randomUUIDv4(), 48, '1.52.0', true), ev(randomUUIDv4(), 2, '1.53.0', false)]) assert.equal((await svc.postEvent(e)).status, 201);
    const from = new Date(Date.now() - 24 * hour).toISOString();
    const api = await svc.graphql(`query($ns: String, $from: String!) { lineageDiff(scope: NAMESPACE, value: $ns, from: $from) { changes { items { kind jobId cause } } } }`, { ns, from });
    assert.deepEqual(api.data.lineageDiff.changes.items, [
      { kind: 'GRANULARITY_REGRESSED', jobId: jobId(ns, 'nightly_orders'), cause: 'PRODUCER_VERSION_CHANGED' },
      { kind: 'FIELD_EDGE_DISAPPEARED', jobId: jobId(ns, 'nightly_orders'), cause: null },
    ]);
    await page.goto(`${svc.baseUrl}/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}&days=1`);
    const rows = page.getByTestId('granularity-changes').locator('tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    const cells = await rows.first().locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 4), ['column → dataset level', 'nightly_orders', 'orders', 'producer version changed']);
    assert.match(await page.getByTestId('recent-changes').innerText(), /100\.0% \(1 edge\) → 0\.0% \(1 edge\)\. 1 granularity regressed, 1 field edge disappeared\./);
    await shot('coverage-changes');
  });

  it('the coverage badge renders in the browser with the GraphQL figure, and the widget in an iframe', async () => {
    const ns = scenario.ns.spark;
    const api = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { columnLevelShare } } }`, { ns });
    const share = `${(api.data.coverage.overall.columnLevelShare * 100).toFixed(1)}%`;
    await page.goto(`${svc.baseUrl}/embed/coverage.svg?scope=NAMESPACE&value=${encodeURIComponent(ns)}`);
    assert.equal(await page.locator('text.value').textContent(), share);
    const box = await page.locator('svg').boundingBox();
    assert.ok(box && box.width > 80 && box.height === 20, `rendered ${JSON.stringify(box)}`);
    await shot('badge');
    fs.writeFileSync(path.join(SHOTS, 'badge.svg'), await (await fetch(`${svc.baseUrl}/embed/coverage.svg?scope=ENGINE&value=spark`)).text());
    await page.goto('about:blank');
    await page.setContent(`<iframe src="${svc.baseUrl}/embed/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}" width="400" height="300"></iframe>`);
    // Framed from another origin (about:blank) than TRIBUTARY_EMBED_FRAME_ANCESTORS allows ('self' by default): blocked.
    const frame = page.frames().find((f) => f.url().includes('/embed/coverage'));
    const shown = frame ? await frame.locator('.share').count().catch(() => 0) : 0;
    assert.equal(shown, 0, 'the default frame-ancestors refuses other origins');
    await page.goto(`${svc.baseUrl}/embed/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}`);
    assert.equal(await page.locator('.share').innerText(), share);
  });

  it('node pages: a corpus dataset with its schema, a job with its runs', async () => {
    const api = await svc.graphql(`{ datasets(first: 50) { items { id name fields { name } } } }`);
    const withSchema = (api.data.datasets.items as { id: string; name: string; fields: { name: string }[] }[]).find((d) => d.fields.length >= 2)!;
    assert.ok(withSchema, 'the corpus has datasets with schemas');
    await page.goto(`${svc.baseUrl}/dataset?id=${encodeURIComponent(withSchema.id)}`);
    assert.match(await page.getByRole('heading', { level: 2, name: /Schema/ }).innerText(), new RegExp(`${withSchema.fields.length} fields`));
    await shot('dataset');
    // A catalog name written only under its S3 path: the page names the other name and its writer.
    await page.goto(`${svc.baseUrl}/dataset?id=${encodeURIComponent(datasetId(scenario.ns.hive, 'db.daily_revenue'))}`);
    await page.getByTestId('aliases').waitFor();
    assert.match(await page.getByTestId('aliases').innerText(), /warehouse\/db\/daily_revenue/);
    assert.match(await page.locator('.facts').innerText(), /Written by\s+daily_revenue\.execute_insert_into_hadoop_fs_relation_command/);
    await page.goto(`${svc.baseUrl}/job?id=${encodeURIComponent(jobId(scenario.ns.spark, 'daily_revenue.execute_insert_into_hadoop_fs_relation_command.warehouse_db_daily_revenue'))}`);
    await page.getByRole('heading', { name: /Runs \(\d+\)/ }).waitFor();
    assert.ok((await page.locator('.state').allInnerTexts()).length >= 1);
    await shot('job');
  });

  it('API errors are shown as messages, never a blank page', async () => {
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent('dataset:nowhere:nothing')}`);
    assert.match(await page.getByRole('alert').innerText(), /NOT_FOUND/);
    await page.goto(`${svc.baseUrl}/lineage?node=${encodeURIComponent('not-an-id')}`);
    assert.match(await page.getByRole('alert').innerText(), /BAD_INPUT[\s\S]*malformed node id/);
    await page.goto(`${svc.baseUrl}/dataset?id=${encodeURIComponent(datasetId('nowhere', 'nothing'))}`);
    assert.match(await page.getByRole('alert').innerText(), /No dataset has the id/);
    await shot('error');
  });

  it('dark theme, and no script errors anywhere', async () => {
    await page.goto(`${svc.baseUrl}/`);
    await page.getByLabel('colour theme').selectOption('dark');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    // Runs in the page (this file is compiled without DOM types).
    const bg = await page.locator('body').evaluate((body: any) => body.ownerDocument.defaultView.getComputedStyle(body).backgroundColor);
    assert.equal(bg, 'rgb(15, 19, 23)', 'the dark background');
    await page.goto(`${svc.baseUrl}/trace?node=${encodeURIComponent(fieldId(scenario.ns.hive, 'analytics.revenue_report', 'total'))}`);
    await canvasReady();
    await shot('trace-dark');
    await page.getByLabel('colour theme').selectOption('auto');
    assert.deepEqual(errors, []);
  });

  it('every query shape these pages ran is one the default warm-up compiles', () => {
    // Else the first user to open that page after a start waits for a plan (about a second).
    assert.deepEqual(shapesColdAfterWarmUp(svc), []);
  });
});
