import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { crossEngine, type CrossEngine } from '../support/cross-engine';
import { rng, shuffle } from '../support/generate';

/**
 * The cross-engine scenario of test/support/cross-engine.ts, each event shaped as its real producer
 * sends it (Debezium → Kafka → Flink DataStream → Flink SQL into Iceberg (an empty namespace) →
 * Spark with column lineage over the table's path and catalog name → dbt reading the catalog name,
 * and an S3 sink reading through another broker), asked every lineage question a steward asks,
 * with exact answers: where lineage stops and why, the breaks with their rules; then delivered
 * shuffled and duplicated (same answers), and with the rules lineageBreaks suggests in force (the
 * breaks are gone, the trace reaches the source table).
 */

let svc: TestService;
let plain: CrossEngine;
before(async () => {
  svc = await startService();
  plain = crossEngine(randomBytes(3).toString('hex'));
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(plain.events));
  assert.equal(res.body.summary.failed, 0, JSON.stringify(res.body.failed_events));
});
after(() => svc.close());

const SPARK_JOB = 'daily_revenue.execute_insert_into_hadoop_fs_relation_command.warehouse_db_daily_revenue';

/** Ids with the scenario's namespaces written as short labels (<pg>, <kafka-a>, <s3>, ...). */
function labeller({ ns, tag }: CrossEngine): (value: unknown) => unknown {
  const pairs = Object.entries({
    '<pg>': ns.postgres,
    // Before <kafka-a>, of which it is an extension.
    '<kafka-list>': ns.kafkaList,
    '<kafka-a>': ns.kafkaA,
    '<kafka-b>': ns.kafkaB,
    '<s3>': ns.s3,
    '<hive>': ns.hive,
    '<connect>': ns.connect,
    '<debezium>': ns.debezium,
    '<flink>': ns.flink,
    '<spark>': ns.spark,
    '<dbt>': ns.dbt,
  }).flatMap(([label, n]) => [
    [n.replace(/%/g, '%25').replace(/:/g, '%3A'), label],
    [n, label],
  ]);
  const text = (s: string) => pairs.reduce((acc, [from, to]) => acc.split(from!).join(to!), s).split(tag).join('<t>');
  const walk = (v: unknown): unknown =>
    typeof v === 'string' ? text(v) : Array.isArray(v) ? v.map(walk) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) : v;
  return walk;
}

