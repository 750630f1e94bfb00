import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { datasetId, jobId } from '../../src/ids';
import type { KafkaConnectCollector } from '../../src/kafka-connect/collector';
import { createConnectCollector } from '../../src/kafka-connect/service';
import { Metrics } from '../../src/metrics';
import { startConnectWorker, type ConnectWorker } from '../support/connect-worker';
import { startService, type TestService } from '../support/app';
import { uniquePrefix } from '../support/isolate';
import { kafkaClient, kafkaSettings } from '../support/kafka';

/**
 * The Kafka Connect collector against a real Connect worker (Kafka Connect 3.9 from Maven Central,
 * distributed mode on the tier's broker) and the real ingestion and graph: connectors created,
 * failed, paused, reconfigured and deleted on the worker, then read as lineage over GraphQL; the
 * worker frozen and killed mid-round.
 */

let svc: TestService;
let worker: ConnectWorker;
const bootstrap = process.env.TEST_KAFKA_BROKERS ?? '';
const cluster = uniquePrefix('connect').replace(/[^A-Za-z0-9._-]/g, '-');
const topic = `${cluster}.orders`;
const loaded = `${cluster}.loaded`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-connect-'));
const kafkaNs = `kafka://${bootstrap}`;
const metrics = new Metrics(false);
const SINK = 'org.apache.kafka.connect.file.FileStreamSinkConnector';
const SOURCE = 'org.apache.kafka.connect.file.FileStreamSourceConnector';
const str = 'org.apache.kafka.connect.storage.StringConverter';

function newCollector(): KafkaConnectCollector {
  const config = loadConfig({
    TRIBUTARY_KAFKA_CONNECT_URLS: `${cluster}=${worker.restUrl}/`,
    TRIBUTARY_KAFKA_CONNECT_KAFKA: bootstrap,
    TRIBUTARY_KAFKA_CONNECT_TIMEOUT_MS: '3000',
  });
  return createConnectCollector(config.kafkaConnect!, { ingestor: svc.app.ingestor, executor: svc.app.executor, rules: svc.app.rules, metrics });
}

const job = (name: string) => jobId(`kafka-connect://${cluster}`, name);
const JOB = `query($id: ID!) { node(id: $id) { ... on Job { id processingType collectedBy retiredAt lineageUnknown inputs { id } outputs { id } latestRun { runId state errorMessage facets } } } }`;
async function jobOf(name: string): Promise<any> {
  const r = await svc.graphql(JOB, { id: job(name) });
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.node;
}
/** Current lineage: the jobs reading `dsId` now. */
async function currentReaders(dsId: string): Promise<string[]> {
  const r = await svc.graphql(`query($id: ID!) { lineage(nodeId: $id, direction: DOWNSTREAM, depth: 1, evidence: ALL) { nodes { id kind } } }`, { id: dsId });
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.lineage.nodes.filter((n: any) => n.kind === 'JOB').map((n: any) => n.id).sort();
}
/** An event of another producer, now. */
const producerEvent = (name: string, outputs: { namespace: string; name: string }[]) => ({
  eventType: 'COMPLETE',
  eventTime: new Date().toISOString(),
  producer: 'https://tributary.test/events',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: randomUUID() },
  job: { namespace: `${cluster}-cdc`, name },
  outputs,
});
const round = async (c: KafkaConnectCollector) => (await c.roundAll()).get(cluster)!;

