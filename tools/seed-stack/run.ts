import fs from 'node:fs';
import path from 'node:path';
import { badValue, fixturesDir, names, ports, warehouse, workDir, type Log } from './contract';
import { readTopic, recorded, writeFixtures, type ProducerCapture } from './capture';
import { startConnect, waitForTopicRecords } from './connect';
import { runFlinkJobs } from './flink';
import { startSeedKafka } from './kafka';
import { changeOrders, seedOrders, startPostgres } from './postgres';
import { waitUntil } from './proc';
import { startRecorder } from './recorder';
import { ensureSparkEnv, pysparkVersion, runSpark, sparkHome } from './spark';
import { startTributary } from './tributary';
import { pomDependencyVersion, pomProperty } from './versions';

/**
 * `npm run seed-stack`: the seed's pipeline run for real on this machine, from registry packages
 * only, against a Tributary (TRIBUTARY_URL, or one started here), capturing what every producer
 * sent into test/fixtures/seed-stack/:
 *
 *   PostgreSQL shop.orders (with a bad value: order 1007, FR, 99999.00)
 *     → Debezium (Kafka Connect source, OpenLineage over HTTP)   → Kafka pg.shop.orders
 *     → FileStreamSink orders-archive (reports nothing, like an S3 sink)
 *     → Flink enrich-orders (DataStream)                          → Kafka orders.enriched
 *     → Flink SQL orders-by-country (batch)                       → Iceberg lake.shop.orders_by_country
 *     (openlineage-flink over the OpenLineage Kafka transport, consumed by Tributary's Kafka worker)
 *     → Spark revenue_summary (Iceberg, column lineage)           → Iceberg lake.shop.revenue_summary
 *     → Spark Delta MERGE region_targets, region_performance (Delta 3.3)
 *
 *   node dist/tools/seed-stack/run.js [--keep]    (--keep: leave the Tributary started here running)
 */
