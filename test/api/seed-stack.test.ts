import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { connectorEvent, parseListing } from '../../src/kafka-connect/events';
import { SqlDeclarer } from '../../src/sql/declarer';
import { SqlParsePool } from '../../src/sql/parse-pool';
import { startService, type TestService } from '../support/app';
import { repoRoot } from '../support/corpus';
import { rng, shuffle } from '../support/generate';
import { scratchDir } from '../support/scratch';
import { seedDelivery, type SeedDelivery } from '../support/seed-stack';

/**
 * The seed investigation on what real producers sent (npm run seed-stack: Debezium 3.5 on Kafka
 * Connect, openlineage-flink 1.53 on Flink 2.2, openlineage-spark 1.53 on Spark 3.5 over Iceberg
 * 1.10 and Delta 3.3; test/fixtures/seed-stack/): a bad value in the Spark summary traced back, the
 * exact hop where lineage stops and why, the breaks with the rules that close them, coverage by
 * engine; the same answers shuffled and duplicated; and with the suggested rules in force, the
 * trace from the summary to the PostgreSQL table and the table's blast radius to the summary.
 */
let svc: TestService;
let plain: SeedDelivery;
before(async () => {
  svc = await startService();
  plain = seedDelivery(randomBytes(3).toString('hex'));
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(plain.events));
  assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events));
});
after(() => svc.close());

const SUMMARY = '<wd>/warehouse/shop/revenue_summary';
async function answers(service: TestService, d: SeedDelivery) {
  const walks = await service.graphql(
    `query($revenue: ID!, $revenueCatalog: ID!, $pg: ID!) {
      trace(nodeId: $revenue, depth: 20) { truncated firstPrecisionLoss { distance toId jobId }
        hops { distance fromId toId jobId granularity precisionLost types subtypes reportedAs }
        stops { datasetId itemIds distance reason explanation candidates { id kind strength evidence ruleKind rule } } }
      viaCatalog: trace(nodeId: $revenueCatalog, depth: 20) { hops { distance fromId toId jobId granularity types subtypes } stops { datasetId reason } }
      pgImpact: blastRadius(nodeId: $pg, depth: 20, first: 100) { truncated totals { items datasets jobs } items { id distance } }
    }`,
    {
      revenue: fieldId('file', d.name(SUMMARY), 'revenue'),
      revenueCatalog: fieldId(d.name('file:<wd>/warehouse'), 'shop.revenue_summary', 'revenue'),
      pg: datasetId(d.name('postgres://<h1>:15432'), 'shop.shop.orders'),
    },
  );
  const analytics = await service.graphql(
    `query($deb: String, $flink: String, $spark: String) {
      debezium: coverage(scope: NAMESPACE, value: $deb) { overall { edges columnLevel datasetLevelOnly noInputEdges outputFields fieldsWithInputs } }
      flink: coverage(scope: NAMESPACE, value: $flink) { overall { edges columnLevel datasetLevelOnly noInputEdges outputFields fieldsWithInputs } }
      spark: coverage(scope: NAMESPACE, value: $spark) { overall { edges columnLevel datasetLevelOnly noInputEdges outputFields fieldsWithInputs } byJob { key edges columnLevel noInputEdges } }
      lineageBreaks { truncated sources { id aliases jobs } sinks { id aliases jobs } probableMatches { sourceId writtenId key strength evidence ruleKind rule } }
    }`,
    { deb: d.name('debezium-<t>'), flink: d.name('flink-streaming-<t>'), spark: d.name('spark-batch-<t>') },
  );
  const q = { errors: walks.errors ?? analytics.errors, data: { ...walks.data, ...analytics.data } };
  assert.equal(q.errors, undefined, JSON.stringify(q.errors));
  const mine = (id: string) => id.includes(d.tag);
  const b = q.data.lineageBreaks;
  // Other deliveries share the database: their names are candidates too (a real ambiguity: two
  // catalogs holding shop.orders_by_country); keep this delivery's.
  const ownStops = (stops: any[]) =>
    stops.map((st) => ({ ...st, candidates: st.candidates?.filter((c: { id: string }) => mine(c.id)), foreign: st.candidates?.some((c: { id: string }) => !mine(c.id)) }));
  return d.label({
    ...q.data,
    trace: { ...q.data.trace, stops: ownStops(q.data.trace.stops) },
    lineageBreaks: {
      truncated: b.truncated,
      sources: b.sources.filter((x: { id: string }) => mine(x.id)),
      sinks: b.sinks.filter((x: { id: string }) => mine(x.id)),
      probableMatches: b.probableMatches.filter((m: { sourceId: string; writtenId: string }) => mine(m.sourceId) && mine(m.writtenId)),
    },
  }) as any;
}