/** Every answer the test asserts, for one delivery of the scenario, labelled. */
async function answers(service: TestService, s: CrossEngine) {
  const { ns } = s;
  // Two requests: walks, then analytics (together they cost more than TRIBUTARY_MAX_QUERY_COMPLEXITY).
  const walks = await service.graphql(
    `query($total: ID!, $revenueS3: ID!, $revenueHive: ID!, $pg: ID!, $status: ID!, $kafkaB: ID!) {
      trace(nodeId: $total, depth: 20) { firstPrecisionLoss { distance toId jobId } truncated
        hops { distance fromId toId jobId granularity precisionLost types subtypes reportedAs }
        stops { datasetId itemIds distance reason explanation candidates { id kind strength evidence ruleKind rule } } }
      viaS3: trace(nodeId: $revenueS3, depth: 20) { hops { distance fromId toId jobId granularity precisionLost types subtypes } }
      viaHive: trace(nodeId: $revenueHive, depth: 20) { hops { distance fromId toId jobId granularity precisionLost types subtypes } }
      statusImpact: blastRadius(nodeId: $status, depth: 20) { totals { items fields datasets jobs } items { id distance } }
      pgImpact: blastRadius(nodeId: $pg, depth: 20, first: 100) { truncated totals { items datasets jobs } items { id distance } }
      identity(id: $kafkaB) { id requestedId names { id namespace name source steps { code rule } hops } rules { name kind } }
    }`,
    {
      total: fieldId(ns.hive, 'analytics.revenue_report', 'total'),
      revenueS3: fieldId(ns.s3, 'warehouse/db/daily_revenue', 'revenue'),
      revenueHive: fieldId(ns.hive, 'db.daily_revenue', 'revenue'),
      pg: datasetId(ns.postgres, 'shop.public.orders'),
      status: fieldId(ns.s3, s.iceberg.path, 'status'),
      kafkaB: datasetId(ns.kafkaB, 'shop.public.orders'),
    },
  );
  const analytics = await service.graphql(
    `query($flink: String, $connect: String, $debezium: String, $spark: String, $sql: String, $dbt: String) {
      spark: coverage(scope: JOB, value: $spark) { overall { edges columnLevel outputFields fieldsWithInputs } }
      sql: coverage(scope: JOB, value: $sql) { overall { edges columnLevel outputFields fieldsWithInputs } }
      dbt: coverage(scope: JOB, value: $dbt) { overall { edges columnLevel outputFields fieldsWithInputs } }
      flinkGaps: coverageGaps(scope: NAMESPACE, value: $flink) { totalGaps truncated gaps { jobId datasetId downstreamDatasets downstreamJobs } }
      connectGaps: coverageGaps(scope: NAMESPACE, value: $connect) { totalGaps gaps { jobId datasetId downstreamDatasets downstreamJobs } }
      debeziumGaps: coverageGaps(scope: NAMESPACE, value: $debezium) { totalGaps gaps { jobId datasetId downstreamDatasets downstreamJobs } }
      lineageBreaks { truncated sources { id } sinks { id } probableMatches { sourceId writtenId key strength evidence ruleKind rule } }
    }`,
    {
      flink: ns.flink,
      connect: ns.connect,
      debezium: ns.debezium,
      spark: jobId(ns.spark, SPARK_JOB),
      sql: jobId(ns.flink, s.sqlJob),
      dbt: jobId(ns.dbt, 'model.shop.revenue_report'),
    },
  );
  const q = { errors: walks.errors ?? analytics.errors, data: { ...walks.data, ...analytics.data } };
  assert.equal(q.errors, undefined, JSON.stringify(q.errors));
  const mine = (id: string) => id.includes(s.tag);
  const breaks = q.data.lineageBreaks;
  // Other deliveries in the shared database are candidates too (their names look alike): only this
  // delivery's are compared; the explanation, which names the first candidate, is checked apart.
  type Stop = { explanation: string; candidates: { id: string }[] };
  const data = {
    ...q.data,
    trace: { ...q.data.trace, stops: q.data.trace.stops.map(({ explanation: _e, ...st }: Stop) => ({ ...st, candidates: st.candidates.filter((c) => mine(c.id)) })) },
    explanations: q.data.trace.stops.map((st: Stop) => st.explanation),
    lineageBreaks: {
      truncated: breaks.truncated,
      sources: breaks.sources.map((x: { id: string }) => x.id).filter(mine),
      sinks: breaks.sinks.map((x: { id: string }) => x.id).filter(mine),
      probableMatches: breaks.probableMatches.filter((m: { sourceId: string; writtenId: string }) => mine(m.sourceId) && mine(m.writtenId)),
    },
  };
  return labeller(s)(data) as any;
}

const F = (ds: string, field: string) => `datasetField:${ds}:${field}`;
const REPORT = '<hive>:analytics.revenue_report';
const DAILY_HIVE = '<hive>:db.daily_revenue';
const DAILY_S3 = '<s3>:warehouse/db/daily_revenue';
const ENRICHED = '<s3>:warehouse/db/orders_enriched';
const ICEBERG_FLINK = 'dataset::iceberg_<t>.db.orders_enriched';
const SQL_JOB = 'insert-into_iceberg_<t>.db.orders_enriched';
const J = { debezium: 'job:<debezium>:shop.0', sink: 'job:<connect>:orders-s3-sink', cleaner: 'job:<flink>:orders-cleaner', sql: `job:<flink>:${SQL_JOB}`, spark: `job:<spark>:${SPARK_JOB}`, dbt: 'job:<dbt>:model.shop.revenue_report' };
const field = (distance: number, from: string, to: string, jobIdValue: string, types: string[], subtypes: string[], reportedAs: string | null = null) =>
  ({ distance, fromId: from, toId: to, jobId: jobIdValue, granularity: 'FIELD', precisionLost: false, types, subtypes, reportedAs });
const dataset = (distance: number, from: string, to: string, jobIdValue: string, precisionLost: boolean) =>
  ({ distance, fromId: from, toId: to, jobId: jobIdValue, granularity: 'DATASET', precisionLost, types: null, subtypes: null, reportedAs: null });
