import http from 'node:http';
import { loadConfig } from '../src/config';
import { postJson } from './http-client';
import { startEmbeddedNeo4j, type EmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { createLogger } from '../src/log';
import { createApp } from '../src/app';
import { generateEvents } from '../test/support/generate';
import { uniquePrefix } from '../test/support/isolate';
import type { AddressInfo } from 'node:net';
import { KafkaWorker } from '../src/ingest/kafka-worker';
import { committed, createTopic, kafkaClient, kafkaSettings, produce, waitFor } from '../test/support/kafka';
import { startKafka, type KafkaBroker } from '../test/support/kafka-broker';

/**
 * Ingest throughput through the HTTP transport (acknowledged once stored, and until projected): the same kind of generated events (START, RUNNING,
 * COMPLETE with schema and column lineage), sent one request at a time, then by concurrent clients
 * (group commit), then through the batch endpoint, then through the Kafka worker (KAFKA_BROKERS, or
 * a throwaway single-node broker from tools/kafka; BENCH_KAFKA=false skips it). Against NEO4J_URI,
 * or a throwaway embedded Neo4j.
 * Usage: node dist/bench/ingest.js [events=1200] [clients=16]
 */
async function main() {
  const total = Number(process.argv[2] ?? 1200);
  const clients = Number(process.argv[3] ?? 16);
  let config = loadConfig();
  const log = createLogger('warn');
  let neo4j: EmbeddedNeo4j | null = null;
  if (!config.neo4j) {
    neo4j = await startEmbeddedNeo4j({ ...config.embedded, home: `${config.embedded.home}/bench`, port: 0 }, log);
    config = { ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } };
  }
  const app = await createApp({ ...config, ingest: { ...config.ingest, spoolDir: `${config.embedded.home}/bench/spool` } }, log);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const port = (app.server.server.address() as AddressInfo).port;
  const post = async (path: string, body: unknown) => {
    const r = await postJson(agent, port, path, body);
    if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
  };
  const events = (label: string) => {
    const out: Record<string, unknown>[] = [];
    for (let seed = 1; out.length < total; seed++) out.push(...generateEvents(uniquePrefix(`${label}${seed}`), seed, 10, 4));
    return out.slice(0, total);
  };
  const rows: string[] = [];
  // HTTP acknowledges once stored; each row gives that rate and the rate until the graph showed every event.
  const measure = async (label: string, run: () => Promise<void>, bytes: number) => {
    const t0 = process.hrtime.bigint();
    await run();
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    while (app.projector.lagMs() > 0) await new Promise((r) => setTimeout(r, 20));
    const projected = Number(process.hrtime.bigint() - t0) / 1e9;
    rows.push(`| ${label} | ${total} | ${s.toFixed(2)} | ${Math.round(total / s)} | ${Math.round(total / projected)} | ${(bytes / s / 1e6).toFixed(2)} |`);
  };
  // As the service does after start: compile the hot plans; then warm the JIT with a few requests.
  const warmed = await app.warmUp(false, false);
  for (const e of events('warm').slice(0, 200)) await post('/api/v1/lineage', e);
  const seq = events('seq');
  await measure('HTTP, 1 client, one event per request', async () => {
    for (const e of seq) await post('/api/v1/lineage', e);
  }, JSON.stringify(seq).length);
  const conc = events('conc');
  await measure(`HTTP, ${clients} concurrent clients (group commit)`, async () => {
    let next = 0;
    await Promise.all(Array.from({ length: clients }, async () => {
      while (next < conc.length) await post('/api/v1/lineage', conc[next++]);
    }));
  }, JSON.stringify(conc).length);
  const batch = events('batch');
  await measure('HTTP batch endpoint, 200 events per request', async () => {
    for (let i = 0; i < batch.length; i += 200) await post('/api/v1/lineage/batch', batch.slice(i, i + 200));
  }, JSON.stringify(batch).length);
  let broker: KafkaBroker | null = null;
  let brokers = process.env.KAFKA_BROKERS ?? process.env.TEST_KAFKA_BROKERS;
  if (!brokers && process.env.BENCH_KAFKA !== 'false') {
    broker = await startKafka(`${config.embedded.home}/bench-kafka`, config.embedded.searchPath, config.embedded.javaHome);
    brokers = broker.bootstrap;
    process.env.TEST_KAFKA_BROKERS = brokers; // read by the test helpers' kafkaSettings()
  }
  if (brokers) {
    const settings = { ...kafkaSettings('bench'), brokers: brokers.split(','), maxBatch: 500 };
    await createTopic(settings, 4);
    const viaKafka = events('kafka');
    const producer = kafkaClient(settings).producer();
    await producer.connect();
    await produce(producer, settings.topic, viaKafka.map((e) => ({ key: String((e.job as { name: string }).name), value: JSON.stringify(e) })));
    await producer.disconnect();
    const worker = new KafkaWorker(settings, app.ingestor, log);
    await measure('Kafka worker, 4 partitions, produced beforehand', async () => {
      await worker.start();
      await waitFor('all committed', async () => (await committed(settings)) === viaKafka.length, 600_000);
    }, JSON.stringify(viaKafka).length);
    await worker.stop();
  }
  const c = app.committer.counters;
  process.stdout.write(
    ['| path | events | seconds (acknowledged) | events/s acknowledged | events/s until projected | MB/s |', '|---|---|---|---|---|---|', ...rows].join('\n') +
      `\n\nafter the plan warm-up (${warmed.plans} plans in ${(warmed.ms / 1000).toFixed(0)} s) and 200 warm-up events\ngroup commit: ${c.events} events in ${c.batches} transactions (largest ${c.largestBatch})\n`,
  );
  await app.close();
  await broker?.stop();
  await neo4j?.stop();
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