const SPARK = 'job:spark-batch:revenue_summary.overwrite_by_expression.lake_shop_revenue_summary';
const F = (ds: string, field: string) => `datasetField:${ds}:${field}`;
const SUMMARY_FILE = `file:${SUMMARY}`;
const BY_COUNTRY = 'file:<wd>/warehouse/shop/orders_by_country';
const FLINK_TABLE = 'dataset::lake.shop.orders_by_country';
const TOPIC_DEBEZIUM = 'dataset:kafka%3A//<h1>%3A19092:pg.shop.orders';
const TOPIC_FLINK = 'dataset:kafka%3A//<h2>%3A19093:pg.shop.orders';
const PG = 'dataset:postgres%3A//<h1>%3A15432:shop.shop.orders';

/** The rules lineageBreaks suggested (labelled), for a delivery. */
const rulesFor = (a: any, d: SeedDelivery) => {
  const merged: Record<string, unknown[]> = {};
  for (const m of a.lineageBreaks.probableMatches) for (const [k, v] of Object.entries(JSON.parse(d.name(m.rule)))) merged[k] = [...(merged[k] ?? []), ...(v as unknown[])];
  return merged;
};

describe('the seed pipeline on real producers (Debezium, openlineage-flink, openlineage-spark over Iceberg and Delta)', () => {
  let a: any;
  before(async () => {
    a = await answers(svc, plain);
  });

  it('traces the summary column field by field through Spark into the Iceberg table, then says exactly where and why lineage stops', () => {
    assert.equal(a.trace.truncated, false);
    assert.deepEqual(a.trace.hops.map((h: any) => [h.distance, h.fromId, h.jobId, h.granularity, h.types, h.subtypes]), [
      [1, F(BY_COUNTRY, 'region'), SPARK, 'FIELD', ['INDIRECT'], ['GROUP_BY']],
      [1, F(BY_COUNTRY, 'revenue'), SPARK, 'FIELD', ['DIRECT'], ['AGGREGATION']],
    ]);
    // Flink's SQL job does report the Iceberg table, as "" + lake.shop.orders_by_country: Spark's
    // path name and Flink's catalog name never meet, so lineage stops at the table Spark read.
    assert.equal(a.trace.stops.length, 1);
    const [stop] = a.trace.stops;
    assert.deepEqual([stop.datasetId, stop.itemIds, stop.distance, stop.reason], [`dataset:${BY_COUNTRY}`, [F(BY_COUNTRY, 'region'), F(BY_COUNTRY, 'revenue')], 1, 'OTHER_NAME']);
    // The best candidate may be another delivery's Flink table (the shared database holds several): its catalog keeps its tag.
    assert.equal(
      stop.explanation.replace(/ lake[0-9a-f]{6}\.shop\./, ' lake.shop.'),
      "Lineage stops at <wd>/warehouse/shop/orders_by_country (file): no job Tributary knows writes it under this name. It is probably lake.shop.orders_by_country (empty namespace) under another producer's naming (strong evidence); the identity rule in `rule` joins the two names and the trace goes on.",
    );
    assert.deepEqual(stop.candidates.map((c: any) => [c.id, c.kind, c.strength, c.ruleKind]), [[FLINK_TABLE, 'DATASET', 'STRONG', 'DATASET_ALIAS']]);
    assert.deepEqual(stop.candidates[0].evidence, [
      'both names end in shop.orders_by_country: <wd>/warehouse/shop/orders_by_country (read) and lake.shop.orders_by_country (written)',
      'schema fields match: 4 of the 4 fields read are among the 4 written',
      'lake.shop.orders_by_country (empty namespace) is written by job:flink-streaming:orders-by-country',
    ]);
    // The rule keeps the name with a namespace: Flink's catalog name becomes Spark's table path.
    assert.deepEqual(JSON.parse(stop.candidates[0].rule), {
      datasetAliases: [{ name: 'shop.orders_by_country', from: { namespace: '', name: 'lake.shop.orders_by_country' }, to: { namespace: 'file', name: '<wd>/warehouse/shop/orders_by_country' } }],
    });
  });

  it('gives the same trace from the catalog name (symlinks) of the summary table', () => {
    assert.deepEqual(a.viaCatalog.hops, a.trace.hops.map(({ precisionLost, reportedAs, ...h }: any) => (void precisionLost, void reportedAs, h)));
    assert.deepEqual(a.viaCatalog.stops, [{ datasetId: `dataset:${BY_COUNTRY}`, reason: 'OTHER_NAME' }]);
  });

  it('lists the breaks once per dataset: the topic under Debezium\'s and Flink\'s namespaces and the Iceberg table, both STRONG with the rule that merges them', () => {
    const b = a.lineageBreaks;
    assert.deepEqual(b.sources.map((x: any) => [x.id, x.aliases]), [
      [`dataset:${BY_COUNTRY}`, ['dataset:file%3A<wd>/warehouse:shop.orders_by_country']],
      [TOPIC_FLINK, []],
      [PG, []],
    ]);
    assert.deepEqual(b.sinks.map((x: any) => x.id), [FLINK_TABLE, 'dataset:file:<wd>/spark/warehouse/regions_below_target', TOPIC_DEBEZIUM]);
    assert.deepEqual(b.probableMatches.map((m: any) => [m.sourceId, m.writtenId, m.strength, m.ruleKind]), [
      [`dataset:${BY_COUNTRY}`, FLINK_TABLE, 'STRONG', 'DATASET_ALIAS'],
      [TOPIC_FLINK, TOPIC_DEBEZIUM, 'STRONG', 'KAFKA_CLUSTER'],
    ]);
    assert.equal(b.probableMatches[1].evidence[0], 'the same Kafka topic pg.shop.orders on other brokers: <h2>:19093 (read) and <h1>:19092 (written)');
    assert.equal(b.probableMatches[1].evidence[1], 'broker <h2>:19093 is in the bootstrap servers producers sent for both (kafka://<h1>:19092,<h2>:19093): one cluster');
    assert.deepEqual(JSON.parse(b.probableMatches[1].rule), { kafkaClusters: [{ name: 'pg.shop.orders', namespace: 'kafka://<h1>:19092', brokers: ['<h1>:19092', '<h2>:19093'] }] });
  });

  it('measures coverage by engine exactly, with the CREATE TABLE jobs (an output, no input) counted apart', () => {
    assert.deepEqual(a.debezium.overall, { edges: 1, columnLevel: 0, datasetLevelOnly: 1, noInputEdges: 0, outputFields: 39, fieldsWithInputs: 0 });
    assert.deepEqual(a.flink.overall, { edges: 2, columnLevel: 0, datasetLevelOnly: 2, noInputEdges: 0, outputFields: 12, fieldsWithInputs: 0 });
    // Iceberg's metadata columns Spark reports for the summary and the audit table (_file, _pos, ...) are not output fields.
    assert.deepEqual(a.spark.overall, { edges: 6, columnLevel: 4, datasetLevelOnly: 2, noInputEdges: 3, outputFields: 22, fieldsWithInputs: 14 });
    const job = (name: string) => a.spark.byJob.find((j: any) => j.key === `job:spark-batch:${name}`);
    assert.deepEqual(job('revenue_summary.create_table.shop_revenue_summary'), { key: 'job:spark-batch:revenue_summary.create_table.shop_revenue_summary', edges: 0, columnLevel: 0, noInputEdges: 1 });
    // Delta CREATE OR REPLACE TABLE AS SELECT sends no column lineage; the MERGE does (for region).
    assert.equal(job('region_performance.atomic_replace_table_as_select.default_region_performance').columnLevel, 0);
    assert.equal(job('region_targets.execute_merge_into_command.region_targets').columnLevel, 1);
  });

  it('ends the downstream of the PostgreSQL table at the topic Debezium names (its Flink reader spells it otherwise)', () => {
    assert.deepEqual(a.pgImpact.items, [
      { id: 'job:debezium:pg.0', distance: 1 },
      { id: TOPIC_DEBEZIUM, distance: 2 },
    ]);
  });

  it("keeps Iceberg's metadata columns Spark reports (_file, _pos, ...) marked, and leaves them out of traces and coverage unless asked, saying where", async () => {
    const AUDIT = '<wd>/warehouse/shop/revenue_audit';
    const dataFile = plain.name(F(`file:${AUDIT}`, 'data_file'));
    const q = await svc.graphql(
      `query($summary: ID!, $dataFile: ID!, $update: String) {
        dataset(id: $summary) { storageLayer fields { name metadataColumn } }
        plain: trace(nodeId: $dataFile) { hops { fromId toId jobId types subtypes } stops { datasetId itemIds reason explanation candidates { id kind strength evidence } } }
        asked: trace(nodeId: $dataFile, metadataColumns: true) { hops { fromId } stops { reason } }
        update: coverage(scope: JOB, value: $update) { overall { outputFields fieldsWithInputs } }
        column: lineage(nodeId: $dataFile, granularity: FIELD, direction: UPSTREAM) { nodes { id } }
      }`,
      {
        summary: plain.name(`dataset:file:${SUMMARY}`),
        dataFile,
        update: plain.name('job:spark-batch-<t>:revenue_audit.replace_data.lake_shop_revenue_audit'),
      },
    );
    assert.equal(q.errors, undefined, JSON.stringify(q.errors));
    const d = plain.label(q.data);
    // The graph keeps every field Spark reported for the summary; the seven Iceberg computes are marked.
    assert.equal(d.dataset.storageLayer, 'iceberg');
    assert.deepEqual(d.dataset.fields.filter((f: any) => f.metadataColumn).map((f: any) => f.name), ['_deleted', '_file', '_last_updated_sequence_number', '_partition', '_pos', '_row_id', '_spec_id']);
    assert.deepEqual(d.dataset.fields.filter((f: any) => !f.metadataColumn).map((f: any) => f.name), ['countries', 'orders', 'region', 'revenue']);
    // data_file is _file of the summary (INSERT ... SELECT _file) and itself (the UPDATE, which also filters on _file).
    const AUDIT_F = (f: string) => F(`file:${AUDIT}`, f);
    assert.deepEqual(d.plain.hops, [{ fromId: AUDIT_F('data_file'), toId: AUDIT_F('data_file'), jobId: 'job:spark-batch:revenue_audit.replace_data.lake_shop_revenue_audit', types: ['DIRECT'], subtypes: ['IDENTITY'] }]);
    assert.equal(d.plain.stops.length, 1);
    const stop = d.plain.stops[0];
    assert.deepEqual([stop.datasetId, stop.itemIds, stop.reason], [`dataset:file:${AUDIT}`, [AUDIT_F('data_file')], 'METADATA_COLUMN']);
    assert.match(stop.explanation, /^data_file comes also from _file of .*: metadata columns the table format computes per row .* trace with metadataColumns: true/);
    assert.deepEqual(stop.candidates.map((c: any) => [c.id, c.kind, c.evidence]), [
      [AUDIT_F('_file'), 'FIELD', ['job:spark-batch:revenue_audit.replace_data.lake_shop_revenue_audit reports data_file ← _file (INDIRECT, FILTER)']],
      [F(`file:${SUMMARY}`, '_file'), 'FIELD', ['job:spark-batch:revenue_audit.overwrite_by_expression.lake_shop_revenue_audit reports data_file ← _file (DIRECT, IDENTITY)']],
    ]);
    // Asked for, the trace goes through them (on to the summary's own inputs), and no such stop is left.
    const from = d.asked.hops.map((h: any) => h.fromId);
    assert.ok(from.includes(F(`file:${SUMMARY}`, '_file')) && from.includes(AUDIT_F('_file')), from.join('\n'));
    assert.ok(!d.asked.stops.some((st: any) => st.reason === 'METADATA_COLUMN'));
    // The UPDATE's column lineage depends on _file for every field: its five fields, not _file and _pos.
    assert.deepEqual(d.update.overall, { outputFields: 5, fieldsWithInputs: 5 });
    // Column lineage (the canvas's column mode) leaves them out too.
    assert.ok(!d.column.nodes.some((n: any) => /:_(file|pos)$/.test(n.id)), JSON.stringify(d.column.nodes));
  });

  it("keeps what the streaming producers send apart: Debezium's table and topic from two RUNNING events of one run, Flink's checkpoint RUNNING and dataset-less COMPLETE", async () => {
    const q = await svc.graphql(
      `query($deb: ID!, $enrich: ID!) {
        deb: job(id: $deb) { jobType integration processingType latestRun { state } }
        enrich: job(id: $enrich) { jobType integration processingType latestRun { state facets } } }`,
      { deb: plain.name('job:debezium-<t>:pg.0'), enrich: plain.name('job:flink-streaming-<t>:enrich-orders') },
    );
    assert.equal(q.errors, undefined, JSON.stringify(q.errors));
    assert.deepEqual({ ...q.data.deb }, { jobType: 'TASK', integration: 'DEBEZIUM', processingType: 'STREAMING', latestRun: { state: 'COMPLETE' } });
    assert.deepEqual([q.data.enrich.jobType, q.data.enrich.integration, q.data.enrich.processingType, q.data.enrich.latestRun.state], ['JOB', 'FLINK', 'STREAMING', 'COMPLETE']);
    // The last checkpoint count Flink reported stays on the run; the table → topic edge is current (the trace above).
    assert.ok(Number(q.data.enrich.latestRun.facets.checkpoints.completed) > 0);
  });

  it('gives the same answers when the events arrive shuffled and each twice, in random batches', async () => {
    const other = seedDelivery(randomBytes(3).toString('hex'));
    const random = rng(20261202);
    const events = shuffle([...other.events, ...other.events], random);
    for (let i = 0; i < events.length; ) {
      const n = 1 + Math.floor(random() * 6);
      const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events.slice(i, i + n)));
      assert.equal(res.body.summary.failed, 0);
      i += n;
    }
    // The explanation names the strongest candidate, which may be the other delivery's table.
    const noWords = (x: any) => ({ ...x, trace: { ...x.trace, stops: x.trace.stops.map(({ explanation, foreign, ...st }: any) => (void explanation, void foreign, st)) } });
    assert.deepEqual(noWords(await answers(svc, other)), noWords(a));
  });

  it('with the suggested rules in force: the trace goes on through Flink and Debezium to the source table, and the blast radius of the table reaches the summary', async () => {
    const next = seedDelivery(randomBytes(3).toString('hex'));
    const dir = scratchDir('seed-rules-');
    const file = path.join(dir, 'rules.json');
    fs.writeFileSync(file, JSON.stringify(rulesFor(a, next), null, 2));
    const ruled = await startService({ TRIBUTARY_IDENTITY_RULES: file });
    try {
      const res = await ruled.post('/api/v1/lineage/batch', JSON.stringify(next.events));
      assert.equal(res.body.summary.failed, 0);
      const c = await answers(ruled, next);
      const ENRICHED = 'dataset:kafka%3A//<h1>%3A19092:orders.enriched';
      assert.deepEqual(c.trace.hops.map((h: any) => [h.distance, h.fromId, h.toId, h.jobId, h.granularity, h.precisionLost]), [
        [1, F(BY_COUNTRY, 'region'), F(SUMMARY_FILE, 'revenue'), SPARK, 'FIELD', false],
        [1, F(BY_COUNTRY, 'revenue'), F(SUMMARY_FILE, 'revenue'), SPARK, 'FIELD', false],
        // Flink reports no column lineage: precision is lost at the SQL job, as the steward is told.
        [2, ENRICHED, F(BY_COUNTRY, 'region'), 'job:flink-streaming:orders-by-country', 'DATASET', true],
        [2, ENRICHED, F(BY_COUNTRY, 'revenue'), 'job:flink-streaming:orders-by-country', 'DATASET', true],
        [3, TOPIC_DEBEZIUM, ENRICHED, 'job:flink-streaming:enrich-orders', 'DATASET', false],
        [4, PG, TOPIC_DEBEZIUM, 'job:debezium:pg.0', 'DATASET', false],
      ]);
      assert.deepEqual(c.trace.firstPrecisionLoss, { distance: 2, toId: F(BY_COUNTRY, 'region'), jobId: 'job:flink-streaming:orders-by-country' });
      // An ORIGIN, unless other files' jobs in the shared database look like a writer of it.
      assert.deepEqual(c.trace.stops.map((st: any) => [st.datasetId, st.foreign ? 'ORIGIN' : st.reason, st.candidates]), [[PG, 'ORIGIN', []]]);
      // (Other files' datasets in the shared database may add "Names that may be the same dataset ...".)
      assert.ok(
        c.trace.stops[0].foreign ||
          c.trace.stops[0].explanation.startsWith('Lineage starts at shop.shop.orders (postgres://<h1>:15432): it is read by job:debezium:pg.0 and written by no job Tributary knows: a source system, or a producer that sends no OpenLineage.'),
        c.trace.stops[0].explanation,
      );
      assert.deepEqual(c.lineageBreaks.probableMatches, []);
      assert.deepEqual(c.lineageBreaks.sources.map((x: any) => x.id), [PG]);
      const reached = c.pgImpact.items.map((i: any) => i.id);
      assert.ok(reached.includes(`dataset:${SUMMARY_FILE}`), reached.join('\n'));
      assert.ok(reached.includes('dataset:file:<wd>/spark/warehouse/regions_below_target'));
      assert.deepEqual(c.pgImpact.totals, { items: 24, datasets: 15, jobs: 9 });
      assert.equal(c.pgImpact.truncated, false);
    } finally {
      await ruled.close();
    }
  });

  it("with the Kafka rule only and evidence ALL: the trace crosses from Spark to Flink on the table Spark's SQL reads (DECLARED), and on to the source table; by default it stops where Spark's events stop", async () => {
    const next = seedDelivery(randomBytes(3).toString('hex'));
    const dir = scratchDir('seed-kafka-rule-');
    const file = path.join(dir, 'rules.json');
    // Only the rule that joins the broker's two host names: the Iceberg table's two names stay apart.
    const rules = Object.fromEntries(Object.entries(rulesFor(a, next)).map(([k, v]) => [k, v.filter((r) => !JSON.stringify(r).includes('orders_by_country'))]));
    assert.ok(JSON.stringify(rules).includes('pg.shop.orders') || JSON.stringify(rules).includes('kafka'), JSON.stringify(rules));
    fs.writeFileSync(file, JSON.stringify(rules));
    const ruled = await startService({ TRIBUTARY_IDENTITY_RULES: file });
    const declarer = new SqlDeclarer(ruled.app.executor, new SqlParsePool({ timeoutMs: 20_000, coldTimeoutMs: 60_000, maxQueue: 100 }), 0);
    try {
      const res = await ruled.post('/api/v1/lineage/batch', JSON.stringify(next.events), { 'Tributary-Wait': 'projected' });
      assert.equal(res.body.summary.failed, 0);
      const round = await declarer.round(next.name('spark-batch-<t>'));
      assert.deepEqual([round?.parsed, round?.unparsed], [8, 0], JSON.stringify(round));
      const q = await ruled.graphql(
        `query($revenue: ID!) {
          reported: trace(nodeId: $revenue, depth: 20) { hops { fromId evidence } stops { datasetId reason explanation }
            unfollowed { distance fromId toId jobId evidence declared { role name line column } } }
          all: trace(nodeId: $revenue, depth: 20, evidence: ALL) { truncated firstPrecisionLoss { jobId } hops { precisionLost distance fromId toId jobId granularity evidence declared { role name line column } }
            stops { datasetId reason } }
        }`,
        { revenue: fieldId('file', next.name(SUMMARY), 'revenue') },
      );
      assert.equal(q.errors, undefined, JSON.stringify(q.errors));
      const t = next.label(q.data) as any;
      assert.deepEqual(t.reported.hops.map((h: any) => [h.fromId, h.evidence]), [[F(BY_COUNTRY, 'region'), 'REPORTED'], [F(BY_COUNTRY, 'revenue'), 'REPORTED']]);
      assert.deepEqual(t.reported.stops.map((st: any) => st.datasetId), [`dataset:${BY_COUNTRY}`]);
      // The default trace says where evidence ALL goes on: the hop Spark's SQL declares, and at the stop, why.
      assert.deepEqual(t.reported.unfollowed, [
        { distance: 1, fromId: FLINK_TABLE, toId: F(SUMMARY_FILE, 'revenue'), jobId: SPARK, evidence: 'DECLARED', declared: [{ role: 'INPUT', name: 'lake.shop.orders_by_country', line: 4, column: 23 }] },
      ]);
      assert.match(
        t.reported.stops[0].explanation,
        new RegExp(`Its reader ${SPARK.replace(/[.]/g, '\\.')} has SQL that also reads lake\\.shop\\.orders_by_country \\(line 4, column 23\\), which its events do not list: trace\\(evidence: ALL\\) follows that DECLARED hop\\.$`),
      );
      const ENRICHED = 'dataset:kafka%3A//<h1>%3A19092:orders.enriched';
      assert.deepEqual(t.all.hops.map((h: any) => [h.distance, h.fromId, h.toId, h.jobId, h.granularity, h.evidence, h.declared]), [
        // INSERT OVERWRITE lake.shop.revenue_summary ... FROM lake.shop.orders_by_country: openlineage-spark lists
        // the table's path, Flink writes its catalog name; the statement names the catalog name.
        [1, FLINK_TABLE, F(SUMMARY_FILE, 'revenue'), SPARK, 'DATASET', 'DECLARED', [{ role: 'INPUT', name: 'lake.shop.orders_by_country', line: 4, column: 23 }]],
        [1, F(BY_COUNTRY, 'region'), F(SUMMARY_FILE, 'revenue'), SPARK, 'FIELD', 'REPORTED', []],
        [1, F(BY_COUNTRY, 'revenue'), F(SUMMARY_FILE, 'revenue'), SPARK, 'FIELD', 'REPORTED', []],
        [2, ENRICHED, FLINK_TABLE, 'job:flink-streaming:orders-by-country', 'DATASET', 'REPORTED', []],
        [3, TOPIC_DEBEZIUM, ENRICHED, 'job:flink-streaming:enrich-orders', 'DATASET', 'REPORTED', []],
        [4, PG, TOPIC_DEBEZIUM, 'job:debezium:pg.0', 'DATASET', 'REPORTED', []],
      ]);
      assert.equal(t.all.truncated, false);
      // The declared hop is dataset level by nature, Flink's hops are from a dataset: no producer lost column precision.
      assert.deepEqual([t.all.firstPrecisionLoss, t.all.hops.filter((h: any) => h.precisionLost)], [null, []]);
      assert.deepEqual(t.all.stops.map((st: any) => [st.datasetId, st.reason]), [[`dataset:${BY_COUNTRY}`, 'OTHER_NAME'], [PG, 'ORIGIN']]);
    } finally {
      await declarer.stop();
      await ruled.close();
    }
  });
});

