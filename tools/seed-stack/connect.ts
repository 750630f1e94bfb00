import fs from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { isSecretKey } from '../../src/kafka-connect/events';
import { writeConnectWorkerFiles } from '../kafka/connect-worker';
import { bootstrap, jobNamespaces, names, ports, postgres as pgContract, seedSource, workDir, type Log } from './contract';
import { publicationName, type SeedPostgres } from './postgres';
import { requireFree, spawnLogged, waitUntil, type Child } from './proc';

/**
 * The seed stack's Kafka Connect: one distributed-mode worker (Kafka Connect 3.9.2, classpath from
 * tools/seed-stack/connect/pom.xml, the connectors on that flat classpath) keeping its
 * configuration, offsets and status in topics on the seed Kafka, REST on 127.0.0.1:ports.connect.
 * It runs two connectors:
 *  - `shop-cdc`: Debezium's PostgresConnector (pgoutput) on shop.orders → topic pg.shop.orders,
 *    plain JSON (no schemas), with Debezium's OpenLineage integration posting to `openlineageUrl`
 *    and its OpenLineage SMT so the topic is reported as the output;
 *  - `orders-archive`: FileStreamSink copying pg.shop.orders to `<workDir()>/archive/orders.jsonl`,
 *    which reports no lineage at all.
 */
export interface SeedConnect {
  restUrl: string;
  /**
   * What the Connect REST API answers a lineage collector (`GET /` and `GET
   * /connectors?expand=info&expand=status`), with secrets masked: while both connectors run, and
   * again with the archive connector paused.
   */
  snapshotRest(): Promise<ConnectRestCapture>;
  /** Deletes the connectors (Debezium sends COMPLETE as its task stops), then stops the worker. */
  stop(): Promise<void>;
}

export interface ConnectRestCapture {
  capturedAt: string;
  requests: string[];
  /** The worker's GET / (version, commit, kafka_cluster_id). */
  worker: unknown;
  running: unknown;
  /** After PUT /connectors/<archive>/pause (resumed afterwards). */
  archivePaused: unknown;
  masked: string[];
}

function maskSecrets(answer: unknown, masked: Set<string>): unknown {
  if (!answer || typeof answer !== 'object') return answer;
  if (Array.isArray(answer)) return answer.map((x) => maskSecrets(x, masked));
  return Object.fromEntries(
    Object.entries(answer as Record<string, unknown>).map(([k, v]) => {
      if (isSecretKey(k) && typeof v === 'string') {
        masked.add(k);
        return [k, '********'];
      }
      return [k, maskSecrets(v, masked)];
    }),
  );
}

const workerGroup = 'seed-connect';

