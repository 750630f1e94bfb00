import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { bootstrap, jobNamespaces, names, ports, seedSource, warehouse, workDir, type Log } from './contract';
import { requireFree, spawnLogged } from './proc';

/**
 * The seed stack's Flink part: Flink 2.2 in one JVM (a MiniCluster, i.e. a session cluster with its
 * REST API on 127.0.0.1:<SEED_FLINK_REST_PORT>), to which SeedJobs.java submits two jobs through
 * that REST API, with openlineage-flink's job status listener and its Kafka transport:
 *
 *  1. `enrich-orders` (DataStream, streaming, checkpoints every 2 s): Debezium envelopes on
 *     pg.shop.orders → orders.enriched;
 *  2. once job 1 has committed the CDC topic's end offsets, `orders-by-country` (Flink SQL, batch
 *     over the bounded Kafka table) → Iceberg `lake.shop.orders_by_country` (Hadoop catalog at
 *     contract.warehouse());
 *  3. job 1 is stopped with a savepoint (`stop: 'cancel'` cancels it instead).
 *
 * Resolves when the JVM has exited with the Iceberg table committed. The events go to
 * names.openlineageTopic on 127.0.0.1:<ports.kafka>.
 */

/** Flink's REST port (not in the contract: only this part uses it). */
export const flinkRestPort = (): number => Number(process.env.SEED_FLINK_REST_PORT ?? 18081);

export interface FlinkResult {
  enrichJobId: string;
  enrichJobStatus: string;
  aggregateJobId: string;
  aggregateJobStatus: string;
  savepoint?: string;
  /** The Iceberg table's current metadata file (file:/...), what Spark's Hadoop catalog reads. */
  metadataLocation: string;
  tableLocation: string;
  /** The current snapshot's id, as a string (64-bit). */
  snapshotId: string | null;
  snapshotSummary: Record<string, string> | null;
  rows: { country: string; region: string; orders: number; revenue: number }[];
  logFile: string;
}

const dir = path.join(seedSource, 'flink');

const jvmOpens = [
  'java.base/java.lang',
  'java.base/java.net',
  'java.base/java.io',
  'java.base/java.nio',
  'java.base/sun.nio.ch',
  'java.base/java.lang.reflect',
  'java.base/java.text',
  'java.base/java.time',
  'java.base/java.util',
  'java.base/java.util.concurrent',
  'java.base/java.util.concurrent.atomic',
  'java.base/java.util.concurrent.locks',
].map((p) => `--add-opens=${p}=ALL-UNNAMED`);

/** Resolves the pom's classpath and compiles SeedJobs.java (both cached under flink/target). */
async function build(log: Log): Promise<{ java: string; classpath: string }> {
  const searchPath = process.env.PATH ?? '';
  const classpath = await mavenClasspath(dir, searchPath, 'Flink 2.2, its Kafka connector, Iceberg and openlineage-flink', log);
  const java = javaExecutable({ searchPath, javaHome: process.env.JAVA_HOME });
  const javac = path.join(path.dirname(java), 'javac');
  const classes = path.join(dir, 'target', 'classes');
  const source = path.join(dir, 'SeedJobs.java');
  const compiled = path.join(classes, 'SeedJobs.class');
  const cpFile = path.join(dir, 'target', 'classpath.txt');
  const stale = !fs.existsSync(compiled) || [source, cpFile].some((f) => fs.statSync(f).mtimeMs > fs.statSync(compiled).mtimeMs);
  if (stale) {
    if (!fs.existsSync(javac)) throw new Error(`a JDK is required to compile ${source} (no javac next to ${java})`);
    fs.mkdirSync(classes, { recursive: true });
    const res = spawnSync(javac, ['-cp', classpath, '-d', classes, source], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`compiling ${source} failed:\n${res.stderr}`);
  }
  return { java, classpath: `${classes}${path.delimiter}${classpath}` };
}

export interface FlinkOptions {
  log: Log;
  /** How job 1 ends: stop-with-savepoint (FINISHED → COMPLETE, the default) or cancel (CANCELED → ABORT). */
  stop?: 'savepoint' | 'cancel';
  /**
   * openlineage-flink's detached job tracking (default true). The submitting client and the
   * JobManager each create their own listener, even in one JVM; in the default flow only the
   * client's knows the run, so nothing but START is emitted. With it the JobManager's listener
   * derives the same runId from the job id and start time (Flink's REST API) and emits the
   * checkpoint RUNNING events and the terminal event.
   */
  detachedTracking?: boolean;
  /** Upper bound for job 1 to catch up and for job 2 to finish (default 300 s). */
  timeoutMs?: number;
  heap?: string;
}