const sparkVersions = {
  openlineageSpark: pomDependencyVersion('spark', 'openlineage-spark_2.12'),
  icebergSpark: pomDependencyVersion('spark', 'iceberg-spark-runtime-3.5_2.12'),
  delta: pomDependencyVersion('spark', 'delta-spark_2.12'),
};
const log: Log = (msg) => console.log(`[seed-stack ${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** What is running, stopped in reverse order at the end, on failure, or on SIGINT/SIGTERM. */
const running: { what: string; stop: () => Promise<void> }[] = [];
function started<T extends { stop(): Promise<void> }>(what: string, part: T): T {
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= part.stop());
  running.push({ what, stop });
  return { ...part, stop };
}
async function stopAll(): Promise<void> {
  for (const part of running.splice(0).reverse()) await part.stop().catch((err: Error) => log(`stopping ${part.what}: ${err.message}`));
}

async function main(): Promise<void> {
  const begun = Date.now();
  const keep = process.argv.includes('--keep');
  const capture = path.join(workDir(), 'capture');
  for (const d of [capture, warehouse(), sparkHome(), path.join(workDir(), 'archive')]) fs.rmSync(d, { recursive: true, force: true });
  try {
    // Python's environment for Spark installs while the JVMs start (network and disk, little CPU).
    const sparkEnv = ensureSparkEnv(log);
    sparkEnv.catch(() => undefined);
    const kafka = started('Kafka', await startSeedKafka(log));
    const tributary = started('Tributary', await startTributary({ kafkaBootstrap: `127.0.0.1:${ports.kafka}`, log }));
    const recorder = started('the recorder', await startRecorder({ port: ports.recorder, outDir: capture, forwardTo: tributary.url, log }));

    const pg = started('PostgreSQL', await startPostgres(log));
    const seeded = await seedOrders(pg);
    log(`PostgreSQL: ${seeded} orders in shop.orders, among them the bad value (order ${badValue.orderId}, ${badValue.country}, ${badValue.amount})`);
    const connect = started('Kafka Connect', await startConnect({ bootstrap: kafka.bootstrap, pg, openlineageUrl: recorder.url('debezium'), log }));
    const changes = await changeOrders(pg);
    await waitForTopicRecords(kafka.bootstrap, names.cdcTopic, seeded + changes, 120_000);
    log(`Debezium: snapshot and ${changes} changes on ${names.cdcTopic}`);

    const flink = await runFlinkJobs({ log });
    log(`Flink: ${names.enrichJob} ${flink.enrichJobStatus}, ${names.aggregateJob} ${flink.aggregateJobStatus}; Iceberg snapshot ${flink.snapshotId}`);

    const spark = await runSpark({ openlineageUrl: recorder.url('spark'), log, env: await sparkEnv });
    const bad = spark.summary.find((r) => Number((r as { revenue?: unknown }).revenue) >= badValue.amount);
    log(`Spark summary: ${JSON.stringify(spark.summary)}`);
    if (!bad) throw new Error(`the bad value ${badValue.amount} is not visible in the Spark summary`);

    // What a collector reads from the Connect REST API (issue 25's test data), before the connectors go.
    const connectRest = await connect.snapshotRest();
    // Deleting the connectors ends Debezium's run (COMPLETE).
    await connect.stop();
    await waitUntil("Debezium's COMPLETE event", () => recorded(path.join(capture, 'debezium.ndjson')).some((l) => l.includes('"COMPLETE"')), 60_000);

    const flinkLines = await readTopic(kafka.bootstrap, names.openlineageTopic);
    if (!tributary.consumesKafka) await bridge(tributary.url, flinkLines);
    await tributary.projected();

    const captures: ProducerCapture[] = [
      { file: 'debezium.ndjson', integration: `Debezium ${pomProperty('connect', 'debezium.version')} OpenLineage integration (Kafka Connect ${pomProperty('connect', 'kafka.version')})`, transport: 'http', lines: recorded(path.join(capture, 'debezium.ndjson')) },
      { file: 'flink.ndjson', integration: `openlineage-flink ${pomProperty('flink', 'openlineage.version')} on Flink ${pomProperty('flink', 'flink.version')}`, transport: 'kafka', lines: flinkLines },
      { file: 'spark.ndjson', integration: `openlineage-spark ${sparkVersions.openlineageSpark} on Spark ${pysparkVersion} (Iceberg ${sparkVersions.icebergSpark}, Delta ${sparkVersions.delta})`, transport: 'http', lines: recorded(path.join(capture, 'spark.ndjson')) },
    ];
    fs.mkdirSync(fixturesDir, { recursive: true });
    fs.writeFileSync(path.join(fixturesDir, 'connect-rest.json'), `${JSON.stringify(connectRest, null, 2)}\n`);
    log(`connect-rest.json: the Connect REST API's connectors (${connectRest.masked.length} secret key(s) masked: ${connectRest.masked.join(', ') || 'none'})`);
    const manifest = writeFixtures(
      fixturesDir,
      captures,
      {
        capturedAt: new Date().toISOString(),
        command: 'npm run seed-stack',
        durationS: Math.round((Date.now() - begun) / 1000),
        workDir: workDir(),
        pipeline: [
          `PostgreSQL ${(await pg.exec('SHOW server_version')).trim()} shop.orders`,
          `Debezium ${pomProperty('connect', 'debezium.version')} (${names.debeziumConnector}) → Kafka ${names.cdcTopic}`,
          `FileStreamSink ${names.archiveConnector} (reports no lineage)`,
          `Flink ${names.enrichJob} → Kafka ${names.enrichedTopic}`,
          `Flink SQL ${names.aggregateJob} → Iceberg ${names.icebergCatalog}.${names.icebergTable}`,
          `Spark → Iceberg ${names.icebergCatalog}.${names.sparkSummaryTable}; Delta MERGE and aggregate; Iceberg audit of the summary's metadata columns (_file, _pos) and an UPDATE`,
        ],
        versions: {
          kafka: pomProperty('connect', 'kafka.version'),
          debezium: pomProperty('connect', 'debezium.version'),
          flink: pomProperty('flink', 'flink.version'),
          flinkConnectorKafka: pomProperty('flink', 'flink.kafka.version'),
          icebergFlink: pomProperty('flink', 'iceberg.version'),
          openlineageFlink: pomProperty('flink', 'openlineage.version'),
          pyspark: pysparkVersion,
          ...sparkVersions,
        },
        badValue: { ...badValue, visibleIn: bad },
        notes: [
          'Debezium sends the input (the table) and the output (the topic) in different RUNNING events of one run; START and COMPLETE carry no datasets.',
          'openlineage-flink names Kafka datasets by the first bootstrap server (kafka://localhost:<alt>), Debezium by the whole bootstrap string.',
          'openlineage-flink names the Iceberg table of the Flink SQL job with an empty namespace: "" + lake.shop.orders_by_country.',
          'The FileStreamSink connector reports nothing: no OpenLineage producer covers Kafka Connect sink connectors.',
        ],
      },
      log,
    );
    log(`fixtures written to ${fixturesDir} (${manifest.producers.map((p) => `${p.file}: ${p.events}`).join(', ')}) in ${manifest.durationS} s`);
    if (keep && !process.env.TRIBUTARY_URL) {
      log(`Tributary keeps running with the seed's graph: ${tributary.url}/explore (Ctrl-C stops it)`);
      await new Promise<never>(() => undefined);
    }
  } finally {
    await stopAll();
  }
}

/** The Kafka transport's events, to a Tributary whose own worker does not read the seed broker. */
async function bridge(url: string, lines: string[]): Promise<void> {
  const res = await fetch(`${url}/api/v1/lineage/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `[${lines.join(',')}]` });
  if (!res.ok) throw new Error(`Tributary refused the Kafka transport's events: ${res.status} ${await res.text()}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    void stopAll().then(() => process.exit(130));
  });
}
main().catch((err: Error) => {
  console.error(`seed-stack failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
