import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kafka, logLevel } from 'kafkajs';
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../../src/config';
import { neo4jAdmin } from '../../src/graph/embedded/admin';
import { freePort, startEmbeddedNeo4j, type EmbeddedNeo4j } from '../../src/graph/embedded/neo4j';
import { createDriver } from '../../src/graph/driver';
import { loadQueries, Query } from '../../src/graph/queries';
import { createLogger } from '../../src/log';
import { repoRoot } from '../support/corpus';
import { assertSameGraph, dumpNamespaces, normalisedDump } from '../support/dump';
import { generateEvents } from '../support/generate';
import { uniquePrefix } from '../support/isolate';
import { startKafkaCluster, type KafkaCluster } from '../support/kafka-broker';
import { waitFor } from '../support/kafka';

/**
 * Issue 27 item 4, the cluster tier (`npm run test:cluster`, run by .ci/run): the production shape
 * on one machine, every part a real process. Three KRaft brokers (replication 3,
 * min.insync.replicas 2); two API replicas acknowledging into the events topic
 * (TRIBUTARY_INGEST_LOG=kafka), the first reading graph A (the Neo4j the test runner started), the
 * second graph B (a read replica: its own Neo4j); two workers projecting into A (one consumer
 * group) and one into B (its own group). Clients post events to both APIs, retrying what was not
 * acknowledged, while one broker and then one of A's workers are SIGKILLed. Then: every
 * acknowledged event is in both graphs, both graphs' lag (on each API's /readyz) returns to 0, and
 * A and B have identical canonical dumps.
 */
const GROUPS = 8; // generated event streams of 72 events each
const TOPIC = `cluster.events.${Date.now().toString(36)}`;
const config = loadConfig();
const log = createLogger('warn', 'cluster-tier');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-cluster-'));
const main = path.join(repoRoot, 'dist', 'src', 'main.js');

let kafka: KafkaCluster;
let replica: EmbeddedNeo4j;
/** Graph C: a replica started from a dump of B (second case). */
let copy: EmbeddedNeo4j | undefined;
const graphA = process.env.NEO4J_URI!;
let graphB: string;
const children: { name: string; child: ChildProcess; port: number }[] = [];
/** What the first case leaves for the second: its prefix and the API of graph A. */
const first: { prefix?: string; apiA?: { port: number } } = {};

