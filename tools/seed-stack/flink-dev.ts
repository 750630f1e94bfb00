import fs from 'node:fs';
import path from 'node:path';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { badValue, names, ports, warehouse, workDir } from './contract';
import { runFlinkJobs } from './flink';
import { startSeedKafka } from './kafka';

/**
 * Dev runner of the Flink part alone: a fresh seed Kafka, ~20 Debezium envelopes (schemas disabled,
 * as the Postgres connector writes them: a snapshot, then inserts, updates and a delete with its
 * tombstone) on pg.shop.orders, the two Flink jobs, then every message of openlineage.events, one
 * value per line, in <workDir>/capture/flink.ndjson.
 *
 *   npx tsc -p tsconfig.json && node dist/tools/seed-stack/flink-dev.js
 *
 * SEED_FLINK_STOP=cancel cancels job 1 instead of stopping it with a savepoint;
 * SEED_FLINK_DETACHED=false runs openlineage-flink's default flow (see FlinkOptions).
 */

const log = (msg: string): void => console.log(`[flink-dev] ${msg}`);

interface Order {
  order_id: number;
  customer_id: number;
  country: string;
  status: string;
  amount: number;
  updated_at: string;
}

function envelopes(): { key: Order['order_id']; value: string | null }[] {
  const t0 = Date.parse('2026-12-01T08:00:00Z');
  const at = (min: number) => new Date(t0 + min * 60_000).toISOString().replace('.000Z', 'Z');
  const snapshot: Order[] = [
    { order_id: 1001, customer_id: 1, country: 'FR', status: 'paid', amount: 42.5, updated_at: at(0) },
    { order_id: 1002, customer_id: 2, country: 'DE', status: 'paid', amount: 19.99, updated_at: at(1) },
    { order_id: 1003, customer_id: 4, country: 'NL', status: 'pending', amount: 75.0, updated_at: at(2) },
    { order_id: 1004, customer_id: 5, country: 'US', status: 'paid', amount: 120.0, updated_at: at(3) },
    { order_id: 1005, customer_id: 1, country: 'FR', status: 'shipped', amount: 12.3, updated_at: at(4) },
    { order_id: 1006, customer_id: 6, country: 'US', status: 'paid', amount: 64.9, updated_at: at(5) },
    { order_id: badValue.orderId, customer_id: 3, country: badValue.country, status: 'paid', amount: badValue.amount, updated_at: at(6) },
    { order_id: 1008, customer_id: 7, country: 'DE', status: 'pending', amount: 33.0, updated_at: at(7) },
    { order_id: 1009, customer_id: 2, country: 'NL', status: 'paid', amount: 58.4, updated_at: at(8) },
    { order_id: 1010, customer_id: 8, country: 'US', status: 'cancelled', amount: 15.0, updated_at: at(9) },
  ];
  let lsn = 24_000_000;
  let txId = 740;
  const source = (table: string, snap: string, tsMs: number) => ({
    version: '3.0.8.Final',
    connector: 'postgresql',
    name: 'pg',
    ts_ms: tsMs,
    snapshot: snap,
    db: 'shop',
    sequence: `[null,"${lsn}"]`,
    ts_us: tsMs * 1000,
    ts_ns: tsMs * 1_000_000,
    schema: 'shop',
    table,
    txId: txId,
    lsn: (lsn += 312),
    xmin: null,
  });
  const out: { key: number; value: string | null }[] = [];
  const push = (op: string, before: Order | null, after: Order | null, snap: string, tsMs: number) => {
    txId += 1;
    const key = (after ?? before)!.order_id;
    out.push({ key, value: JSON.stringify({ before, after, source: source('orders', snap, tsMs), transaction: null, op, ts_ms: tsMs + 7 }) });
  };
  const snapTs = t0 + 3_600_000;
  snapshot.forEach((o, i) => push('r', null, o, i === 0 ? 'first' : i === snapshot.length - 1 ? 'last' : 'true', snapTs));
  // Streaming changes after the snapshot.
  let ts = snapTs + 60_000;
  const inserts: Order[] = [
    { order_id: 1011, customer_id: 9, country: 'FR', status: 'pending', amount: 27.8, updated_at: at(70) },
    { order_id: 1012, customer_id: 3, country: 'DE', status: 'paid', amount: 88.0, updated_at: at(71) },
    { order_id: 1013, customer_id: 10, country: 'US', status: 'paid', amount: 45.25, updated_at: at(72) },
    { order_id: 1014, customer_id: 4, country: 'NL', status: 'pending', amount: 66.6, updated_at: at(73) },
  ];
  for (const o of inserts) push('c', null, o, 'false', (ts += 15_000));
  const update = (o: Order, change: Partial<Order>, min: number) => push('u', o, { ...o, ...change, updated_at: at(min) }, 'false', (ts += 15_000));
  update(snapshot[2]!, { status: 'paid' }, 75);
  update(inserts[0]!, { status: 'paid' }, 76);
  update(snapshot[7]!, { status: 'paid' }, 77);
  update(inserts[3]!, { status: 'cancelled' }, 78);
  update(snapshot[4]!, { status: 'delivered' }, 79);
  // A delete (REPLICA IDENTITY FULL: before is the whole row), then its tombstone.
  push('d', snapshot[9]!, null, 'false', (ts += 15_000));
  out.push({ key: snapshot[9]!.order_id, value: null });
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  fs.rmSync(warehouse(), { recursive: true, force: true });
  const captureFile = path.join(workDir(), 'capture', 'flink.ndjson');
  fs.rmSync(captureFile, { force: true });
  const kafka = await startSeedKafka(log);
  try {
    const client = new Kafka({ clientId: 'flink-dev', brokers: [`127.0.0.1:${ports.kafka}`], logLevel: logLevel.WARN });
    const admin = client.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [names.cdcTopic, names.enrichedTopic, names.openlineageTopic].map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })),
      waitForLeaders: true,
    });
    const producer = client.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const messages = envelopes();
    await producer.send({
      topic: names.cdcTopic,
      messages: messages.map((m) => ({ key: JSON.stringify({ order_id: m.key }), value: m.value })),
    });
    await producer.disconnect();
    log(`${messages.length} Debezium records on ${names.cdcTopic}`);

    const result = await runFlinkJobs({
      log: (m) => console.log(`[flink] ${m}`),
      stop: process.env.SEED_FLINK_STOP === 'cancel' ? 'cancel' : 'savepoint',
      detachedTracking: process.env.SEED_FLINK_DETACHED !== 'false',
    });

    // Every OpenLineage event the Kafka transport wrote, in topic order.
    const offsets = await admin.fetchTopicOffsets(names.openlineageTopic);
    const high = offsets.reduce((n, p) => n + Number(p.high), 0);
    await admin.disconnect();
    const values: string[] = [];
    const keys: (string | null)[] = [];
    const consumer = client.consumer({ groupId: `flink-dev-capture-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: names.openlineageTopic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${values.length} of ${high} events from ${names.openlineageTopic}`)), 60_000);
      if (high === 0) {
        clearTimeout(timer);
        resolve();
      }
      void consumer.run({
        eachMessage: async ({ message }) => {
          values.push(message.value?.toString('utf8') ?? 'null');
          keys.push(message.key?.toString('utf8') ?? null);
          if (values.length >= high) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();
    fs.mkdirSync(path.dirname(captureFile), { recursive: true });
    fs.writeFileSync(captureFile, values.map((v) => `${v.replace(/\r?\n/g, ' ')}\n`).join(''));
    for (const [i, v] of values.entries()) {
      const e = JSON.parse(v) as { eventType?: string; eventTime?: string; job?: { namespace: string; name: string }; inputs?: { namespace: string; name: string }[]; outputs?: { namespace: string; name: string }[] };
      const ds = (l?: { namespace: string; name: string }[]) => (l ?? []).map((d) => `${d.namespace}/${d.name}`).join(',');
      log(`event ${i + 1}: key=${keys[i]} ${e.eventType} ${e.eventTime} ${e.job?.namespace}/${e.job?.name} in=[${ds(e.inputs)}] out=[${ds(e.outputs)}]`);
    }
    log(`${values.length} OpenLineage events → ${captureFile}`);
    log(`Iceberg ${names.icebergCatalog}.${names.icebergTable}: ${result.metadataLocation} (snapshot ${result.snapshotId})`);
    for (const r of result.rows) log(`  ${JSON.stringify(r)}`);
    log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await kafka.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