const CONNECT_BOOTSTRAP = '127.0.0.1:19092,localhost:19093';

let capture: { running: unknown; archivePaused: unknown } | undefined;
const connectCapture = (d: SeedDelivery) =>
  (capture ??= JSON.parse(d.spell(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'seed-stack', 'connect-rest.json'), 'utf8'))) as { running: unknown; archivePaused: unknown });

const collect = (d: SeedDelivery, listing: unknown, at: string) => {
  const { connectors, skipped } = parseListing(listing);
  assert.deepEqual(skipped, []);
  return connectors.map((s) => connectorEvent(d.name('seed-<t>'), s, { kafkaNamespace: `kafka://${d.spell(CONNECT_BOOTSTRAP)}`, knownTopics: [] }, new Date(at)));
};

/**
 * What the Kafka Connect collector makes of the seed stack's real Connect worker (its REST listing
 * captured by `npm run seed-stack` in connect-rest.json: Debezium's shop-cdc and the FileStreamSink
 * orders-archive, running, then the archive paused), ingested beside the producers' captures. (The
 * polling loop against a live worker is the kafka tier's.)
 */
describe('the Kafka Connect collector on the seed stack\'s Connect worker', () => {
  it('adds the archive sink no producer reports, with its topic in and its file out, and leaves Debezium to its own integration', async () => {
    const out = collect(plain, connectCapture(plain).running, '2026-12-02T04:00:00.000Z');
    assert.deepEqual(out.map((e) => [e.lineage.status, (e.event as any).job.name]).sort(), [['MAPPED', 'orders-archive'], ['SELF_REPORTED', 'shop-cdc']]);
    const sent = out.filter((e) => e.lineage.status !== 'SELF_REPORTED').map((e) => e.event);
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(sent), { 'Tributary-Wait': 'projected' });
    assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body));
    const sink = jobId(plain.name('kafka-connect://seed-<t>'), 'orders-archive');
    const topic = plain.name('dataset:kafka%3A//<h1>%3A19092:pg.shop.orders');
    const archive = datasetId('file', plain.name('<wd>/archive/orders.jsonl'));
    const q = await svc.graphql(
      `query($sink: ID!, $topic: ID!) {
        job(id: $sink) { jobType integration processingType inputs { id } outputs { id } latestRun { state facets } }
        blastRadius(nodeId: $topic, depth: 3) { items { id distance } }
        reported: lineage(nodeId: $topic, direction: DOWNSTREAM, depth: 2) { edges { fromId toId evidence } }
        all: lineage(nodeId: $topic, direction: DOWNSTREAM, depth: 2, evidence: ALL) { edges { fromId toId evidence } }
        traced: trace(nodeId: $topic, direction: DOWNSTREAM, depth: 2, evidence: ALL) { hops { toId jobId evidence } }
      }`,
      { sink, topic },
    );
    assert.equal(q.errors, undefined, JSON.stringify(q.errors));
    const job = q.data.job;
    assert.deepEqual([job.jobType, job.integration, job.processingType], ['SINK_CONNECTOR', 'KAFKA_CONNECT', 'STREAMING']);
    // The worker's bootstrap list is the one Debezium names its topic by: one dataset.
    assert.deepEqual(job.inputs.map((x: any) => x.id), [topic]);
    assert.deepEqual(job.outputs.map((x: any) => x.id), [archive]);
    assert.equal(job.latestRun.state, 'RUNNING');
    assert.deepEqual(job.latestRun.facets.kafkaConnect.lineage, 'MAPPED');
    const reached = q.data.blastRadius.items.map((i: any) => `${i.distance} ${i.id}`);
    assert.ok(reached.includes(`1 ${sink}`) && reached.includes(`2 ${archive}`), reached.join('\n'));
    // The connector's edges are COLLECTED: left out of lineage by default, followed and marked with evidence ALL.
    const viaSink = (edges: any[]) => edges.filter((e) => e.fromId === sink || e.toId === sink).map((e) => [e.fromId, e.toId, e.evidence]);
    assert.deepEqual(viaSink(q.data.reported.edges), []);
    assert.deepEqual(viaSink(q.data.all.edges), [[topic, sink, 'COLLECTED'], [sink, archive, 'COLLECTED']]);
    assert.deepEqual(q.data.traced.hops.filter((h: any) => h.jobId === sink).map((h: any) => [h.toId, h.evidence]), [[archive, 'COLLECTED']]);
    // Debezium's task job (pg.0) stays the only job of that connector: the collector made none.
    const dbz = await svc.graphql(`query($a: ID!, $b: ID!) { collected: job(id: $a) { id } own: job(id: $b) { id } }`, {
      a: jobId(plain.name('kafka-connect://seed-<t>'), 'shop-cdc'),
      b: plain.name('job:debezium-<t>:pg.0'),
    });
    assert.deepEqual(dbz.data, { collected: null, own: { id: plain.name('job:debezium-<t>:pg.0') } });
  });

  it('the paused archive connector: its run goes on (the same run id), saying PAUSED', async () => {
    const running = collect(plain, connectCapture(plain).running, '2026-12-02T04:00:00.000Z').find((e) => (e.event as any).job.name === 'orders-archive')!;
    const paused = collect(plain, connectCapture(plain).archivePaused, '2026-12-02T04:01:00.000Z').find((e) => (e.event as any).job.name === 'orders-archive')!;
    assert.equal(paused.runId, running.runId);
    assert.equal(paused.state, 'PAUSED');
    const res = await svc.post('/api/v1/lineage', JSON.stringify(paused.event), { 'Tributary-Wait': 'projected' });
    assert.ok(res.status < 300, JSON.stringify(res.body));
    const q = await svc.graphql(`query($id: ID!) { job(id: $id) { latestRun { state facets } } }`, { id: jobId(plain.name('kafka-connect://seed-<t>'), 'orders-archive') });
    assert.equal(q.data.job.latestRun.facets.kafkaConnect.state, 'PAUSED');
    assert.deepEqual(q.data.job.latestRun.facets.kafkaConnect.tasks, [{ id: 0, state: 'PAUSED' }]);
  });
});