const ENRICHED_FIELDS = ['amount', 'country', 'order_ts', 'status'];
/** The hops through dbt and Spark, the same with or without rules. */
const SPARK_HOPS = [
  field(1, F(DAILY_HIVE, 'revenue'), F(REPORT, 'total'), J.dbt, ['TRANSFORMATION'], []),
  // Spark reported revenue under the warehouse path; the trace reached it under the catalog name.
  field(2, F(ENRICHED, 'amount'), F(DAILY_HIVE, 'revenue'), J.spark, ['DIRECT'], ['AGGREGATION'], F(DAILY_S3, 'revenue')),
  field(2, F(ENRICHED, 'country'), F(DAILY_HIVE, 'revenue'), J.spark, ['INDIRECT'], ['GROUP_BY'], `dataset:${DAILY_S3}`),
  field(2, F(ENRICHED, 'order_ts'), F(DAILY_HIVE, 'revenue'), J.spark, ['INDIRECT'], ['GROUP_BY'], `dataset:${DAILY_S3}`),
  field(2, F(ENRICHED, 'status'), F(DAILY_HIVE, 'revenue'), J.spark, ['INDIRECT'], ['FILTER'], `dataset:${DAILY_S3}`),
];
const ALIAS_RULE = { datasetAliases: [{ name: 'db.orders_enriched', from: { namespace: '', name: 'iceberg_<t>.db.orders_enriched' }, to: { namespace: '<s3>', name: 'warehouse/db/orders_enriched' } }] };
const KAFKA_RULE = { kafkaClusters: [{ name: 'kafka', namespace: '<kafka-a>', brokers: ['kafka-a.<t>.internal:9092', 'kafka-b.<t>.internal:9092'] }] };

