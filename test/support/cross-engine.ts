import { createHash } from 'node:crypto';

/**
 * One pipeline across five engines, each event in the shape its real producer sends (the captures
 * of `npm run seed-stack` in test/fixtures/seed-stack: Debezium 3.5.0.Final's OpenLineage
 * integration, openlineage-flink 1.53.0 on Flink 2.2, openlineage-spark 1.53.0 over Iceberg; and
 * dbt-ol 1.54's model jobs with a parent run):
 *
 *   postgres shop.public.orders
 *     → debezium  shop.0 (task 0 of topic prefix `shop`)   (dataset level; the table and the topic in two
 *                                                           RUNNING events, START without datasets)
 *   kafka topic shop.public.orders   (Debezium: the whole bootstrap list kafka-a,kafka-b; Flink: the first, kafka-a)
 *     → flink     orders-cleaner (DataStream)              (dataset level; datasets in START only,
 *                                                           RUNNING with checkpoint counts)
 *   kafka topic orders_clean         (+ the Flink SQL table's catalog name in `symlinks`)
 *     → flink     insert-into_iceberg_<tag>.db.orders_enriched (Flink's default SQL job name; no column lineage)
 *   "" iceberg_<tag>.db.orders_enriched  (openlineage-flink names an Iceberg table with an empty namespace)
 *   s3 warehouse/db/orders_enriched ≡ hive db.orders_enriched   (how Spark names the same table: a break)
 *     → spark     daily_revenue (column lineage, INDIRECT `dataset` dependencies)
 *   s3 warehouse/db/daily_revenue   ≡ hive db.daily_revenue
 *     → dbt       model.shop.revenue_report (reads the catalog name; column lineage)
 *   hive analytics.revenue_report
 * and a Kafka Connect S3 sink reading the topic through broker b alone (a name of its own: a
 * second break), reported by a team's own openlineage-python emitter: no OpenLineage integration
 * reports sink connectors. Without identity rules the trace from the report stops at the Iceberg
 * table (another name); `identityRules` are the rules lineageBreaks suggests, with which it goes
 * on to the source table.
 *
 * Every name carries `tag` (in hosts, buckets and job namespaces) so runs of the test never meet.
 */
export interface CrossEngine {
  tag: string;
  events: Record<string, unknown>[];
  ns: {
    postgres: string;
    /** Flink's name of the cluster (its first bootstrap server), which Debezium's list normalises to. */
    kafkaA: string;
    /** Debezium's output namespace: the whole configured bootstrap list. */
    kafkaList: string;
    /** The sink's: broker b alone. */
    kafkaB: string;
    s3: string;
    hive: string;
    connect: string;
    debezium: string;
    flink: string;
    spark: string;
    dbt: string;
  };
  /** The Iceberg table under Flink's name ("" + this) and under Spark's (s3 + this). */
  iceberg: { flink: string; path: string; catalog: string };
  /** The Flink SQL job's name (Flink's default: insert-into_<the sink table>). */
  sqlJob: string;
  /** The TRIBUTARY_IDENTITY_RULES that join both breaks (as lineageBreaks suggests them). */
  identityRules: Record<string, unknown>;
}

const uuid = (seed: string) => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const DEBEZIUM = 'https://github.com/debezium/debezium/tree/v3.5.0.Final/debezium-openlineage';
const SPARK = 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/spark';
const FLINK = 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/flink';
const DBT = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt';
const PYTHON = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

