import { createHash } from 'node:crypto';

/**
 * One pipeline across five engines, as each producer names things (shapes from the corpus and the
 * captures in test/fixtures: openlineage-flink's Kafka/Iceberg events and SQL job names,
 * openlineage-spark 1.53's saveAsTable output with `symlinks` and column lineage with INDIRECT
 * `dataset` dependencies, dbt-ol's model jobs with a parent run). The Kafka Connect source events
 * are shaped like the Java client's output (no capture of that integration was possible here).
 *
 *   postgres shop.public.orders
 *     → kafka-connect  shop-orders-source              (dataset level)
 *   kafka topic shop.public.orders                     (written via broker a; read via the list b,a)
 *     → flink          orders-cleaner (DataStream)     (dataset level)
 *   kafka topic orders_clean                           (+ Flink SQL catalog symlink)
 *     → flink          insert-into_iceberg.db.orders_enriched (SQL; no column lineage)
 *   s3 warehouse/db/orders_enriched  ≡ hive db.orders_enriched   (symlinks facet)
 *     → spark          daily_revenue (reads the catalog name; column lineage incl. INDIRECT)
 *   s3 warehouse/db/daily_revenue    ≡ hive db.daily_revenue
 *     → dbt            model.shop.revenue_report (reads the catalog name; column lineage)
 *   hive analytics.revenue_report
 * and a break: an S3 sink connector reads the topic through broker b only (kafka-b alone, so a
 * name of its own), writing topics/shop.public.orders.
 *
 * Every name carries `tag` (in hosts, buckets and job namespaces) so runs of the test never meet.
 */
export interface CrossEngine {
  tag: string;
  events: Record<string, unknown>[];
  ns: {
    postgres: string;
    kafkaA: string;
    kafkaB: string;
    s3: string;
    hive: string;
    connect: string;
    flink: string;
    spark: string;
    dbt: string;
  };
}

const uuid = (seed: string) => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const SPARK = 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/spark';
const FLINK = 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/flink';
const DBT = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt';
const CONNECT = 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/client/java';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

const schema = (producer: string, names: [string, string][]) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  fields: names.map(([name, type]) => ({ name, type })),
});
const symlink = (producer: string, namespace: string, name: string) => ({
  _producer: producer,
  _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json#/$defs/SymlinksDatasetFacet',
  identifiers: [{ namespace, name, type: 'TABLE' }],
});
const t = (type: string, subtype: string) => ({ type, subtype, description: '', masking: false });