export async function startConnect(opts: { bootstrap: string; pg: SeedPostgres; openlineageUrl: string; log: Log }): Promise<SeedConnect> {
  await requireFree(ports.connect, 'Kafka Connect REST', 'SEED_CONNECT_PORT');
  const home = path.join(workDir(), 'connect');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const classpath = await mavenClasspath(path.join(seedSource, 'connect'), process.env.PATH ?? '', 'Kafka Connect 3.9 with Debezium 3.5', opts.log);
  const java = javaExecutable({ searchPath: process.env.PATH ?? '', javaHome: process.env.JAVA_HOME });
  const restUrl = `http://127.0.0.1:${ports.connect}`;

  const files = writeConnectWorkerFiles(home, {
    bootstrap: opts.bootstrap,
    port: ports.connect,
    group: workerGroup,
    classpath,
    debugLoggers: ['io.debezium.openlineage', 'io.openlineage'],
  });
  // Debezium's OpenLineage client configuration: the HTTP transport to the recorder.
  const openlineageYml = path.join(home, 'openlineage.yml');
  // openlineage-java refuses a url with a path together with an endpoint ("You can't pass both uri
  // and endpoint parameters"): the url is the origin, the endpoint the recorder's path + api/v1/lineage.
  const olUrl = new URL(opts.openlineageUrl);
  const endpoint = `${olUrl.pathname.replace(/\/$/, '')}/api/v1/lineage`;
  fs.writeFileSync(openlineageYml, ['transport:', '  type: http', `  url: ${olUrl.origin}`, `  endpoint: ${endpoint}`, ''].join('\n'));

  const child: Child = spawnLogged(
    java,
    [...files.jvm, 'org.apache.kafka.connect.cli.ConnectDistributed', files.workerProps],
    { logFile: path.join(home, 'connect.log'), cwd: home },
  );
  const stopWorker = () => child.stop(60_000);
  try {
    await waitUntil(`Kafka Connect REST on ${restUrl} (log: ${child.logFile})`, async () => {
      if (child.process.exitCode !== null) throw new Error(`Kafka Connect exited; see ${child.logFile}`);
      const res = await fetch(`${restUrl}/connectors`, { signal: AbortSignal.timeout(5_000) });
      return res.ok;
    }, 180_000, 1_000);
    await registerConnectors(restUrl, { pg: opts.pg, openlineageYml, log: opts.log });
    await waitRunning(restUrl, [names.debeziumConnector, names.archiveConnector], child);
    opts.log(`Kafka Connect (distributed) at ${restUrl}: ${names.debeziumConnector} and ${names.archiveConnector} RUNNING`);
    const rows = Number(await opts.pg.exec(`select count(*) from ${pgContract.schema}.${pgContract.table}`));
    await waitForTopicRecords(opts.bootstrap, names.cdcTopic, rows, 180_000);
    opts.log(`${names.cdcTopic} holds the snapshot (${rows} rows of ${pgContract.schema}.${pgContract.table})`);
  } catch (err) {
    await stopWorker();
    throw err;
  }

  const getJson = async (url: string) => {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const listing = `${restUrl}/connectors?expand=info&expand=status`;
  return {
    restUrl,
    snapshotRest: async () => {
      const masked = new Set<string>();
      const worker = await getJson(`${restUrl}/`);
      const running = maskSecrets(await getJson(listing), masked);
      const archive = `${restUrl}/connectors/${names.archiveConnector}`;
      await fetch(`${archive}/pause`, { method: 'PUT', signal: AbortSignal.timeout(10_000) });
      await waitUntil(`${names.archiveConnector} PAUSED`, async () => {
        const status = (await getJson(`${archive}/status`)) as { connector?: { state?: string } };
        return status.connector?.state === 'PAUSED';
      }, 60_000, 500);
      const archivePaused = maskSecrets(await getJson(listing), masked);
      await fetch(`${archive}/resume`, { method: 'PUT', signal: AbortSignal.timeout(10_000) });
      return { capturedAt: new Date().toISOString(), requests: ['GET /', `GET /connectors?expand=info&expand=status`, `PUT /connectors/${names.archiveConnector}/pause`], worker, running, archivePaused, masked: [...masked].sort() };
    },
    stop: async () => {
      if (child.process.exitCode === null) {
        for (const name of [names.debeziumConnector, names.archiveConnector]) await deleteConnector(restUrl, name, opts.log);
      }
      await stopWorker();
    },
  };
}

/** The connectors' configurations, as registered (PUT /connectors/<name>/config). */
export function connectorConfigs(opts: { pg: SeedPostgres; openlineageYml: string }): Record<string, Record<string, string>> {
  const json = 'org.apache.kafka.connect.json.JsonConverter';
  const str = 'org.apache.kafka.connect.storage.StringConverter';
  return {
    [names.debeziumConnector]: {
      'connector.class': 'io.debezium.connector.postgresql.PostgresConnector',
      'tasks.max': '1',
      'database.hostname': opts.pg.host,
      'database.port': String(opts.pg.port),
      'database.user': pgContract.user,
      'database.password': pgContract.password,
      'database.dbname': pgContract.database,
      'topic.prefix': 'pg',
      'plugin.name': 'pgoutput',
      'slot.name': 'seed_shop_cdc',
      'publication.name': publicationName,
      'publication.autocreate.mode': 'disabled',
      'table.include.list': `${pgContract.schema}.${pgContract.table}`,
      'snapshot.mode': 'initial',
      'decimal.handling.mode': 'double',
      // A delete is one event (op d, after null) and no tombstone record after it: the topic is
      // read, not compacted, and the readers (Flink, the archive) would get a null value each time.
      'tombstones.on.delete': 'false',
      'key.converter': json,
      'key.converter.schemas.enable': 'false',
      'value.converter': json,
      'value.converter.schemas.enable': 'false',
      // Debezium's OpenLineage integration (Debezium 3.5, documentation/.../integrations/openlineage.adoc).
      'openlineage.integration.enabled': 'true',
      'openlineage.integration.config.file.path': opts.openlineageYml,
      'openlineage.integration.job.namespace': jobNamespaces.debezium,
      'openlineage.integration.job.description': 'CDC of the shop database (shop.orders) into Kafka topic pg.shop.orders',
      'openlineage.integration.job.tags': 'env=seed,team=data-platform,source=postgresql',
      'openlineage.integration.job.owners': 'Data Platform=maintainer,Shop Team=owner',
      'openlineage.integration.dataset.kafka.bootstrap.servers': bootstrap.connect,
      // The OpenLineage SMT reports the topics written (output datasets).
      transforms: 'openlineage',
      'transforms.openlineage.type': 'io.debezium.transforms.openlineage.OpenLineage',
    },
    [names.archiveConnector]: {
      'connector.class': 'org.apache.kafka.connect.file.FileStreamSinkConnector',
      'tasks.max': '1',
      topics: names.cdcTopic,
      file: path.join(workDir(), 'archive', 'orders.jsonl'),
      // The topic's JSON text as it is, one record a line.
      'key.converter': str,
      'value.converter': str,
    },
  };
}

export async function registerConnectors(restUrl: string, opts: { pg: SeedPostgres; openlineageYml: string; log: Log }): Promise<void> {
  fs.mkdirSync(path.join(workDir(), 'archive'), { recursive: true });
  for (const [name, config] of Object.entries(connectorConfigs(opts))) {
    const res = await fetch(`${restUrl}/connectors/${name}/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(config),
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new Error(`registering connector ${name} failed: ${res.status} ${await res.text()}`);
    opts.log(`connector ${name} registered (${config['connector.class']})`);
  }
}

interface ConnectorStatus {
  connector: { state: string; trace?: string };
  tasks: { id: number; state: string; trace?: string }[];
}

async function waitRunning(restUrl: string, connectors: string[], child: Child): Promise<void> {
  for (const name of connectors) {
    let last = 'no status yet';
    let failed: string | null = null;
    let exited = false;
    try {
      // waitUntil takes a throwing check for "not yet": a FAILED state or a dead worker end the wait by returning true.
      await waitUntil(`connector ${name} and its tasks RUNNING`, async () => {
        if (child.process.exitCode !== null) return (exited = true);
        const res = await fetch(`${restUrl}/connectors/${name}/status`, { signal: AbortSignal.timeout(5_000) });
        if (!res.ok) return false;
        const status = (await res.json()) as ConnectorStatus;
        last = JSON.stringify(status);
        const bad = [status.connector, ...status.tasks].find((s) => s.state === 'FAILED');
        if (bad) failed = bad.trace ?? last;
        return failed !== null || (status.connector.state === 'RUNNING' && status.tasks.length > 0 && status.tasks.every((t) => t.state === 'RUNNING'));
      }, 180_000, 1_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}; last status ${last}; see ${child.logFile}`);
    }
    if (exited) throw new Error(`Kafka Connect exited; see ${child.logFile}`);
    if (failed !== null) throw new Error(`connector ${name} FAILED (see ${child.logFile}):\n${failed}`);
  }
}

