import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors';
import { jobId } from '../../src/ids';
import { KafkaWorker } from '../../src/ingest/kafka-worker';
import { KafkaEventLog } from '../../src/ingest/kafka-log';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';
import { assignedMembers, createTopic, kafkaClient, kafkaSettings, waitFor } from '../support/kafka';

/**
 * Issue 27 item 1: TRIBUTARY_INGEST_LOG=kafka. The HTTP API acknowledges once the events topic
 * holds the event (the answer says where), a Kafka worker (here in the same process, as in
 * `serve`; it may be any process) projects it and records the partition's offset in the graph, and
 * `Tributary-Wait: projected` waits for that offset.
 */
const settings = kafkaSettings('ingest-log');
let svc: TestService;
let worker: KafkaWorker | null = null;
const startWorker = async () => {
  worker = new KafkaWorker(settings, svc.app.ingestor, createLogger('error'), new Metrics(false));
  await worker.start();
  // Until the group is stable with the partitions assigned, nothing is projected: a wait would
  // spend its budget on the join instead.
  await waitFor('the worker assigned the partitions', async () => (await assignedMembers(settings)) === 1);
};

before(async () => {
  await createTopic(settings, 3);
  svc = await startService({
    TRIBUTARY_INGEST_LOG: 'kafka',
    TRIBUTARY_WAIT_TIMEOUT_MS: '20000',
    KAFKA_BROKERS: settings.brokers.join(','),
    KAFKA_TOPIC: settings.topic,
    KAFKA_GROUP_ID: settings.groupId,
  });
  await startWorker();
});
after(async () => {
  await worker?.stop();
  await svc.close();
});

/** Each partition's end offset (the next offset to be written). */
async function endOffsets(): Promise<number[]> {
  const admin = kafkaClient(settings).admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(settings.topic)).sort((a, b) => a.partition - b.partition).map((p) => Number(p.offset));
  } finally {
    await admin.disconnect();
  }
}
const jobNames = async (ns: string) =>
  ((await svc.graphql<{ jobs: { items: { name: string }[] } }>(`query($ns: String!) { jobs(namespace: $ns, first: 100) { items { name } } }`, { ns })).data?.jobs.items ?? []).map((j) => j.name).sort();
const post = (path: string, body: unknown, wait = 'projected') => svc.post(path, JSON.stringify(body), { 'tributary-wait': wait });