export async function runFlinkJobs(opts: FlinkOptions): Promise<FlinkResult> {
  const { log } = opts;
  const restPort = flinkRestPort();
  await requireFree(restPort, 'Flink REST API', 'SEED_FLINK_REST_PORT');
  const { java, classpath } = await build(log);
  const home = path.join(workDir(), 'flink');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(warehouse(), { recursive: true });

  // openlineage-flink reads its configuration from the file named by OPENLINEAGE_CONFIG (the
  // OpenLineage Java client's), merged with `openlineage.*` Flink options. JSON is YAML.
  const olConfig = path.join(home, 'openlineage.yml');
  fs.writeFileSync(
    olConfig,
    JSON.stringify(
      {
        transport: {
          type: 'kafka',
          topicName: names.openlineageTopic,
          properties: {
            'bootstrap.servers': `127.0.0.1:${ports.kafka}`,
            'key.serializer': 'org.apache.kafka.common.serialization.StringSerializer',
            'value.serializer': 'org.apache.kafka.common.serialization.StringSerializer',
            acks: 'all',
            'client.id': 'openlineage-flink',
          },
        },
        job: { namespace: jobNamespaces.flink },
        enableDetachedJobTracking: opts.detachedTracking ?? true,
        // Polls Flink's REST API for checkpoint counts and emits RUNNING when they change.
        trackingIntervalInSeconds: 5,
      },
      null,
      2,
    ) + '\n',
  );
  const log4j = path.join(home, 'log4j2.properties');
  fs.writeFileSync(
    log4j,
    [
      'rootLogger.level = INFO',
      'rootLogger.appenderRef.out.ref = out',
      'appender.out.type = Console',
      'appender.out.name = out',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n',
      'logger.kafka.name = org.apache.kafka',
      'logger.kafka.level = WARN',
      'logger.hadoop.name = org.apache.hadoop',
      'logger.hadoop.level = WARN',
    ].join('\n') + '\n',
  );

  const args = [
    `-Xmx${opts.heap ?? '1g'}`,
    ...jvmOpens,
    `-Dlog4j.configurationFile=file:${log4j}`,
    '-cp',
    classpath,
    'SeedJobs',
    '--bootstrap', bootstrap.flink,
    '--cdc-topic', names.cdcTopic,
    '--enriched-topic', names.enrichedTopic,
    '--enrich-job', names.enrichJob,
    '--aggregate-job', names.aggregateJob,
    '--warehouse', warehouse(),
    '--catalog', names.icebergCatalog,
    '--table', names.icebergTable,
    '--rest-port', String(restPort),
    '--state-dir', home,
    '--timeout-s', String(Math.round((opts.timeoutMs ?? 300_000) / 1000)),
    '--stop', opts.stop ?? 'savepoint',
  ];
  const logFile = path.join(home, 'flink.log');
  log(`Flink 2.2 MiniCluster (REST 127.0.0.1:${restPort}): ${names.enrichJob}, then ${names.aggregateJob} (log: ${logFile})`);
  const child = spawnLogged(java, args, { logFile, env: { ...process.env, OPENLINEAGE_CONFIG: olConfig } });
  // Relay SeedJobs' own progress lines.
  let relayed = 0;
  const relay = setInterval(() => {
    const lines = fs.readFileSync(logFile, 'utf8').split('\n').filter((l) => l.startsWith('[seed-flink] '));
    for (const l of lines.slice(relayed)) log(l.slice('[seed-flink] '.length));
    relayed = lines.length;
  }, 1000);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), (opts.timeoutMs ?? 300_000) * 2 + 60_000);
  const code = await child.exited;
  clearTimeout(timer);
  clearInterval(relay);
  const out = fs.readFileSync(logFile, 'utf8');
  for (const l of out.split('\n').filter((l) => l.startsWith('[seed-flink] ')).slice(relayed)) log(l.slice('[seed-flink] '.length));
  const line = out.split('\n').find((l) => l.startsWith('SEED_RESULT '));
  if (code !== 0 || !line) {
    throw new Error(`the Flink jobs failed (exit ${code}); see ${logFile}:\n${out.split('\n').filter((l) => /Exception|ERROR/.test(l)).slice(0, 20).join('\n')}`);
  }
  const result = { ...(JSON.parse(line.slice('SEED_RESULT '.length)) as Omit<FlinkResult, 'logFile'>), logFile };
  log(`${names.aggregateJob} committed Iceberg snapshot ${result.snapshotId} (${result.rows.length} rows): ${result.metadataLocation}`);
  return result;
}