before(async () => {
  svc = await startService();
  const settings = kafkaSettings('connect');
  const admin = kafkaClient(settings).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }, { topic: loaded, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafkaClient(settings).producer();
  await producer.connect();
  await producer.send({ topic, messages: [1, 2, 3].map((n) => ({ value: JSON.stringify({ order: n }) })) });
  await producer.disconnect();
  // A producer that reports writing the topic (as Debezium's integration does): the topic is known.
  const res = await svc.post('/api/v1/lineage', JSON.stringify(producerEvent('orders-cdc', [{ namespace: kafkaNs, name: topic }])), { 'Tributary-Wait': 'projected' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  worker = await startConnectWorker(path.join(svc.config.embedded.home, 'test-connect', cluster), bootstrap, cluster, process.env.PATH ?? '', process.env.JAVA_HOME);
});
after(async () => {
  await worker?.stop();
  await svc?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Kafka Connect collector on a real Connect worker', () => {
  let collector: KafkaConnectCollector;
  let archiveRun = '';

  it('turns each connector into lineage: a sink with its topic in and file out, a source, a topics.regex, a failed task with its trace, a class it does not map', async () => {
    await worker.put('archive', { 'connector.class': SINK, topics: topic, file: path.join(dir, 'archive.jsonl'), 'key.converter': str, 'value.converter': str });
    fs.writeFileSync(path.join(dir, 'in.txt'), 'a line\n');
    await worker.put('loader', { 'connector.class': SOURCE, file: path.join(dir, 'in.txt'), topic: loaded, 'key.converter': str, 'value.converter': str });
    await worker.put('by-regex', { 'connector.class': SINK, 'topics.regex': `${cluster.replace(/\./g, '\\.')}\\.ord.*`, file: path.join(dir, 'regex.jsonl'), 'key.converter': str, 'value.converter': str });
    await worker.put('broken', { 'connector.class': SINK, topics: topic, file: path.join(dir, 'no-such-dir', 'out.jsonl'), 'key.converter': str, 'value.converter': str });
    await worker.put('mirror-heartbeats', {
      'connector.class': 'org.apache.kafka.connect.mirror.MirrorHeartbeatConnector',
      'source.cluster.alias': 'east',
      'target.cluster.alias': 'west',
      'source.cluster.bootstrap.servers': bootstrap,
      'target.cluster.bootstrap.servers': bootstrap,
      'heartbeats.topic.replication.factor': '1',
    });
    for (const name of ['archive', 'loader', 'by-regex', 'mirror-heartbeats']) await worker.waitState(name, 'RUNNING');
    // The connector runs; its task cannot open the file.
    await worker.waitState('broken', 'RUNNING', 'FAILED');

    collector = newCollector();
    const out = await round(collector);
    assert.deepEqual(out, { ok: true, connectors: 5, sent: 5, skipped: 0, unknown: 1 });

    const archive = await jobOf('archive');
    assert.equal(archive.processingType, 'STREAMING');
    assert.deepEqual([archive.collectedBy, archive.retiredAt, archive.lineageUnknown], ['kafka-connect', null, null]);
    assert.equal(archive.latestRun.state, 'RUNNING');
    assert.deepEqual(archive.inputs.map((d: any) => d.id), [datasetId(kafkaNs, topic)]);
    assert.deepEqual(archive.outputs.map((d: any) => d.id), [datasetId('file', path.join(dir, 'archive.jsonl'))]);
    archiveRun = archive.latestRun.runId;

    const loader = await jobOf('loader');
    assert.deepEqual([loader.inputs.map((d: any) => d.id), loader.outputs.map((d: any) => d.id)], [[datasetId('file', path.join(dir, 'in.txt'))], [datasetId(kafkaNs, loaded)]]);

    const regex = await jobOf('by-regex');
    assert.deepEqual(regex.inputs.map((d: any) => d.id), [datasetId(kafkaNs, topic)], 'the regex matched the topic Tributary knows');
    assert.match(regex.latestRun.facets.kafkaConnect.notes.join(' '), /topics\.regex/);

    const broken = await jobOf('broken');
    assert.equal(broken.latestRun.state, 'FAIL');
    assert.match(broken.latestRun.errorMessage, /Exception/);
    assert.doesNotMatch(broken.latestRun.errorMessage, /\n/, 'the first line of the trace');

    const mirror = await jobOf('mirror-heartbeats');
    assert.equal(mirror.latestRun.facets.kafkaConnect.lineage, 'UNKNOWN');
    assert.match(mirror.lineageUnknown, /MirrorHeartbeatConnector is not in the mapping table/);
    assert.deepEqual([mirror.inputs, mirror.outputs], [[], []], 'never a guess');
    const gaps = await svc.graphql(`query($ns: String) { coverageGaps(scope: NAMESPACE, value: $ns) { totalLineageUnknown lineageUnknown { jobId engine reason } } }`, { ns: `kafka-connect://${cluster}` });
    assert.equal(gaps.errors, undefined, JSON.stringify(gaps.errors));
    assert.deepEqual(gaps.data.coverageGaps.lineageUnknown.map((j: any) => [j.jobId, j.engine]), [[job('mirror-heartbeats'), 'kafka_connect']]);
    assert.match(gaps.data.coverageGaps.lineageUnknown[0].reason, /MirrorHeartbeatConnector is not in the mapping table/);
    // Collected lineage is counted apart: never as reported dataset-level lineage, never a gap to instrument.
    const cov = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges collectedEdges } } coverageGaps(scope: NAMESPACE, value: $ns) { totalGaps } }`, { ns: `kafka-connect://${cluster}` });
    assert.deepEqual([cov.data.coverage.overall, cov.data.coverageGaps.totalGaps], [{ edges: 0, collectedEdges: 4 }, 0]);

    assert.deepEqual(await currentReaders(datasetId(kafkaNs, topic)), [job('archive'), job('broken'), job('by-regex')].sort());
    // Nothing changed: the next round sends nothing.
    assert.deepEqual(await round(collector), { ok: true, connectors: 5, sent: 0, skipped: 0, unknown: 1 });
  });

  it('follows the worker: a paused connector says so, a deleted one ends and leaves current lineage, a reconfigured one starts a new run', async () => {
    await worker.call('PUT', '/connectors/archive/pause');
    await worker.waitState('archive', 'PAUSED');
    await worker.remove('loader');
    assert.equal((await round(collector)).ok, true);
    const paused = await jobOf('archive');
    assert.equal(paused.latestRun.runId, archiveRun);
    assert.equal(paused.latestRun.facets.kafkaConnect.state, 'PAUSED');
    const loader = await jobOf('loader');
    assert.equal(loader.latestRun.state, 'ABORT');
    assert.ok(loader.retiredAt, 'its job is retired');
    const upstream = await svc.graphql(`query($id: ID!) { lineage(nodeId: $id, direction: UPSTREAM, depth: 1, evidence: ALL) { nodes { id } } }`, { id: datasetId(kafkaNs, loaded) });
    assert.deepEqual(upstream.data.lineage.nodes.map((n: any) => n.id), [datasetId(kafkaNs, loaded)], 'a deleted connector writes nothing now');

    await worker.call('PUT', '/connectors/archive/resume');
    await worker.put('archive', { 'connector.class': SINK, topics: topic, file: path.join(dir, 'archive-2.jsonl'), 'key.converter': str, 'value.converter': str });
    // The worker applies a new configuration asynchronously: wait until the listing shows it.
    await worker.waitConfig('archive', 'file', path.join(dir, 'archive-2.jsonl'));
    await worker.waitState('archive', 'RUNNING');
    assert.equal((await round(collector)).ok, true);
    const moved = await jobOf('archive');
    assert.notEqual(moved.latestRun.runId, archiveRun);
    const old = await svc.graphql(`query($id: ID!) { node(id: $id) { ... on Run { state } } }`, { id: `run:${archiveRun}` });
    assert.equal(old.data.node.state, 'COMPLETE');
    const now = await svc.graphql(`query($id: ID!) { lineage(nodeId: $id, direction: DOWNSTREAM, depth: 1, evidence: ALL) { nodes { id } } }`, { id: job('archive') });
    assert.deepEqual(now.data.lineage.nodes.map((n: any) => n.id).filter((id: string) => id.startsWith('dataset:file')), [datasetId('file', path.join(dir, 'archive-2.jsonl'))]);
    archiveRun = moved.latestRun.runId;
  });

  it('a collector started again goes on from the graph: the same runs, and a connector deleted meanwhile ended', async () => {
    await worker.remove('by-regex');
    collector = newCollector();
    const out = await round(collector);
    assert.equal(out.ok, true);
    assert.equal((await jobOf('archive')).latestRun.runId, archiveRun, 'the run goes on');
    assert.equal((await jobOf('by-regex')).latestRun.state, 'ABORT');
    assert.deepEqual(await currentReaders(datasetId(kafkaNs, topic)), [job('archive'), job('broken')].sort());
  });

  it('a worker that hangs, then dies, mid-round costs those rounds only: ingestion goes on, no run is ended, /metrics counts them', async () => {
    await worker.freeze();
    const hung = round(collector);
    const started = Date.now();
    const res = await svc.post('/api/v1/lineage', JSON.stringify(producerEvent('meanwhile', [])));
    assert.equal(res.status, 201);
    const out = await hung;
    assert.equal(out.ok === false && out.reason, 'TIMEOUT');
    assert.ok(Date.now() - started < 15_000, 'the round gave up at its timeout');
    worker.thaw();
    await worker.kill();
    const dead = await round(collector);
    assert.equal(dead.ok === false && dead.reason, 'UNREACHABLE');
    assert.equal((await jobOf('archive')).latestRun.state, 'RUNNING', 'an unreachable cluster ends no run');
    const text = await metrics.registry.metrics();
    for (const outcome of ['ok', 'TIMEOUT', 'UNREACHABLE']) assert.match(text, new RegExp(`tributary_kafka_connect_rounds_total\\{cluster="${cluster}",outcome="${outcome}"\\} [1-9]`));
    assert.match(text, new RegExp(`tributary_kafka_connect_connectors\\{cluster="${cluster}",lineage="unknown"\\} 1`));
  });
});
