import fs from 'node:fs';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCore, type Core } from '../../src/app';
import { loadConfig } from '../../src/config';
import { assertSameGraph, dumpNamespaces, normalisedDump } from '../support/dump';
import { startEmbeddedNeo4j, type EmbeddedNeo4j } from '../../src/graph/embedded/neo4j';
import { KafkaWorker } from '../../src/ingest/kafka-worker';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';
import { startService, type TestService } from '../support/app';
import { generateEvents } from '../support/generate';
import { uniquePrefix } from '../support/isolate';
import { committed, createTopic, kafkaClient, kafkaSettings, produce, waitFor } from '../support/kafka';

const log = createLogger('error');
const keyed = (events: Record<string, unknown>[]) => events.map((e) => ({ key: String((e.job as { name: string }).name), value: JSON.stringify(e) }));
const runsIn = async (core: Pick<Core, 'driver'>, prefix: string) =>
  (await dumpNamespaces(core, prefix)).nodes.filter((n) => n.labels.includes('Run')).length;

describe('Kafka worker when Neo4j goes down mid-stream', () => {
  let neo4j: EmbeddedNeo4j;
  let core: Core;
  const config = loadConfig();
  const home = path.join(config.embedded.home, `test-neo4j-restart-${process.pid}`);
  before(async () => {
    neo4j = await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '512m', pageCache: '128m' }, log);
    core = await createCore({ ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } }, log);
  });
  after(async () => {
    await core?.close();
    await neo4j?.stop();
    fs.rmSync(home, { recursive: true, force: true }); // its own store (about 0.5 GB), used by this test only
  });

  it('pauses while Neo4j is stopped, resumes when it is back, and loses nothing', async () => {
    const settings = kafkaSettings('restart', { maxBatch: 20, stuckMs: 2000 });
    await createTopic(settings, 2);
    const ns = uniquePrefix('restart');
    const events = generateEvents(ns, 21, 10, 3); // 90 events, 30 runs (+1 parent)
    const producer = kafkaClient(settings).producer();
    await producer.connect();
    const metrics = new Metrics(false);
    const worker = new KafkaWorker(settings, core.ingestor, log, metrics);
    await worker.start();
    try {
      await produce(producer, settings.topic, keyed(events.slice(0, 45)));
      await waitFor('the first half stored', async () => (await runsIn(core, ns)) > 0);
      const port = Number(new URL(neo4j.uri).port);
      await neo4j.stop();
      await produce(producer, settings.topic, keyed(events.slice(45)));
      await new Promise((r) => setTimeout(r, 4000));
      // With KAFKA_STUCK_MS 2 s here, the partitions waiting on Neo4j make the worker not ready.
      assert.ok(worker.stuck().length > 0, 'a partition waiting on the database is reported stuck');
      assert.ok(worker.stuck().every((p) => p.partition.startsWith(`${settings.topic}/`) && p.forMs > 2000));
      const committedWhileDown = await committed(settings);
      assert.ok(committedWhileDown < events.length, 'nothing is committed for events not stored');
      neo4j = await startEmbeddedNeo4j({ ...config.embedded, home, port, heap: '512m', pageCache: '128m' }, log);
      await waitFor('every run stored after the restart', async () => (await runsIn(core, ns)) === 31, 120_000);
      await waitFor('every offset committed', async () => (await committed(settings)) === events.length, 60_000);
      assert.deepEqual(worker.stuck(), [], 'ready again once the partitions move');
      // A write Neo4j committed as it went down is acknowledged to nobody: its retry finds the events
      // stored and counts them as duplicates. So: never stored twice, every event accounted for, and
      // the graph is the graph of one clean run.
      const text = await metrics.registry.metrics();
      const count = (outcome: string) => Number(new RegExp(`tributary_ingest_events_total\\{transport="kafka",outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      assert.ok(count('stored') <= events.length && count('stored') > 0, `stored ${count('stored')} of ${events.length}`);
      assert.ok(count('stored') + count('duplicate') >= events.length, `stored ${count('stored')} + duplicate ${count('duplicate')} < ${events.length}`);
      const clean = uniquePrefix('restart-clean');
      await core.ingestor.ingest(generateEvents(clean, 21, 10, 3).map((value) => ({ raw: JSON.stringify(value), value })));
      assertSameGraph(normalisedDump(ns, await dumpNamespaces(core, ns)), normalisedDump(clean, await dumpNamespaces(core, clean)));
    } finally {
      await worker.stop();
      await producer.disconnect();
    }
  });
});

describe('two workers in one group, one killed mid-stream', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  it('every event ends up in the graph, and the graph equals a single clean run', async () => {
    const settings = kafkaSettings('group', { sessionTimeoutMs: 6000, maxBatch: 10 });
    await createTopic(settings, 4);
    const ns = uniquePrefix('group');
    const clean = uniquePrefix('group-clean');
    const events = generateEvents(ns, 33, 16, 3); // 144 events, 48 runs (+1 parent)
    const env = {
      ...process.env,
      PORT: '0',
      KAFKA_BROKERS: settings.brokers.join(','),
      KAFKA_TOPIC: settings.topic,
      KAFKA_DLQ_TOPIC: settings.dlqTopic,
      KAFKA_GROUP_ID: settings.groupId,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      TRIBUTARY_WORKER_BATCH: '10',
      TRIBUTARY_LOG_LEVEL: 'error',
    };
    const main = path.resolve(__dirname, '..', '..', 'src', 'main.js');
    const spawnWorker = (): ChildProcess => spawn(process.execPath, [main, 'worker'], { env, stdio: 'ignore' });
    const workers = [spawnWorker(), spawnWorker()];
    const producer = kafkaClient(settings).producer();
    await producer.connect();
    try {
      await produce(producer, settings.topic, keyed(events));
      await waitFor('some events stored', async () => (await runsIn(svc.app, ns)) >= 5);
      workers[0]!.kill('SIGKILL');
      await waitFor('every run stored by the survivor', async () => (await runsIn(svc.app, ns)) === 49, 120_000);
      await waitFor('every offset committed', async () => (await committed(settings)) === events.length, 60_000);
      await svc.app.ingestor.ingest(generateEvents(clean, 33, 16, 3).map((value) => ({ raw: JSON.stringify(value), value })));
      assertSameGraph(normalisedDump(ns, await dumpNamespaces(svc.app, ns)), normalisedDump(clean, await dumpNamespaces(svc.app, clean)));
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await producer.disconnect();
    }
  });
});
