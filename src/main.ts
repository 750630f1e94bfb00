import 'reflect-metadata';
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { createApp, createCore, type App, type Core } from './app';
import { createDriver } from './graph/driver';
import { startEmbeddedNeo4j, ProvisionError, type EmbeddedNeo4j } from './graph/embedded/neo4j';
import { Neo4jSupervisor } from './graph/embedded/supervisor';
import { neo4jAdmin } from './graph/embedded/admin';
import { printGraphqlSchema } from './graphql/schema';
import { authFromConfig, newToken } from './http/auth';
import { addOpsRoutes, answerErrorsAsJson, loggingOptions, traceRequests } from './http/server';
import { readTls } from './http/tls';
import { KafkaWorker } from './ingest/kafka-worker';
import { processCpuMs } from './graph/embedded/cpu';
import type { KafkaConnectCollector } from './kafka-connect/collector';
import { createConnectCollector } from './kafka-connect/service';
import { createSqlDeclarer, type SqlDeclarer } from './sql/declarer';
import { ingestNdjson } from './ingest/ndjson';
import { reproject } from './ingest/reproject';
import { createLogger, type Logger } from './log';
import { Metrics } from './metrics';

/**
 * Entry point. Commands:
 *   (none) | serve   API on PORT, plus the Kafka worker when KAFKA_BROKERS is set and the Kafka
 *                    Connect collector when TRIBUTARY_KAFKA_CONNECT_URLS is, and the SQL declarer
 *   api              API only (no Kafka worker, no collector, no SQL declarer)
 *   worker           Kafka worker, collector and SQL declarer only (health and /metrics on PORT); needs KAFKA_BROKERS
 *   neo4j            only the embedded Neo4j, until Ctrl-C (prints its bolt URI)
 *   ingest [F|-]     NDJSON events from file F or stdin; progress on stderr, summary on stdout;
 *                    exit 3 when some events were rejected
 *   reproject [P]    rebuild the graph (namespaces starting with P; all without P) from stored events
 *   emit-schema [F]  print the GraphQL SDL (or write it to F)
 * Every command but emit-schema uses NEO4J_URI, or the embedded Neo4j without it.
 */

type Shape = 'serve' | 'api' | 'worker';

/**
 * Runs the long-lived process shapes. Shutdown order on SIGINT/SIGTERM: the worker first (it
 * commits no offset for an event not stored), then HTTP, then the driver, then the embedded Neo4j.
 */
