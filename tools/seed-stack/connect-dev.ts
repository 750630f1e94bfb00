import fs from 'node:fs';
import path from 'node:path';
import { names, ports, workDir } from './contract';
import { startConnect, waitForTopicRecords, type SeedConnect } from './connect';
import { startSeedKafka, type SeedKafka } from './kafka';
import { changeOrders, seedOrders, startPostgres, type SeedPostgres } from './postgres';
import { startRecorder, type Recorder } from './recorder';
import { waitUntil } from './proc';

/**
 * Development runner for the Connect part of the seed stack, on its own: Kafka, a recorder that
 * answers 201 itself (captures in <workDir()>/capture/debezium.ndjson), PostgreSQL with the seed
 * orders, Kafka Connect with Debezium (snapshot), then streaming changes, a while of streaming,
 * deletion of the connectors (Debezium's COMPLETE) and shutdown of everything.
 *
 *   node dist/tools/seed-stack/connect-dev.js [seconds of streaming, default 40]
 */
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function main(): Promise<void> {
  const started = Date.now();
  const streamSeconds = Number(process.argv[2] ?? 40);
  const captureDir = path.join(workDir(), 'capture');
  fs.rmSync(captureDir, { recursive: true, force: true });
  fs.rmSync(path.join(workDir(), 'archive'), { recursive: true, force: true });
  let kafka: SeedKafka | undefined;
  let recorder: Recorder | undefined;
  let pg: SeedPostgres | undefined;
  let connect: SeedConnect | undefined;
  const events = () => (recorder?.counts().debezium ?? 0);
  try {
    kafka = await startSeedKafka(log);
    recorder = await startRecorder({ port: ports.recorder, outDir: captureDir, log });
    pg = await startPostgres(log);
    const seeded = await seedOrders(pg);
    log(`seeded ${seeded} orders`);
    connect = await startConnect({ bootstrap: kafka.bootstrap, pg, openlineageUrl: recorder.url('debezium'), log });
    log(`OpenLineage events so far: ${events()}`);
    const changes = await changeOrders(pg);
    const total = seeded + changes;
    await waitForTopicRecords(kafka.bootstrap, names.cdcTopic, total, 120_000);
    log(`${changes} changes streamed: ${names.cdcTopic} holds ${total} records`);
    log(`streaming for ${streamSeconds} s`);
    await new Promise((r) => setTimeout(r, streamSeconds * 1000));
    log(`OpenLineage events before stopping: ${events()}`);
    const before = events();
    await connect.stop();
    connect = undefined;
    await waitUntil('Debezium COMPLETE event', () => readTypes(captureDir).includes('COMPLETE'), 30_000).catch((err: Error) => log(err.message));
    log(`OpenLineage events after stopping: ${events()} (+${events() - before})`);
  } finally {
    await connect?.stop().catch((err: Error) => log(`stopping Connect: ${err.message}`));
    await pg?.stop().catch((err: Error) => log(`stopping PostgreSQL: ${err.message}`));
    await kafka?.stop().catch((err: Error) => log(`stopping Kafka: ${err.message}`));
    await recorder?.stop().catch(() => undefined);
  }
  const types = readTypes(captureDir);
  const byType: Record<string, number> = {};
  for (const t of types) byType[t] = (byType[t] ?? 0) + 1;
  const archive = path.join(workDir(), 'archive', 'orders.jsonl');
  const archived = fs.existsSync(archive) ? fs.readFileSync(archive, 'utf8').split('\n').filter(Boolean).length : 0;
  log(`Debezium sent ${types.length} events ${JSON.stringify(byType)}; archive holds ${archived} records; ${Math.round((Date.now() - started) / 1000)} s in all`);
}

function readTypes(dir: string): string[] {
  const file = path.join(dir, 'debezium.ndjson');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { eventType?: string }).eventType ?? '?');
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
