import 'reflect-metadata';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Driver } from 'neo4j-driver';
import { ConfigError, loadConfig, type Config } from './config';
import { createDriver, waitForConnectivity } from './graph/driver';
import { startEmbeddedNeo4j, ProvisionError, type EmbeddedNeo4j } from './graph/embedded/neo4j';
import { Executor } from './graph/executor';
import { loadQueries } from './graph/queries';
import { applySchema, isSchemaApplied, loadSchemaStatements, type SchemaStatement } from './graph/schema';
import { buildGraphqlSchema, printGraphqlSchema } from './graphql/schema';
import { buildServer } from './http/server';
import { GroupCommitter } from './ingest/group-commit';
import { Ingestor } from './ingest/ingestor';
import { ingestNdjson } from './ingest/ndjson';
import { reproject } from './ingest/reproject';
import { CatalogService } from './lineage/catalog-service';
import { LineageService } from './lineage/lineage-service';
import { TraceService } from './lineage/trace-service';
import { ImpactService } from './lineage/impact-service';
import { CoverageService } from './lineage/coverage-service';
import { BreaksService } from './lineage/breaks-service';
import { PathService } from './lineage/path-service';
import { createLogger, type Logger } from './log';

/**
 * Composition root. Commands:
 *   (none) | serve   the service on PORT; starts the embedded Neo4j unless NEO4J_URI is set
 *   neo4j            only the embedded Neo4j, until Ctrl-C (prints its bolt URI)
 *   ingest [F|-]     NDJSON events from file F or stdin; progress on stderr, summary on stdout;
 *                    exit 3 when some events were rejected
 *   reproject [P]    rebuild the graph (namespaces starting with P; all without P) from stored events
 *   emit-schema [F]  print the GraphQL SDL (or write it to F)
 */

export interface App {
  server: FastifyInstance;
  driver: Driver;
  executor: Executor;
  ingestor: Ingestor;
  committer: GroupCommitter;
  close(): Promise<void>;
}

/** The graph side: driver, executor with the schema applied, ingestor. */
export interface Core {
  driver: Driver;
  executor: Executor;
  ingestor: Ingestor;
  statements: SchemaStatement[];
}

/** Connects to a running Neo4j (config.neo4j must be set) and applies the schema. */
export async function createCore(config: Config, log: Logger): Promise<Core> {
  if (!config.neo4j) throw new ConfigError('a Neo4j connection (NEO4J_URI) is needed here');
  const queries = loadQueries();
  const statements = loadSchemaStatements();
  const driver = createDriver(config.neo4j);
  try {
    await waitForConnectivity(driver, 60_000, config.neo4j.database);
    const executor = new Executor(driver, queries, config.neo4j.database);
    await applySchema(executor, statements);
    return { driver, executor, ingestor: new Ingestor(executor, log), statements };
  } catch (err) {
    await driver.close();
    throw err;
  }
}

/** Wires the service against a running Neo4j (config.neo4j must be set). Does not listen. */
export async function createApp(config: Config, log: Logger): Promise<App> {
  const core = await createCore(config, log);
  const { driver, executor, ingestor, statements } = core;
  try {
    const committer = new GroupCommitter(ingestor);
    const catalog = new CatalogService(executor);
    const lineage = new LineageService(executor, config.lineage);
    const trace = new TraceService(executor, config.lineage);
    const services = {
      catalog,
      lineage,
      trace,
      impact: new ImpactService(lineage, trace, catalog),
      coverage: new CoverageService(executor, lineage, config.lineage),
      breaks: new BreaksService(executor, config.lineage.maxNodes * 10),
      paths: new PathService(executor),
      defaultDepth: config.lineage.defaultDepth,
      maxDepth: config.lineage.maxDepth,
    };
    const server = await buildServer({
      schema: buildGraphqlSchema(),
      services,
      ingestor,
      committer,
      log,
      ingestKey: config.ingest.key,
      limits: config.ingest,
      queryLimits: config.graphql,
      ready: () => isSchemaApplied(executor, statements),
    });
    return {
      server,
      driver,
      executor,
      ingestor,
      committer,
      close: async () => {
        await server.close();
        await driver.close();
      },
    };
  } catch (err) {
    await driver.close();
    throw err;
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
    await core.driver.close();
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

async function serve(config: Config, log: Logger): Promise<void> {
  let embedded: EmbeddedNeo4j | null = null;
  let app: App | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await app?.close().catch((err) => log.error('error closing the service', { error: err }));
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (!config.neo4j) {
    embedded = await startEmbeddedNeo4j(config.embedded, log);
    config = { ...config, neo4j: { uri: embedded.uri, user: 'neo4j' } };
  }
  app = await createApp(config, log);
  await app.server.listen({ host: config.http.host, port: config.http.port });
  log.info('Tributary listening', {
    url: `http://${config.http.host}:${config.http.port}`,
    ingest: '/api/v1/lineage',
    graphql: '/graphql',
    neo4j: config.neo4j!.uri,
    embedded: embedded !== null,
  });
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
  if (command === 'emit-schema') {
    const sdl = printGraphqlSchema();
    if (arg) fs.writeFileSync(arg, sdl);
    else process.stdout.write(sdl);
    return;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (command === 'serve') return serve(config, log);
  if (command === 'neo4j') return neo4jOnly(config, log);
  if (command === 'reproject') {
    const prefix = arg ?? '';
    const result = await withCore(config, log, (core) =>
      reproject(core.executor, prefix, (p) =>
        process.stderr.write(
          p.phase === 'delete' ? `\rdeleted ${p.deleted} projected nodes` : `\rreplayed ${p.replayed}/${p.total} events`,
        ),
      ),
    );
    process.stdout.write(
      `\nre-projected ${result.replayed} stored events (${result.invalid} no longer valid) after deleting ${result.deleted} nodes` +
        `${prefix ? ` of namespaces starting with "${prefix}"` : ''}\n`,
    );
    return;
  }
  if (command === 'ingest') {
    process.exitCode = await ingestFile(config, log, arg);
    return;
  }
  throw new ConfigError(`unknown command "${command}" (expected serve, neo4j, ingest, reproject or emit-schema)`);
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
