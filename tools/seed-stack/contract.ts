import path from 'node:path';

/**
 * The seed pipeline's fixed names and ports, shared by every part of `npm run seed-stack`
 * (PostgreSQL → Debezium on Kafka Connect → Kafka → Flink → Iceberg → Spark → Delta). Fixed so that
 * the captured events (test/fixtures/seed-stack/) name the same datasets on every run; each port can
 * be moved with the environment variable beside it when something else holds it.
 */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
/** Source folder of the seed stack (poms, Java and Python sources, configuration templates). */
export const seedSource = path.join(repoRoot, 'tools', 'seed-stack');
export const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'seed-stack');

const port = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

export const ports = {
  /** PostgreSQL (Debian's postgresql, a private cluster under the work folder). */
  postgres: port('SEED_PG_PORT', 15432),
  /** The Kafka broker's first listener (PLAINTEXT, 127.0.0.1). */
  kafka: port('SEED_KAFKA_PORT', 19092),
  /** The same broker's second listener (LOCALHOST, localhost): another name for one cluster. */
  kafkaAlt: port('SEED_KAFKA_ALT_PORT', 19093),
  kafkaController: port('SEED_KAFKA_CONTROLLER_PORT', 19094),
  /** Kafka Connect's REST API. */
  connect: port('SEED_CONNECT_PORT', 18083),
  /** The recorder in front of Tributary: each producer posts to /<producer>/api/v1/lineage. */
  recorder: port('SEED_RECORDER_PORT', 15001),
  /** Tributary, when the seed stack starts its own. */
  tributary: port('SEED_TRIBUTARY_PORT', 15000),
};

/**
 * Kafka bootstrap strings for one broker. Debezium (through Kafka Connect) is given both listeners
 * and names its topics `kafka://<the whole string>`; Flink is given them the other way round and
 * names a topic by the first server only. So one cluster appears under two namespaces, as it does
 * in production clusters with several bootstrap servers.
 */
export const bootstrap = {
  connect: `127.0.0.1:${ports.kafka},localhost:${ports.kafkaAlt}`,
  flink: `localhost:${ports.kafkaAlt},127.0.0.1:${ports.kafka}`,
};

export const postgres = {
  host: '127.0.0.1',
  database: 'shop',
  user: 'seed',
  password: 'seed',
  /** The CDC table: shop.orders (order_id, customer_id, country, status, amount, updated_at). */
  schema: 'shop',
  table: 'orders',
};

export const names = {
  /** Debezium Postgres source connector; topic.prefix `pg`, so its topic is pg.shop.orders. */
  debeziumConnector: 'shop-cdc',
  cdcTopic: 'pg.shop.orders',
  /** FileStreamSink connector archiving the CDC topic (the S3 sink's stand-in: it reports nothing). */
  archiveConnector: 'orders-archive',
  /** Flink DataStream job: pg.shop.orders → orders.enriched. */
  enrichJob: 'enrich-orders',
  enrichedTopic: 'orders.enriched',
  /** Flink SQL job: orders.enriched → Iceberg lake.shop.orders_by_country (Hadoop catalog). */
  aggregateJob: 'orders-by-country',
  icebergCatalog: 'lake',
  icebergTable: 'shop.orders_by_country',
  /** Spark batch: the Iceberg table → lake.shop.revenue_summary; then a Delta MERGE and aggregate. */
  sparkSummaryTable: 'shop.revenue_summary',
  /** The topic of the OpenLineage Kafka transport, consumed by Tributary's Kafka worker. */
  openlineageTopic: 'openlineage.events',
};

/** OpenLineage job namespaces, one per engine. */
export const jobNamespaces = {
  debezium: 'debezium',
  flink: 'flink-streaming',
  spark: 'spark-batch',
};

/** The bad value: inserted at the start, visible in the Spark summary at the end. */
export const badValue = {
  orderId: 1007,
  country: 'FR',
  /** 99999.00 keyed in for 99.99. */
  amount: 99999.0,
};

/** The work folder (gitignored): PostgreSQL's cluster, Kafka's logs, the warehouse, logs of each part. */
export const workDir = (): string => process.env.SEED_WORK_DIR ?? path.join(repoRoot, '.tributary', 'seed-stack');
/** The Iceberg Hadoop catalog's warehouse, written by Flink and read by Spark. */
export const warehouse = (): string => path.join(workDir(), 'warehouse');

/** Every part logs through this: one line, prefixed with the part's name. */
export type Log = (msg: string) => void;