describe('cross-engine lineage on what the producers send: Debezium → Kafka → Flink → Iceberg → Spark → dbt', () => {
  let a: any;
  before(async () => {
    a = await answers(svc, plain);
  });

  it('traces the dbt column back field by field through dbt and Spark to the Iceberg table, where lineage stops: Flink names the table otherwise, and the stop says so with the rule', () => {
    assert.deepEqual(a.trace, {
      truncated: false,
      firstPrecisionLoss: null,
      hops: SPARK_HOPS,
      stops: [
        {
          datasetId: `dataset:${ENRICHED}`,
          itemIds: ENRICHED_FIELDS.map((f) => F(ENRICHED, f)),
          distance: 2,
          reason: 'OTHER_NAME',
          candidates: [
            {
              id: ICEBERG_FLINK,
              kind: 'DATASET',
              strength: 'STRONG',
              evidence: [
                'both names end in db.orders_enriched: warehouse/db/orders_enriched (read) and iceberg_<t>.db.orders_enriched (written)',
                'schema fields match: 6 of the 6 fields read are among the 6 written',
                `iceberg_<t>.db.orders_enriched (empty namespace) is written by ${J.sql}`,
              ],
              ruleKind: 'DATASET_ALIAS',
              rule: JSON.stringify(ALIAS_RULE),
            },
          ],
        },
      ],
    });
    // (The first candidate named may be another delivery's look-alike in the shared database.)
    assert.match(a.explanations[0], /^Lineage stops at warehouse\/db\/orders_enriched \(<s3>\): no job Tributary knows writes it under this name\. It is probably iceberg_[\w<>]+\.db\.orders_enriched \(empty namespace\) under another producer's naming \(strong evidence\)/);
  });

  it('gives the same trace from a field under either of its names', () => {
    const start = (hops: { toId: string }[], id: string) => JSON.stringify(hops).split(id).join('<start>');
    assert.equal(start(a.viaS3.hops, F(DAILY_S3, 'revenue')), start(a.viaHive.hops, F(DAILY_HIVE, 'revenue')));
    assert.equal(a.viaS3.hops.length, 4);
  });

  it('finds what a filter column shapes downstream (INDIRECT) across the symlink; downstream of the source table ends at Flink\'s name of the Iceberg table', () => {
    // Spark filters on status: every field of its output depends on it (INDIRECT). dbt reports column
    // lineage for day and revenue (→ day, total) but not for country: that hop is dataset level.
    assert.deepEqual(a.statusImpact, {
      totals: { items: 8, fields: 5, datasets: 1, jobs: 2 },
      items: [
        { id: F(DAILY_S3, 'country'), distance: 1 },
        { id: F(DAILY_S3, 'day'), distance: 1 },
        { id: F(DAILY_S3, 'revenue'), distance: 1 },
        { id: J.spark, distance: 1 },
        { id: `dataset:${REPORT}`, distance: 2 },
        { id: F(REPORT, 'day'), distance: 2 },
        { id: F(REPORT, 'total'), distance: 2 },
        { id: J.dbt, distance: 2 },
      ],
    });
    assert.equal(a.pgImpact.truncated, false);
    assert.deepEqual(
      a.pgImpact.items.map((i: { id: string; distance: number }) => `${i.distance} ${i.id}`),
      [
        `1 ${J.debezium}`,
        // Debezium's whole bootstrap list is the broker list, named by its lowest broker: Flink's name.
        '2 dataset:<kafka-a>:shop.public.orders',
        `3 ${J.cleaner}`,
        '4 dataset:<kafka-a>:default_catalog.default_database.orders_clean',
        '4 dataset:<kafka-a>:orders_clean',
        `5 ${J.sql}`,
        `6 ${ICEBERG_FLINK}`,
      ],
    );
  });

  it('measures coverage per job and ranks the dataset-level-only edges by what they hide', () => {
    assert.deepEqual(a.spark.overall, { edges: 1, columnLevel: 1, outputFields: 3, fieldsWithInputs: 3 });
    assert.deepEqual(a.sql.overall, { edges: 1, columnLevel: 0, outputFields: 6, fieldsWithInputs: 0 });
    assert.deepEqual(a.dbt.overall, { edges: 1, columnLevel: 1, outputFields: 2, fieldsWithInputs: 2 });
    assert.deepEqual(a.flinkGaps, {
      totalGaps: 2,
      truncated: false,
      gaps: [
        { jobId: J.cleaner, datasetId: 'dataset:<kafka-a>:orders_clean', downstreamDatasets: 2, downstreamJobs: 1 },
        // Nothing reads the table under Flink's name: the gap hides nothing until a rule joins the names.
        { jobId: J.sql, datasetId: ICEBERG_FLINK, downstreamDatasets: 0, downstreamJobs: 0 },
      ],
    });
    assert.deepEqual(a.debeziumGaps, { totalGaps: 1, gaps: [{ jobId: J.debezium, datasetId: 'dataset:<kafka-a>:shop.public.orders', downstreamDatasets: 3, downstreamJobs: 2 }] });
    assert.deepEqual(a.connectGaps, { totalGaps: 1, gaps: [{ jobId: J.sink, datasetId: 'dataset:<s3>:topics/shop.public.orders', downstreamDatasets: 0, downstreamJobs: 0 }] });
  });

  it('finds the breaks: the Iceberg table under Flink\'s and Spark\'s names, the topic read through another broker of the cluster; each STRONG with its rule', () => {
    const b = a.lineageBreaks;
    assert.deepEqual(b.sources.sort(), ['dataset:<kafka-b>:shop.public.orders', 'dataset:<pg>:shop.public.orders', `dataset:${ENRICHED}`]);
    assert.deepEqual(b.sinks.sort(), [ICEBERG_FLINK, `dataset:${REPORT}`, 'dataset:<s3>:topics/shop.public.orders']);
    assert.deepEqual(
      b.probableMatches.map((m: { sourceId: string; writtenId: string; strength: string; ruleKind: string }) => [m.sourceId, m.writtenId, m.strength, m.ruleKind]),
      [
        ['dataset:<kafka-b>:shop.public.orders', 'dataset:<kafka-a>:shop.public.orders', 'STRONG', 'KAFKA_CLUSTER'],
        [`dataset:${ENRICHED}`, ICEBERG_FLINK, 'STRONG', 'DATASET_ALIAS'],
        // The sink's output mirrors the table name; they are connected only through the break.
        ['dataset:<pg>:shop.public.orders', 'dataset:<s3>:topics/shop.public.orders', 'MEDIUM', 'DATASET_ALIAS'],
      ],
    );
    assert.deepEqual(b.probableMatches[0].evidence, [
      'the same Kafka topic shop.public.orders on other brokers: kafka-b.<t>.internal:9092 (read) and kafka-a.<t>.internal:9092 (written)',
      // Debezium's output namespace is the whole bootstrap list.
      'broker kafka-b.<t>.internal:9092 is in the bootstrap servers producers sent for both (<kafka-list>): one cluster',
      'the brokers are in one domain, <t>.internal',
      'the brokers follow one naming pattern, kafka*',
      'schema fields match: 14 of the 14 fields read are among the 14 written',
      '<kafka-b> shop.public.orders is read (by job:<connect>:orders-s3-sink; kafka_connect) and never written',
      '<kafka-a> shop.public.orders is written and read (by job:<debezium>:shop.0; debezium)',
      'no job or lineage path connects them',
    ]);
    // The rules the scenario's `identityRules` hold are the ones suggested here.
    assert.deepEqual(JSON.parse(b.probableMatches[0].rule), KAFKA_RULE);
    assert.deepEqual(JSON.parse(b.probableMatches[1].rule), ALIAS_RULE);
    assert.deepEqual(labeller(plain)(plain.identityRules), { ...KAFKA_RULE, ...ALIAS_RULE });
  });

  it('explains the identity of a name: the topic under broker b is its own dataset while no rule merges it', () => {
    assert.deepEqual(a.identity, {
      id: 'dataset:<kafka-b>:shop.public.orders',
      requestedId: 'dataset:<kafka-b>:shop.public.orders',
      names: [{ id: 'dataset:<kafka-b>:shop.public.orders', namespace: '<kafka-b>', name: 'shop.public.orders', source: 'CANONICAL', steps: [], hops: 0 }],
      rules: [],
    });
  });

  it('gives the same answers when the events arrive shuffled and each twice, in random batches', async () => {
    const other = crossEngine(randomBytes(3).toString('hex'));
    const random = rng(20261201);
    const events = shuffle([...other.events, ...other.events], random);
    for (let i = 0; i < events.length; ) {
      const n = 1 + Math.floor(random() * 5);
      const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events.slice(i, i + n)));
      assert.equal(res.body.summary.failed, 0);
      i += n;
    }
    const { explanations: _x, ...b } = await answers(svc, other);
    const { explanations: _y, ...mineA } = a;
    assert.deepEqual(b, mineA);
  });

  it('with the suggested rules in force, both breaks are gone: the trace goes on through Flink (precision lost there) and Debezium to the source table', async () => {
    const next = crossEngine(randomBytes(3).toString('hex'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-'));
    const file = path.join(dir, 'rules.yaml');
    fs.writeFileSync(file, `# suggested by lineageBreaks\n${JSON.stringify(next.identityRules, null, 2)}\n`);
    const ruled = await startService({ TRIBUTARY_IDENTITY_RULES: file });
    try {
      const res = await ruled.post('/api/v1/lineage/batch', JSON.stringify(next.events));
      assert.equal(res.body.summary.failed, 0);
      const c = await answers(ruled, next);
      assert.deepEqual(c.trace.hops, [
        ...SPARK_HOPS,
        ...ENRICHED_FIELDS.map((f) => dataset(3, 'dataset:<kafka-a>:orders_clean', F(ENRICHED, f), J.sql, true)),
        dataset(4, 'dataset:<kafka-a>:shop.public.orders', 'dataset:<kafka-a>:orders_clean', J.cleaner, false),
        dataset(5, 'dataset:<pg>:shop.public.orders', 'dataset:<kafka-a>:shop.public.orders', J.debezium, false),
      ]);
      assert.deepEqual(c.trace.firstPrecisionLoss, { distance: 3, toId: F(ENRICHED, 'amount'), jobId: J.sql });
      assert.deepEqual(
        c.trace.stops.map((st: any) => [st.datasetId, st.reason, st.distance]),
        [['dataset:<pg>:shop.public.orders', 'ORIGIN', 5]],
      );
      assert.equal(c.viaS3.hops.length, 10);
      assert.deepEqual(c.lineageBreaks.probableMatches, []);
      assert.deepEqual(c.lineageBreaks.sources, ['dataset:<pg>:shop.public.orders']);
      // The sink connector, its output and everything after the Iceberg table are downstream of the source table now.
      assert.deepEqual(c.pgImpact.totals, { items: 15, datasets: 9, jobs: 6 });
      assert.deepEqual(c.identity, {
        id: 'dataset:<kafka-a>:shop.public.orders',
        requestedId: 'dataset:<kafka-b>:shop.public.orders',
        names: [
          { id: 'dataset:<kafka-a>:shop.public.orders', namespace: '<kafka-a>', name: 'shop.public.orders', source: 'CANONICAL', steps: [], hops: 0 },
          // Both spellings producers sent that the broker list (Debezium's) and the rule (the sink's) turned into this name.
          { id: 'dataset:<kafka-a>:shop.public.orders', namespace: '<kafka-list>', name: 'shop.public.orders', source: 'RAW', steps: [{ code: 'KAFKA_BROKER_LIST', rule: null }], hops: 0 },
          { id: 'dataset:<kafka-a>:shop.public.orders', namespace: '<kafka-b>', name: 'shop.public.orders', source: 'RAW', steps: [{ code: 'RULE_KAFKA_CLUSTER', rule: 'kafka' }], hops: 0 },
        ],
        rules: [{ name: 'kafka', kind: 'KAFKA_CLUSTER' }],
      });
      assert.deepEqual(c.flinkGaps.gaps, [
        { jobId: J.cleaner, datasetId: 'dataset:<kafka-a>:orders_clean', downstreamDatasets: 6, downstreamJobs: 3 },
        { jobId: J.sql, datasetId: `dataset:${ENRICHED}`, downstreamDatasets: 4, downstreamJobs: 2 },
      ]);
    } finally {
      await ruled.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