export function crossEngine(tag: string): CrossEngine {
  const ns = {
    postgres: `postgres://db.${tag}.internal:5432`,
    kafkaA: `kafka://kafka-a.${tag}.internal:9092`,
    kafkaB: `kafka://kafka-b.${tag}.internal:9092`,
    s3: `s3://warehouse-${tag}`,
    hive: `hive://metastore.${tag}.internal:9083`,
    connect: `kafka-connect-${tag}`,
    flink: `flink-jobs-${tag}`,
    spark: `spark-${tag}`,
    dbt: `dbt-${tag}`,
  };
  const ORDERS: [string, string][] = [
    ['id', 'bigint'],
    ['customer_id', 'bigint'],
    ['amount', 'numeric(12,2)'],
    ['status', 'text'],
    ['created_at', 'timestamp'],
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
  const run = (
    producer: string,
    job: { namespace: string; name: string; facets?: Record<string, unknown> },
    inputs: unknown[],
    outputs: unknown[],
    runFacets: Record<string, unknown> = {},
  ) => {
    const runId = uuid(`${tag}/${job.namespace}/${job.name}`);
    const at = (m: number) => new Date(Date.UTC(2026, 10, 30, 8, m)).toISOString();
    const start = minute;
    minute += 5;
    const base = { producer, schemaURL: SCHEMA_URL, job };
    events.push({ ...base, eventType: 'START', eventTime: at(start), run: { runId, facets: runFacets }, inputs, outputs: (outputs as { namespace: string; name: string }[]).map(({ namespace, name }) => ({ namespace, name })) });
    events.push({ ...base, eventType: 'COMPLETE', eventTime: at(start + 4), run: { runId, facets: runFacets }, inputs, outputs });
  };
  const jobType = (integration: string, processingType: string, jobType: string) => ({ jobType: { _producer: integration === 'DBT' ? DBT : integration === 'SPARK' ? SPARK : FLINK, processingType, integration, jobType } });

  // Kafka Connect source (Debezium-style topic name: <prefix>.<schema>.<table>).
  run(
    CONNECT,
    { namespace: ns.connect, name: 'shop-orders-source', facets: jobType('KAFKA_CONNECT', 'STREAMING', 'SOURCE_CONNECTOR') },
    [{ namespace: ns.postgres, name: 'shop.public.orders', facets: { schema: schema(CONNECT, ORDERS) } }],
    [{ namespace: ns.kafkaA, name: 'shop.public.orders', facets: { schema: schema(CONNECT, ORDERS) } }],
  );
  // Flink DataStream job: bootstrap list of both brokers (normalised to the lowest, broker a).
  run(
    FLINK,
    { namespace: ns.flink, name: 'orders-cleaner', facets: jobType('FLINK', 'STREAMING', 'JOB') },
    [{ namespace: `${ns.kafkaB},${ns.kafkaA.slice('kafka://'.length)}`, name: 'shop.public.orders', facets: { schema: schema(FLINK, ORDERS) } }],
    [{ namespace: ns.kafkaA, name: 'orders_clean', facets: { schema: schema(FLINK, CLEAN) } }],
    { processing_engine: { _producer: FLINK, name: 'flink', version: '1.19.1', openlineageAdapterVersion: '1.53.0' } },
  );
  // Flink SQL into Iceberg: the path name, the catalog table in `symlinks`; no column lineage.
  run(
    FLINK,
    { namespace: ns.flink, name: 'insert-into_iceberg.db.orders_enriched', facets: jobType('FLINK', 'STREAMING', 'JOB') },
    [
      {
        namespace: ns.kafkaA,
        name: 'orders_clean',
        facets: { schema: schema(FLINK, CLEAN), symlinks: symlink(FLINK, ns.kafkaA, 'default_catalog.default_database.orders_clean') },
      },
    ],
    [
      {
        namespace: ns.s3,
        name: 'warehouse/db/orders_enriched',
        facets: { schema: schema(FLINK, ENRICHED), symlinks: symlink(FLINK, ns.hive, 'db.orders_enriched') },
      },
    ],
  );
  // Spark batch reading the catalog name; writes the warehouse path with the catalog symlink.
  const enriched = (field: string, ...transformations: unknown[]) => ({ namespace: ns.hive, name: 'db.orders_enriched', field, transformations });
  run(
    SPARK,
    { namespace: ns.spark, name: 'daily_revenue.execute_insert_into_hadoop_fs_relation_command.warehouse_db_daily_revenue', facets: jobType('SPARK', 'BATCH', 'SQL_JOB') },
    [{ namespace: ns.hive, name: 'db.orders_enriched', facets: {} }],
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
          symlinks: symlink(SPARK, ns.hive, 'db.daily_revenue'),
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
      },
    ],
    { processing_engine: { _producer: SPARK, name: 'spark', version: '3.5.3', openlineageAdapterVersion: '1.53.0' } },
  );
  // dbt model reading the catalog name, with column lineage (dbt-ol leaves CLL sources out of inputs).
  // openlineage-python (which dbt-ol uses) sends `transformations: []` and the deprecated type beside it.
  const daily = (field: string, type: string) => ({
    inputFields: [{ namespace: ns.hive, name: 'db.daily_revenue', field, transformations: [] }],
    transformationDescription: '',
    transformationType: type,
  });
  run(
    DBT,
    { namespace: ns.dbt, name: 'model.shop.revenue_report', facets: jobType('DBT', 'BATCH', 'MODEL') },
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
      },
    ],
    {
      parent: { job: { namespace: ns.dbt, name: 'dbt-run-shop' }, run: { runId: uuid(`${tag}/dbt-run`) } },
      processing_engine: { _producer: DBT, name: 'dbt', version: '1.10.4', openlineageAdapterVersion: '1.54.0' },
    },
  );
  // S3 sink connector configured with broker b alone: its topic is a name of its own (a break).
  run(
    CONNECT,
    { namespace: ns.connect, name: 'orders-s3-sink', facets: jobType('KAFKA_CONNECT', 'STREAMING', 'SINK_CONNECTOR') },
    [{ namespace: ns.kafkaB, name: 'shop.public.orders', facets: { schema: schema(CONNECT, ORDERS) } }],
    [{ namespace: ns.s3, name: 'topics/shop.public.orders', facets: {} }],
  );
  return { tag, events, ns };
}

// `npm run --silent example:cross-engine [-- tag]`: the scenario's events as NDJSON on stdout.
if (require.main === module) {
  for (const e of crossEngine(process.argv[2] ?? 'demo').events) process.stdout.write(`${JSON.stringify(e)}\n`);
}