async function run(shape: Shape, config: Config, log: Logger): Promise<void> {
  if (shape === 'worker' && !config.kafka) throw new ConfigError('the worker needs KAFKA_BROKERS');
  // Certificate problems stop the start before Neo4j is provisioned.
  const tls = readTls(config.http.tls);
  let embedded: Neo4jSupervisor | null = null;
  let closeHttp: (() => Promise<unknown>) | null = null;
  let core: Core | null = null;
  let worker: KafkaWorker | null = null;
  let collector: KafkaConnectCollector | null = null;
  let declarer: SqlDeclarer | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await collector?.stop();
    await declarer?.stop();
    await worker?.stop();
    core?.stopWarmUp();
    await closeHttp?.().catch((err) => log.error('error closing the service', { error: err }));
    await core?.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (!config.neo4j) {
    // Supervised: a dead JVM is restarted with backoff (src/graph/embedded/supervisor.ts).
    embedded = new Neo4jSupervisor(config.embedded, log, { maxRestarts: config.embedded.restarts ?? 5, hangKillMs: config.embedded.hangKillMs });
    config = { ...config, neo4j: { uri: await embedded.start(), user: 'neo4j', retryMs: 3000 } };
  }
  const health = embedded ?? undefined;
  const metrics = new Metrics();
  let ingestor: Core['ingestor'];
  let warmUp: Core['warmUp'];
  // Settles when the plan warm-up below is over: the scheduled reads start then (createApp).
  let warmUpOver: () => void = () => undefined;
  const warmedUp = config.planWarmUp === 'off' ? Promise.resolve() : new Promise<void>((resolve) => (warmUpOver = resolve));
  let graph: Pick<Core, 'executor' | 'rules'>;
  if (shape === 'worker') {
    const c = (core = await createCore(config, log, metrics, health));
    const ops = Fastify({ ...loggingOptions(log), ...(tls ? { https: tls } : {}) }) as unknown as FastifyInstance;
    answerErrorsAsJson(ops, log);
    traceRequests(ops);
    const moving = () => !worker || worker.stuck().length === 0;
    addOpsRoutes(
      ops,
      () => moving() && c.graphReady(),
      metrics,
      health ? () => health.recoverable() : undefined,
      authFromConfig(config),
    );
    await ops.listen({ host: config.http.host, port: config.http.port });
    closeHttp = () => ops.close();
    ingestor = c.ingestor;
    warmUp = c.warmUp;
    graph = c;
  } else {
    // Not ready while a Kafka partition is stuck (KAFKA_STUCK_MS); the worker starts below.
    const app: App = await createApp(config, log, metrics, health, () => !worker || worker.stuck().length === 0, warmedUp);
    await app.server.listen({ host: config.http.host, port: config.http.port });
    closeHttp = () => app.close();
    ingestor = app.ingestor;
    warmUp = app.warmUp;
    graph = app;
  }
  if (config.kafka && shape !== 'api') {
    worker = new KafkaWorker(config.kafka, ingestor, log, metrics);
    await worker.start();
  }
  // Where background ingestion runs (not on stateless API replicas).
  if (config.kafkaConnect && shape !== 'api') {
    collector = createConnectCollector(config.kafkaConnect, { ingestor, executor: graph.executor, rules: graph.rules, metrics, log });
    collector.start();
  }
  if (config.sqlDeclarer.intervalS > 0 && shape !== 'api') {
    declarer = createSqlDeclarer(config.sqlDeclarer, graph.executor, metrics, log);
    declarer.start();
  }
  log.info('Tributary running', {
    shape,
    url: `${config.http.tls ? 'https' : 'http'}://${config.http.host}:${config.http.port}`,
    neo4j: config.neo4j!.uri,
    embedded: embedded !== null,
    kafka: worker ? { topic: config.kafka!.topic, group: config.kafka!.groupId } : null,
    kafkaConnect: collector ? config.kafkaConnect!.clusters.map((c) => `${c.name}=${c.url}`) : null,
  });
  // In the background: requests are served meanwhile (those arriving first may compile a plan).
  // With the embedded Neo4j, what it cost that JVM is logged too (issue 28: under 30 s of CPU).
  if (config.planWarmUp !== 'off') {
    const pid = embedded?.pid ?? null;
    const cpu0 = pid ? processCpuMs(pid) : null;
    void warmUp(config.planWarmUp === 'first')
      .then(() => {
        const cpu1 = pid && embedded?.pid === pid ? processCpuMs(pid) : null;
        if (cpu0 !== null && cpu1 !== null) log.info('plan warm-up cost the embedded Neo4j', { cpuMs: cpu1 - cpu0 });
      })
      .finally(warmUpOver);
  }
}

/**
 * For one-shot commands: the configured Neo4j; else the embedded one if it is already running
 * (`npm start`); else the embedded one started for the duration of the command.
 */
async function withCore<T>(config: Config, log: Logger, work: (core: Core) => Promise<T>): Promise<T> {
  let embedded: EmbeddedNeo4j | null = null;
  if (!config.neo4j) {
    const uri = `bolt://127.0.0.1:${config.embedded.port}`;
    const probe = createDriver({ uri, user: 'neo4j' });
    const running = await probe.verifyConnectivity().then(
      () => true,
      () => false,
    );
    await probe.close();
    if (!running) embedded = await startEmbeddedNeo4j(config.embedded, log);
    config = { ...config, neo4j: { uri: embedded?.uri ?? uri, user: 'neo4j' } };
  }
  const core = await createCore(config, log);
  try {
    return await work(core);
  } finally {
    await core.close();
    await embedded?.stop();
  }
}