/** Waits until `topic` holds at least `count` records (sum of its partitions' end offsets). */
export async function waitForTopicRecords(brokers: string, topic: string, count: number, timeoutMs: number): Promise<number> {
  const admin = new Kafka({ clientId: 'seed-connect-check', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  let seen = 0;
  try {
    await waitUntil(`${count} records in topic ${topic} (seen ${seen})`, async () => {
      const offsets = await admin.fetchTopicOffsets(topic);
      seen = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
      return seen >= count;
    }, timeoutMs, 1_000);
  } finally {
    await admin.disconnect();
  }
  return seen;
}

/** DELETE /connectors/<name>, then waits until the worker no longer lists it (its tasks stopped). */
async function deleteConnector(restUrl: string, name: string, log: Log): Promise<void> {
  try {
    const res = await fetch(`${restUrl}/connectors/${name}`, { method: 'DELETE', signal: AbortSignal.timeout(60_000) });
    if (!res.ok && res.status !== 404) {
      log(`deleting connector ${name} answered ${res.status}: ${await res.text()}`);
      return;
    }
    await waitUntil(`connector ${name} gone`, async () => {
      const list = (await (await fetch(`${restUrl}/connectors`, { signal: AbortSignal.timeout(5_000) })).json()) as string[];
      return !list.includes(name);
    }, 60_000, 500);
    log(`connector ${name} deleted`);
  } catch (err) {
    log(`deleting connector ${name} failed: ${(err as Error).message}`);
  }
}
