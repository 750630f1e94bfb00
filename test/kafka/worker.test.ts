import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { idPrefix } from '../../src/ids';
import { EntityKind } from '../../src/lineage/types';
import { dumpNamespaces } from '../support/dump';
import { DLQ_HEADERS, KafkaWorker } from '../../src/ingest/kafka-worker';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { generateEvents } from '../support/generate';
import { uniquePrefix } from '../support/isolate';
import { committed, createTopic, kafkaClient, kafkaSettings, produce, waitFor } from '../support/kafka';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

/** Events stored for jobs or datasets of the namespaces under `prefix`. */
const storedEvents = async (prefix: string) =>
  (await svc.app.executor.read<{ events: number }>(Query.CountEvents, { jobPrefix: idPrefix(EntityKind.JOB, prefix), datasetPrefix: idPrefix(EntityKind.DATASET, prefix) }))[0]!.events;
const runNodes = async (prefix: string) => (await dumpNamespaces(svc.app, prefix)).nodes.filter((n) => n.labels.includes('Run')).length;
/** Every run id the events name: their own and their parents'. */
const runIdsOf = (events: Record<string, unknown>[]) =>
  new Set(events.flatMap((e) => {
    const run = e.run as { runId: string; facets?: { parent?: { run?: { runId?: string } } } };
    return [run.runId, run.facets?.parent?.run?.runId].filter((id): id is string => typeof id === 'string');
  }));

describe('Kafka ingestion worker', () => {
  it('starts on an events topic that does not exist yet (a new cluster): creates it, waits for its leader, consumes', async () => {
    const settings = kafkaSettings('fresh');
    const admin = kafkaClient(settings).admin();
    await admin.connect();
    try {
      assert.equal((await admin.listTopics()).includes(settings.topic), false);
      const worker = new KafkaWorker(settings, svc.app.ingestor, createLogger('error'), new Metrics(false));
      await worker.start();
      try {
        const topics = await admin.listTopics();
        assert.equal(topics.includes(settings.topic), true);
        assert.equal(topics.includes(settings.dlqTopic), true, 'the dead-letter topic is created too (dead letters are sent per partition)');
        const ns = uniquePrefix('kafka-fresh');
        const producer = kafkaClient(settings).producer();
        await producer.connect();
        await produce(producer, settings.topic, [{ key: 'a', value: JSON.stringify(runEvent(ns, { job: 'first', outputs: ['t'] })) }]);
        await producer.disconnect();
        await waitFor('the event stored', async () => (await storedEvents(ns)) === 1);
      } finally {
        await worker.stop();
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('consumes events end to end, commits offsets after Neo4j, dead-letters bad messages unchanged', async () => {
    const settings = kafkaSettings('e2e');
    await createTopic(settings, 4);
    const ns = uniquePrefix('kafka-e2e');
    const good = generateEvents(ns, 11, 6, 2); // 6 jobs × 2 runs × 3 events
    // Poison of every kind: not JSON, invalid, nested 50,000 deep (once a stack overflow that froze
    // every partition), a name too long to index, a facet key Neo4j cannot store.
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const bad = [
      { key: 'x', value: '{not json' },
      { key: 'y', value: JSON.stringify({ ...runEvent(ns, { job: 'bad' }), run: { runId: 'nope' } }) },
      { key: 'z', value: JSON.stringify(runEvent(ns, { job: 'deep', runFacets: { x: { v: 0 } } })).replace('"v":0', `"v":${deep}`) },
      { key: 'w', value: JSON.stringify(runEvent(ns, { job: 'n'.repeat(5000) })) },
      { key: 'v', value: JSON.stringify(runEvent(ns, { job: 'nul', runFacets: { 'a\u0000b': {} } })) },
      { key: 'u', value: Buffer.concat([Buffer.from('{"job":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]) },
    ];
    const producer = kafkaClient(settings).producer();
    await producer.connect();
    // Events of one job share a key, so their order is kept within a partition.
    await produce(producer, settings.topic, [
      ...bad,
      ...good.map((e) => ({ key: String((e.job as { name: string }).name), value: JSON.stringify(e) })),
    ]);
    const metrics = new Metrics(false);
    const worker = new KafkaWorker(settings, svc.app.ingestor, createLogger('error'), metrics);
    await worker.start();
    try {
      await waitFor('every valid event stored', async () => (await storedEvents(ns)) === good.length);
      // 6 jobs × 2 runs, and the DAG run their parent facets name.
      assert.equal(runIdsOf(good).size, 13);
      assert.equal(await runNodes(ns), 13);
      await waitFor('offsets committed for every message', async () => (await committed(settings)) === good.length + bad.length);
      // The dead-letter topic holds the two bad messages, unchanged, with the reason in headers.
      const consumer = kafkaClient(settings).consumer({ groupId: `${settings.groupId}-dlq-reader` });
      const dead: { value: string | Buffer; reason: string; offset: string }[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: settings.dlqTopic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          // The invalid UTF-8 message is compared byte for byte (its text would hide the bytes).
          const bytes = bad[5]!.value as Buffer;
          dead.push({ value: message.value!.equals(bytes) ? bytes : message.value!.toString(), reason: String(message.headers![DLQ_HEADERS.reason]), offset: String(message.headers![DLQ_HEADERS.offset]) });
        },
      });
      await waitFor('six dead letters', async () => dead.length === 6);
      await consumer.disconnect();
      assert.deepEqual(
        dead.map((d) => [d.value, d.reason]).sort(),
        [
          [bad[0]!.value, 'NOT_JSON'],
          [bad[1]!.value, 'INVALID_RUN_ID'],
          [bad[2]!.value, 'NESTING_TOO_DEEP'],
          [bad[3]!.value, 'NAME_TOO_LONG'],
          [bad[4]!.value, 'INVALID_FACET_KEY'],
          [bad[5]!.value, 'NOT_UTF8'],
        ].sort(),
      );
      const text = await metrics.registry.metrics();
      assert.match(text, /tributary_kafka_dlq_messages_total\{reason="NOT_JSON"\} 1/);
      assert.match(text, /tributary_ingest_events_total\{transport="kafka",outcome="stored"\} \d+/);
    } finally {
      await worker.stop();
      await producer.disconnect();
    }
  });
});