const schema = (producer: string, names: [string, string][]) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  fields: names.map(([name, type]) => ({ name, type })),
});
const symlinks = (producer: string, ids: { namespace: string; name: string }[]) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json#/$defs/SymlinksDatasetFacet',
  identifiers: ids.map((i) => ({ ...i, type: 'TABLE' })),
});
const datasetType = (type: string) => ({
  _producer: DEBEZIUM,
  _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/DatasetTypeDatasetFacet.json#/$defs/DatasetTypeDatasetFacet',
  datasetType: type,
  subType: '',
});
const jobType = (producer: string, integration: string, processingType: string, type: string) => ({
  jobType: { _producer: producer, _schemaURL: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet', processingType, integration, jobType: type },
});
const engine = (producer: string, name: string, version: string, adapter: string) => ({
  processing_engine: {
    _producer: producer,
    _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet',
    name,
    version,
    openlineageAdapterVersion: adapter,
  },
});
const t = (type: string, subtype: string) => ({ type, subtype, description: '', masking: false });

export function crossEngine(tag: string): CrossEngine {
  const brokerA = `kafka-a.${tag}.internal:9092`;
  const brokerB = `kafka-b.${tag}.internal:9092`;
  const ns = {
    postgres: `postgres://db.${tag}.internal:5432`,
    kafkaA: `kafka://${brokerA}`,
    kafkaList: `kafka://${brokerA},${brokerB}`,
    kafkaB: `kafka://${brokerB}`,
    s3: `s3://warehouse-${tag}`,
    hive: `hive://metastore.${tag}.internal:9083`,
    connect: `kafka-connect-${tag}`,
    debezium: `debezium-${tag}`,
    flink: `flink-jobs-${tag}`,
    spark: `spark-${tag}`,
    dbt: `dbt-${tag}`,
  };
  // Flink's name is <catalog>.<database>.<table>; the catalog carries the tag.
  const iceberg = { flink: `iceberg_${tag}.db.orders_enriched`, path: 'warehouse/db/orders_enriched', catalog: 'db.orders_enriched' };
  // Flink's default name of an SQL job: insert-into_<the sink table>.
  const sqlJob = `insert-into_${iceberg.flink}`;
  const ORDERS: [string, string][] = [
    ['id', 'int8'],
    ['customer_id', 'int8'],
    ['amount', 'numeric'],
    ['status', 'text'],
    ['created_at', 'timestamp'],
  ];
  // Debezium's change event envelope (a topic's schema as the integration reports it).
  const ENVELOPE: [string, string][] = [
    ['before', 'STRUCT'],
    ...ORDERS.map(([n, ty]): [string, string] => [`before.${n}`, ty]),
    ['after', 'STRUCT'],
    ...ORDERS.map(([n, ty]): [string, string] => [`after.${n}`, ty]),
    ['op', 'STRING'],
    ['ts_ms', 'INT64'],
  ];
  const CLEAN: [string, string][] = [
    ['id', 'BIGINT'],
    ['customer_id', 'BIGINT'],
    ['amount', 'DECIMAL(12, 2)'],
    ['status', 'STRING'],
    ['order_ts', 'TIMESTAMP(3)'],
  ];
  const ENRICHED: [string, string][] = [...CLEAN, ['country', 'STRING']];
  const events: Record<string, unknown>[] = [];
  let minute = 0;
  const at = (m: number) => new Date(Date.UTC(2026, 10, 30, 8, m)).toISOString();
  const emit = (producer: string, eventType: string, m: number, runId: string, job: Record<string, unknown>, rest: Record<string, unknown>, runFacets: Record<string, unknown>) =>
    events.push({ eventTime: at(m), producer, schemaURL: SCHEMA_URL, eventType, run: { runId, facets: runFacets }, job, ...rest });

  // Debezium's Postgres connector, task 0: START and COMPLETE carry no datasets; the table and the
  // topic come in two RUNNING events of the run; the topic is named by the whole bootstrap list.
  {
    const runId = uuid(`${tag}/debezium`);
    const job = { namespace: ns.debezium, name: 'shop.0', facets: jobType(DEBEZIUM, 'DEBEZIUM', 'STREAMING', 'TASK') };
    const run = engine(DEBEZIUM, 'Debezium', '3.5.0.Final', '1.31.0');
    emit(DEBEZIUM, 'START', minute, runId, job, {}, run);
    emit(DEBEZIUM, 'RUNNING', minute + 1, runId, job, { inputs: [{ namespace: ns.postgres, name: 'shop.public.orders', facets: { datasetType: datasetType('TABLE'), schema: schema(DEBEZIUM, ORDERS) } }] }, run);
    emit(DEBEZIUM, 'RUNNING', minute + 1, runId, job, { outputs: [{ namespace: ns.kafkaList, name: 'shop.public.orders', facets: { datasetType: datasetType('STREAM'), schema: schema(DEBEZIUM, ENVELOPE) } }] }, run);
    minute += 5;
  }
  // Flink jobs: datasets in START only (jobType too); RUNNING with checkpoint counts and nothing
  // else; the streaming jobs keep running (no COMPLETE).
  const flink = (name: string, inputs: unknown[], outputs: unknown[]) => {
    const runId = uuid(`${tag}/flink/${name}`);
    const run = { ...engine(FLINK, 'flink', '2.2.1', '1.53.0'), flink_job: { _producer: FLINK, _schemaURL: SCHEMA_URL.replace('RunEvent', 'RunFacet'), jobId: uuid(name).replace(/-/g, '').slice(0, 32) } };
    emit(FLINK, 'START', minute, runId, { namespace: ns.flink, name, facets: jobType(FLINK, 'FLINK', 'STREAMING', 'JOB') }, { inputs, outputs }, run);
    const checkpoints = { _producer: FLINK, _schemaURL: SCHEMA_URL.replace('RunEvent', 'RunFacet'), completed: 3, failed: 0, 'in-progress': 0, restored: 0, total: 3 };
    emit(FLINK, 'RUNNING', minute + 2, runId, { namespace: ns.flink, name }, {}, { ...run, checkpoints });
    minute += 5;
  };
  // DataStream: Kafka source and sink by the first bootstrap server, no schema, empty symlinks.
  flink(
    'orders-cleaner',
    [{ namespace: ns.kafkaA, name: 'shop.public.orders', facets: { symlinks: symlinks(FLINK, []) } }],
    [{ namespace: ns.kafkaA, name: 'orders_clean', facets: { symlinks: symlinks(FLINK, []) } }],
  );
  // Flink SQL (default job name): the Kafka table with its catalog name; the Iceberg table with an
  // empty namespace; no column lineage.
  flink(
    sqlJob,
    [{ namespace: ns.kafkaA, name: 'orders_clean', facets: { schema: schema(FLINK, CLEAN), symlinks: symlinks(FLINK, [{ namespace: ns.kafkaA, name: 'default_catalog.default_database.orders_clean' }]) } }],
    [{ namespace: '', name: iceberg.flink, facets: { schema: schema(FLINK, ENRICHED), symlinks: symlinks(FLINK, []) } }],
  );
  // Batch jobs: START and COMPLETE with the same datasets, column lineage on COMPLETE.
  const batch = (producer: string, job: { namespace: string; name: string; facets?: Record<string, unknown> }, inputs: unknown[], outputs: { namespace: string; name: string }[], runFacets: Record<string, unknown>) => {
    const runId = uuid(`${tag}/${job.namespace}/${job.name}`);
    emit(producer, 'START', minute, runId, job, { inputs, outputs: outputs.map(({ namespace, name }) => ({ namespace, name })) }, runFacets);
    emit(producer, 'COMPLETE', minute + 4, runId, job, { inputs, outputs }, runFacets);
    minute += 5;
  };
  // Spark over an Iceberg table in a Hive catalog: the path with the catalog name in `symlinks`;
  // column lineage names the input by its path.
  const enriched = (field: string, ...transformations: unknown[]) => ({ namespace: ns.s3, name: iceberg.path, field, transformations });
  batch(
    SPARK,
    { namespace: ns.spark, name: 'daily_revenue.execute_insert_into_hadoop_fs_relation_command.warehouse_db_daily_revenue', facets: jobType(SPARK, 'SPARK', 'BATCH', 'SQL_JOB') },
    [{ namespace: ns.s3, name: iceberg.path, facets: { schema: schema(SPARK, ENRICHED.map(([n]) => [n, 'string'])), symlinks: symlinks(SPARK, [{ namespace: ns.hive, name: iceberg.catalog }]) } }],
    [
      {
        namespace: ns.s3,
        name: 'warehouse/db/daily_revenue',
        facets: {
          schema: schema(SPARK, [
            ['day', 'date'],
            ['country', 'string'],
            ['revenue', 'decimal(22,2)'],
          ]),
          symlinks: symlinks(SPARK, [{ namespace: ns.hive, name: 'db.daily_revenue' }]),
          columnLineage: {
            _producer: SPARK,
            _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
            fields: {
              day: { inputFields: [enriched('order_ts', t('DIRECT', 'TRANSFORMATION'))] },
              country: { inputFields: [enriched('country', t('DIRECT', 'IDENTITY'))] },
              revenue: { inputFields: [enriched('amount', t('DIRECT', 'AGGREGATION'))] },
            },
            dataset: [enriched('status', t('INDIRECT', 'FILTER')), enriched('order_ts', t('INDIRECT', 'GROUP_BY')), enriched('country', t('INDIRECT', 'GROUP_BY'))],
          },
        },
        outputFacets: {},
      } as { namespace: string; name: string },
    ],
    engine(SPARK, 'spark', '3.5.5', '1.53.0'),
  );
  // dbt model reading the catalog name, with column lineage (dbt-ol leaves CLL sources out of inputs).
  // openlineage-python (which dbt-ol uses) sends `transformations: []` and the deprecated type beside it.
  const daily = (field: string, type: string) => ({
    inputFields: [{ namespace: ns.hive, name: 'db.daily_revenue', field, transformations: [] }],
    transformationDescription: '',
    transformationType: type,
  });
  batch(
    DBT,
    { namespace: ns.dbt, name: 'model.shop.revenue_report', facets: jobType(DBT, 'DBT', 'BATCH', 'MODEL') },
    [],
    [
      {
        namespace: ns.hive,
        name: 'analytics.revenue_report',
        facets: {
          schema: schema(DBT, [
            ['day', 'date'],
            ['total', 'decimal(22,2)'],
          ]),
          columnLineage: {
            _producer: DBT,
            _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
            fields: { day: daily('day', 'IDENTITY'), total: daily('revenue', 'TRANSFORMATION') },
          },
        },
        outputFacets: {},
      } as { namespace: string; name: string },
    ],
    {
      parent: { job: { namespace: ns.dbt, name: 'dbt-run-shop' }, run: { runId: uuid(`${tag}/dbt-run`) } },
      ...engine(DBT, 'dbt', '1.10.4', '1.54.0'),
    },
  );
  // The S3 sink connector, configured with broker b alone, reported by the team's own
  // openlineage-python emitter (no integration reports sink connectors): a name of its own.
  batch(
    PYTHON,
    { namespace: ns.connect, name: 'orders-s3-sink', facets: jobType(PYTHON, 'KAFKA_CONNECT', 'STREAMING', 'SINK_CONNECTOR') },
    [{ namespace: ns.kafkaB, name: 'shop.public.orders', facets: { schema: schema(PYTHON, ENVELOPE) } }],
    [{ namespace: ns.s3, name: 'topics/shop.public.orders' }],
    {},
  );
  const identityRules = {
    kafkaClusters: [{ name: 'kafka', namespace: ns.kafkaA, brokers: [brokerA, brokerB] }],
    datasetAliases: [{ name: 'db.orders_enriched', from: { namespace: '', name: iceberg.flink }, to: { namespace: ns.s3, name: iceberg.path } }],
  };
  return { tag, events, ns, iceberg, sqlJob, identityRules };
}

// `npm run --silent example:cross-engine [-- tag]`: the scenario's events as NDJSON on stdout.
if (require.main === module) {
  for (const e of crossEngine(process.argv[2] ?? 'demo').events) process.stdout.write(`${JSON.stringify(e)}\n`);
}