async function startProcess(name: string, shape: 'api' | 'worker', env: Record<string, string>): Promise<{ name: string; child: ChildProcess; port: number }> {
  const port = await freePort();
  const home = path.join(scratch, name);
  fs.mkdirSync(home, { recursive: true });
  const out = fs.openSync(path.join(scratch, `${name}.log`), 'a');
  const child = spawn(process.execPath, [main, shape], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TRIBUTARY_HOME: home,
      TRIBUTARY_LOG_LEVEL: 'warn',
      TRIBUTARY_PLAN_WARMUP: 'false',
      KAFKA_BROKERS: kafka.bootstrap,
      KAFKA_TOPIC: TOPIC,
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      TRIBUTARY_WORKER_BATCH: '50',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const started = { name, child, port };
  children.push(started);
  await waitFor(`${name} answering`, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited; see ${path.join(scratch, `${name}.log`)}`);
    return (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) as boolean;
  }, 120_000);
  return started;
}

/** Until the API's /readyz says its graph has projected the whole topic (a fresh measure). */
const lagZero = (api: { name: string; port: number }) =>
  waitFor(`${api.name}: graph lag 0`, async () => {
    const ready = (await (await fetch(`http://127.0.0.1:${api.port}/readyz`)).json()) as { ingestLog?: { graphLag: { events: number; at: string } | null } };
    const lag = ready.ingestLog?.graphLag;
    return lag !== null && lag !== undefined && lag.events === 0 && Date.parse(lag.at) > Date.now() - 1_500;
  }, 180_000);

/** SIGTERM, then the exit (a clean shutdown lets go of the graph and leaves the group). */
async function stopProcess(name: string): Promise<void> {
  const p = children.find((c) => c.name === name)!;
  if (p.child.exitCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await exited;
}

/** Events a worker has taken from Kafka so far, every outcome (its /metrics). */
async function kafkaEventsTaken(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return [...text.matchAll(/^tributary_ingest_events_total\{[^}]*transport="kafka"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

before(async () => {
  assert.ok(graphA, 'the cluster tier needs NEO4J_URI: run it with `npm run test:cluster`');
  const [k, r] = await Promise.allSettled([
    startKafkaCluster(path.join(scratch, 'kafka'), config.embedded.searchPath, config.embedded.javaHome, 3),
    startEmbeddedNeo4j({ ...config.embedded, home: path.join(scratch, 'replica-neo4j'), port: 0, heap: '512m', pageCache: '128m' }, log),
  ]);
  if (k.status === 'fulfilled') kafka = k.value;
  if (r.status === 'fulfilled') replica = r.value;
  if (k.status === 'rejected') throw k.reason;
  if (r.status === 'rejected') throw r.reason;
  graphB = replica.uri;
  const admin = new Kafka({ clientId: 'cluster-tier', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  // A new cluster answers metadata requests before every node knows every topic: poll for leaders.
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 4, replicationFactor: 3 }, { topic: `${TOPIC}.dlq`, numPartitions: 1, replicationFactor: 3 }], waitForLeaders: false });
  await waitFor('the topics’ leaders', async () => {
    const meta = await admin.fetchTopicMetadata({ topics: [TOPIC, `${TOPIC}.dlq`] }).catch(() => null);
    return meta !== null && meta.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0 && p.isr.length === 3));
  });
  await admin.disconnect();
});

after(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await replica?.stop();
  await copy?.stop();
  await kafka?.stop();
  if (!process.exitCode) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the production shape on one machine: three brokers, two APIs, three workers, two graphs', () => {
  it('loses no acknowledged event when a broker and a worker are SIGKILLed, and the two graphs converge', async () => {
    const workers = await Promise.all([
      startProcess('worker-a1', 'worker', { NEO4J_URI: graphA, KAFKA_GROUP_ID: 'graph-a', TRIBUTARY_LOG_LEVEL: 'info' }),
      startProcess('worker-a2', 'worker', { NEO4J_URI: graphA, KAFKA_GROUP_ID: 'graph-a', TRIBUTARY_LOG_LEVEL: 'info' }),
      startProcess('worker-b', 'worker', { NEO4J_URI: graphB, KAFKA_GROUP_ID: 'graph-b', TRIBUTARY_LOG_LEVEL: 'info' }),
    ]);
    const apis = await Promise.all([
      startProcess('api-a', 'api', { NEO4J_URI: graphA, TRIBUTARY_INGEST_LOG: 'kafka' }),
      startProcess('api-b', 'api', { NEO4J_URI: graphB, TRIBUTARY_INGEST_LOG: 'kafka' }),
    ]);
    const prefix = uniquePrefix('cluster');
    const events = Array.from({ length: GROUPS }, (_, g) => generateEvents(`${prefix}-${g}`, g + 1)).flat();
    const acknowledged = new Set<string>();
    type Answer = { eventId?: string; position?: { partition: number; offset: number } };
    /** Where each acknowledged event went, as its answer said (for the failure message). */
    const positions = new Map<string, unknown>();
    let refusals = 0;
    let next = 0;
    const killed: string[] = [];
    const send = async (event: unknown, k: number) => {
      for (const deadline = Date.now() + 120_000; ; ) {
        const api = apis[(k + refusals) % apis.length]!;
        const res = await fetch(`http://127.0.0.1:${api.port}/api/v1/lineage`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'tributary-wait': 'none' },
          body: JSON.stringify(event),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Answer }), () => ({ status: 0, body: {} as Answer }));
        if (res.status === 201 && res.body.eventId) {
          positions.set(res.body.eventId, { ...res.body.position, api: api.name, at: new Date().toISOString() });
          return acknowledged.add(res.body.eventId);
        }
        refusals++;
        assert.ok(Date.now() < deadline, `event ${k} never acknowledged (last status ${res.status})`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let k = next++; k < events.length; k = next++) {
          if (k === Math.floor(events.length / 3)) {
            kafka.nodes[1]!.kill();
            killed.push(`broker 2 at ${new Date().toISOString()}`);
          }
          if (k === Math.floor((2 * events.length) / 3)) {
            workers[0]!.child.kill('SIGKILL');
            killed.push(`worker-a1 at ${new Date().toISOString()}`);
          }
          await send(events[k], k);
        }
      }),
    );
    assert.equal(killed.length, 2);
    assert.equal(acknowledged.size, events.length, 'every event acknowledged once (ids are content hashes; the events differ)');

    // Each API reports its graph's lag behind the topic; both return to 0.
    for (const api of apis) await lagZero(api);

    const drivers: Driver[] = [graphA, graphB].map((uri) => createDriver({ uri, user: 'neo4j', retryMs: 3000 }));
    try {
      const stillPending = loadQueries()[Query.StillPending];
      const missing = await Promise.all(
        drivers.map(async (driver) => (await driver.executeQuery(stillPending, { ids: [...acknowledged] }, { routing: neo4j.routing.READ })).records.map((r) => r.get('id') as string)),
      );
      const offsets = await Promise.all(drivers.map(async (d) => (await d.executeQuery(loadQueries()[Query.LogOffsets], { topic: TOPIC })).records.map((r) => `${r.get('partition')}:${r.get('next')}`)));
      const why = missing.flat().map((id) => `${id} at ${JSON.stringify(positions.get(id))}`).join('; ');
      assert.deepEqual(missing, [[], []], `every acknowledged event in both graphs (missing from A, from B); ${why}; graph offsets A ${offsets[0]} B ${offsets[1]}; killed ${JSON.stringify(killed)}; logs in ${scratch}`);
      const [a, b] = await Promise.all(drivers.map(async (driver) => normalisedDump(prefix, await dumpNamespaces({ driver }, prefix))));
      assert.ok(a!.length > 1000, `graph size ${a!.length}`);
      assertSameGraph(a!, b!, 'graph A (two workers, one killed) and graph B (the replica) differ');
      Object.assign(first, { prefix, apiA: apis[0] });
      process.stdout.write(`# cluster tier: ${acknowledged.size} events acknowledged (${refusals} refusals retried), ${a!.length} nodes and relationships in each graph\n`);
    } finally {
      await Promise.all(drivers.map((d) => d.close()));
    }
  });
  it('starts a new replica from a neo4j-admin dump of another, and it reads only what the copy lacks', async () => {
    assert.ok(first.prefix && first.apiA, 'the first case ran');
    // Community dumps offline databases: the copy's source (graph B) stops, with what uses it.
    await Promise.all([stopProcess('worker-b'), stopProcess('api-b')]);
    await replica.stop();
    const dumps = path.join(scratch, 'dumps');
    fs.mkdirSync(dumps);
    const admin = async (home: string, args: string[]) => {
      let said = '';
      const code = await neo4jAdmin({ ...config.embedded, home }, args, () => undefined, (c) => (said += c));
      assert.equal(code, 0, `neo4j-admin ${args.join(' ')}: ${said.split('\n').filter((l) => !l.startsWith('Files:')).join('\n')}`);
    };
    await admin(path.join(scratch, 'replica-neo4j'), ['database', 'dump', 'neo4j', `--to-path=${dumps}`, '--overwrite-destination=true']);
    await admin(path.join(scratch, 'copy-neo4j'), ['database', 'load', 'neo4j', `--from-path=${dumps}`, '--overwrite-destination=true']);

    // Events the copy lacks: acknowledged after the dump, before graph C exists.
    const prefix = uniquePrefix('cluster-after-copy');
    const later = generateEvents(prefix, 99);
    for (const event of later) {
      const res = await fetch(`http://127.0.0.1:${first.apiA.port}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json', 'tributary-wait': 'none' }, body: JSON.stringify(event) });
      assert.equal(res.status, 201, await res.text());
    }

    copy = await startEmbeddedNeo4j({ ...config.embedded, home: path.join(scratch, 'copy-neo4j'), port: 0, heap: '512m', pageCache: '128m' }, log);
    const worker = await startProcess('worker-c', 'worker', { NEO4J_URI: copy.uri, KAFKA_GROUP_ID: 'graph-c', TRIBUTARY_LOG_LEVEL: 'info' });
    const api = await startProcess('api-c', 'api', { NEO4J_URI: copy.uri, TRIBUTARY_INGEST_LOG: 'kafka' });
    await Promise.all([lagZero(api), lagZero({ name: 'api-a', port: first.apiA.port })]);
    // A new group with no committed offsets would read the topic from its start; the worker seeks
    // to the offsets the copy recorded instead, so it takes exactly the events acknowledged since.
    assert.equal(await kafkaEventsTaken(worker.port), later.length, `worker-c read only what the copy lacks (log: ${path.join(scratch, 'worker-c.log')})`);
    assert.match(fs.readFileSync(path.join(scratch, 'worker-c.log'), 'utf8'), /resuming a partition where the graph ends/);

    const drivers: Driver[] = [graphA, copy.uri].map((uri) => createDriver({ uri, user: 'neo4j', retryMs: 3000 }));
    try {
      for (const p of [first.prefix, prefix]) {
        const [a, c] = await Promise.all(drivers.map(async (driver) => normalisedDump(p, await dumpNamespaces({ driver }, p))));
        assert.ok(c!.length > 50, `graph size ${c!.length}`);
        assertSameGraph(a!, c!, `graph A and graph C (loaded from B's dump, then caught up) differ under ${p}`);
      }
      process.stdout.write(`# cluster tier: a replica loaded from a dump caught up by ${later.length} events, none of the copy's read again\n`);
    } finally {
      await Promise.all(drivers.map((d) => d.close()));
    }
  });
});