describe('HTTP ingestion into the Kafka events topic (TRIBUTARY_INGEST_LOG=kafka)', () => {
  it('acknowledges with the event’s partition and offset, and waits until the graph has passed it', async () => {
    const ns = uniquePrefix('klog');
    const before = await endOffsets();
    const start = runEvent(ns, { job: 'load', eventType: 'START', outputs: ['orders'] });
    const res = await post('/api/v1/lineage', start);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.projected, true);
    const { topic, partition, offset } = res.body.position;
    assert.equal(topic, settings.topic);
    assert.equal(offset, before[partition], 'the offset is where the event was appended');
    const gql = await svc.graphql<{ job: { name: string } | null }>(`query($id: ID!) { job(id: $id) { name } }`, { id: jobId(ns, 'load') });
    assert.equal(gql.data?.job?.name, 'load', 'projected means readable');

    // The run's next event is keyed by its run id: same partition, a later offset.
    const complete = { ...start, eventType: 'COMPLETE', eventTime: new Date(Date.parse(start.eventTime as string) + 1000).toISOString() };
    const second = await post('/api/v1/lineage', complete, 'none');
    assert.equal(second.status, 201);
    assert.equal(second.body.projected, false, 'not waited for');
    assert.equal(second.body.position.partition, partition);
    assert.ok(second.body.position.offset > offset);
  });

  it('a batch: every valid event produced in one go, positions per partition, invalid ones refused before Kafka', async () => {
    const ns = uniquePrefix('klog-batch');
    const before = await endOffsets();
    const events = Array.from({ length: 40 }, (_, i) => runEvent(ns, { job: `j${i % 8}`, outputs: [`t${i}`] }));
    const bad = { eventType: 'START', eventTime: 'yesterday', run: { runId: 'x' } };
    const res = await post('/api/v1/lineage/batch', [...events.slice(0, 20), bad, ...events.slice(20)]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'partial_success');
    assert.deepEqual(res.body.summary, { received: 41, successful: 40, failed: 1 });
    assert.equal(res.body.failed_events[0].index, 20);
    assert.equal(res.body.projected, true);
    const after = await endOffsets();
    assert.equal(after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0), 40, 'exactly the valid events were produced');
    for (const p of res.body.positions) assert.equal(p.offset, after[p.partition]! - 1, 'the last offset of each partition the batch wrote');
    assert.deepEqual(await jobNames(ns), ['j0', 'j1', 'j2', 'j3', 'j4', 'j5', 'j6', 'j7']);
  });

  it('a bad event is a 400 and costs nothing in the topic', async () => {
    const before = await endOffsets();
    const res = await post('/api/v1/lineage', { eventType: 'START', run: { runId: 'nope' } });
    assert.equal(res.status, 400);
    assert.deepEqual(await endOffsets(), before);
  });

  it('with no projector running, a waiting request gets 202 (stored); the event is projected once one runs', async () => {
    await worker!.stop();
    const ns = uniquePrefix('klog-later');
    try {
      const slow = await startService({
        TRIBUTARY_INGEST_LOG: 'kafka',
        TRIBUTARY_WAIT_TIMEOUT_MS: '1500',
        KAFKA_BROKERS: settings.brokers.join(','),
        KAFKA_TOPIC: settings.topic,
      });
      try {
        const res = await slow.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'later', outputs: ['x'] })), { 'tributary-wait': 'projected' });
        assert.equal(res.status, 202);
        assert.equal(res.body.projected, false);
        assert.equal(typeof res.body.position.offset, 'number');
      } finally {
        await slow.close();
      }
    } finally {
      await startWorker();
    }
    const after = await post('/api/v1/lineage', runEvent(ns, { job: 'after', outputs: ['y'] }));
    assert.equal(after.status, 201);
    // The two runs may sit in different partitions: the first is projected when its partition is.
    await waitFor('the event acknowledged while no projector ran, in the graph', async () => (await jobNames(ns)).length === 2);
    assert.deepEqual(await jobNames(ns), ['after', 'later']);
  });

  it('a projector in a new consumer group over this graph (a replica started from a copy) resumes where the graph ends', async () => {
    await worker!.stop();
    const metrics = new Metrics(false);
    const fresh = new KafkaWorker({ ...settings, groupId: `${settings.groupId}-replica` }, svc.app.ingestor, createLogger('error'), metrics);
    try {
      await fresh.start();
      const ns = uniquePrefix('klog-resume');
      const res = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'resumed', outputs: ['r'] })), { 'tributary-wait': 'projected' });
      assert.equal(res.status, 201);
      assert.equal(res.body.projected, true);
      // The graph shows the event (its offset committed with it) a moment before the worker counts
      // it: the worker's transaction reports its commit on another connection than the wait's read.
      const stored = /tributary_ingest_events_total\{transport="kafka",outcome="stored"\} 1\n/;
      await waitFor('the replica worker counted the event it stored', async () => stored.test(await metrics.registry.metrics()));
      const text = await metrics.registry.metrics();
      assert.doesNotMatch(text, /outcome="duplicate"\} [1-9]/, 'nothing the graph holds was read again');
    } finally {
      await fresh.stop();
      await startWorker();
    }
  });

  it('Kafka unreachable: UNAVAILABLE (503), nothing acknowledged', async () => {
    const log = new KafkaEventLog({ ...settings, brokers: ['127.0.0.1:1'] }, svc.app.executor, createLogger('error'));
    await assert.rejects(log.start());
    await assert.rejects(
      log.store([{ raw: JSON.stringify(runEvent(uniquePrefix('klog-down'), { job: 'j' })), value: runEvent(uniquePrefix('klog-down'), { job: 'j' }) }]),
      (err) => err instanceof AppError && err.code === ErrorCode.UNAVAILABLE,
    );
    await log.stop();
  });
});