async function ingestFile(config: Config, log: Logger, file: string | undefined): Promise<number> {
  const input = !file || file === '-' ? process.stdin : fs.createReadStream(file);
  const summary = await withCore(config, log, (core) =>
    ingestNdjson(input, core.ingestor, {
      progress: (s) =>
        process.stderr.write(`\r${s.lines} lines: ${s.stored} stored, ${s.duplicates} duplicates, ${s.rejected} rejected (${Math.round(s.lines / Math.max(s.seconds, 0.001))} lines/s)`),
    }),
  );
  process.stderr.write('\n');
  const out = [
    `${summary.lines} events in ${summary.seconds.toFixed(1)} s: ${summary.stored} stored, ${summary.duplicates} duplicates, ${summary.rejected} rejected`,
    ...summary.reasons.map((r) => `  rejected ${r.count}× ${r.reason}`),
    ...summary.examples.map((e) => `  line ${e.line}: ${e.reason}`),
  ];
  process.stdout.write(out.join('\n') + '\n');
  return summary.rejected > 0 ? 3 : 0;
}

async function reprojectCommand(config: Config, log: Logger, prefix: string): Promise<void> {
  const result = await withCore(config, log, (core) =>
    reproject(
      core.executor,
      prefix,
      (p) => process.stderr.write(p.phase === 'delete' ? `\rdeleted ${p.deleted} projected nodes` : `\rreplayed ${p.replayed}/${p.total} events`),
      500,
      core.rules,
    ),
  );
  process.stdout.write(
    `\nre-projected ${result.replayed} stored events (${result.invalid} no longer valid) after deleting ${result.deleted} nodes` +
      `${prefix ? ` of namespaces starting with "${prefix}"` : ''}\n`,
  );
}

async function neo4jOnly(config: Config, log: Logger): Promise<void> {
  const embedded = await startEmbeddedNeo4j(config.embedded, log);
  process.stdout.write(`${embedded.uri}\n`);
  const stop = () => void embedded.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', arg] = argv;
  if (command === 'token') {
    // A new token for the tokens file: printed once, stored nowhere (the file keeps its hash).
    const { token, line } = newToken(arg ?? '', (argv[2] ?? '').split(',').filter(Boolean));
    process.stdout.write(`token (give it to the client; it is not stored): ${token}\nline for TRIBUTARY_TOKENS_FILE (under "tokens:"):\n${line}\n`);
    return;
  }
  if (command === 'emit-schema') {
    const sdl = printGraphqlSchema();
    if (arg) fs.writeFileSync(arg, sdl);
    else process.stdout.write(sdl);
    return;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (command === 'serve' || command === 'api' || command === 'worker') return run(command, config, log);
  if (command === 'neo4j') return neo4jOnly(config, log);
  if (command === 'neo4j-admin') {
    if (config.neo4j) throw new ConfigError('neo4j-admin works on the embedded store (TRIBUTARY_HOME); NEO4J_URI is set, so use that server\'s own neo4j-admin');
    process.exitCode = await neo4jAdmin(config.embedded, argv.slice(1), (m) => log.info(m));
    return;
  }
  if (command === 'reproject') return reprojectCommand(config, log, arg ?? '');
  if (command === 'ingest') {
    process.exitCode = await ingestFile(config, log, arg);
    return;
  }
  throw new ConfigError(`unknown command "${command}" (expected serve, api, worker, neo4j, neo4j-admin, ingest, reproject or emit-schema)`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof ProvisionError) {
      process.stderr.write(`tributary: ${err.message}\n`);
    } else {
      process.stderr.write(`tributary: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
}
