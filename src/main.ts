import 'reflect-metadata';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Driver } from 'neo4j-driver';
import { ConfigError, loadConfig, type Config } from './config';
import { createDriver, waitForConnectivity } from './graph/driver';
import { startEmbeddedNeo4j, ProvisionError, type EmbeddedNeo4j } from './graph/embedded/neo4j';
import { Executor } from './graph/executor';
import { loadQueries } from './graph/queries';
import { applySchema, isSchemaApplied, loadSchemaStatements } from './graph/schema';
import { buildGraphqlSchema, printGraphqlSchema } from './graphql/schema';
import { buildServer } from './http/server';
import { Ingestor } from './ingest/ingestor';
import { CatalogService } from './lineage/catalog-service';
import { LineageService } from './lineage/lineage-service';
import { createLogger, type Logger } from './log';

/**
 * Composition root. Commands:
 *   (none) | serve   the service on PORT; starts the embedded Neo4j unless NEO4J_URI is set
 *   neo4j            only the embedded Neo4j, until Ctrl-C (prints its bolt URI)
 *   emit-schema [F]  print the GraphQL SDL (or write it to F)
 */

export interface App {
  server: FastifyInstance;
  driver: Driver;
  executor: Executor;
  ingestor: Ingestor;
  close(): Promise<void>;
}

/** Wires the service against a running Neo4j (config.neo4j must be set). Does not listen. */
export async function createApp(config: Config, log: Logger): Promise<App> {
  if (!config.neo4j) throw new ConfigError('createApp needs a Neo4j connection (NEO4J_URI)');
  const queries = loadQueries();
  const statements = loadSchemaStatements();
  const driver = createDriver(config.neo4j);
  try {
    await waitForConnectivity(driver, 60_000, config.neo4j.database);
    const executor = new Executor(driver, queries, config.neo4j.database);
    await applySchema(executor, statements);
    const ingestor = new Ingestor(executor);
    const services = {
      catalog: new CatalogService(executor),
      lineage: new LineageService(executor, config.lineage),
      defaultDepth: config.lineage.defaultDepth,
    };
    const server = await buildServer({
      schema: buildGraphqlSchema(),
      services,
      ingestor,
      log,
      ingestKey: config.ingest.key,
      maxEventBytes: config.ingest.maxEventBytes,
      ready: () => isSchemaApplied(executor, statements),
    });
    return {
      server,
      driver,
      executor,
      ingestor,
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
  throw new ConfigError(`unknown command "${command}" (expected serve, neo4j or emit-schema)`);
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
