import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { startEmbeddedNeo4j, type EmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { createLogger } from '../src/log';
import { startKafka, type KafkaBroker } from './support/kafka-broker';

/**
 * `npm test`: runs every compiled test file (dist/test/{unit,cypher,api,kafka,browser}/**\/*.test.js) with
 * node's test runner against a real Neo4j and a real Kafka broker (KRaft, from Maven Central jars;
 * TEST_KAFKA_BROKERS uses an existing one). Without NEO4J_URI it provisions and starts the embedded Neo4j
 * on a free port with its own store under <TRIBUTARY_HOME>/test (recreated for each run, never the
 * service's store), and stops it afterwards. Tests isolate themselves by namespace, so they also
 * run against a shared server given by NEO4J_URI. Extra arguments filter files by substring
 * (`npm test -- unit` runs the unit tier); only the services the selected tiers need are started
 * (unit: none, so no Java; cypher, api, browser and resilience: Neo4j; kafka: Neo4j and the broker). The browser
 * tier drives the explorer in a headless Chromium that @sparticuz/chromium brings with npm install.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'test-runner');
  const filters = process.argv.slice(2);
  // Tiers run only when asked for by name (`npm run test:resilience`, `npm run test:marquez-ui`,
  // `npm run test:cluster`, which .ci/run runs after `npm test`): resilience (Neo4j killed and frozen
  // again and again: minutes of JVM restarts), marquez-ui (Marquez's web UI, built from its source
  // once: about 9 minutes) and cluster (three brokers, a second Neo4j and five Tributary processes,
  // which it starts itself).
  const tiers = [...TIERS, ...OPT_IN_TIERS.filter((t) => filters.some((x) => x.includes(t)))];
  const files = listTests(path.resolve(__dirname), tiers).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (files.length === 0) {
    process.stderr.write(`no test files match ${filters.join(' ')}\n`);
    return 1;
  }
  let neo4j: EmbeddedNeo4j | null = null;
  let kafka: KafkaBroker | null = null;
  const env: NodeJS.ProcessEnv = { ...process.env };
  const started = Date.now();
  // Tiers: unit needs nothing; cypher and api need Neo4j; kafka needs Neo4j and a broker.
  const tierOf = (f: string) => path.relative(path.resolve(__dirname), f).split(path.sep)[0];
  const needsNeo4j = files.some((f) => tierOf(f) !== 'unit');
  // The resilience tier's kafka-* files need the broker too.
  const needsKafka = files.some((f) => tierOf(f) === 'kafka' || (tierOf(f) === 'resilience' && path.basename(f).startsWith('kafka-')));
  await Promise.all([
    (async () => {
      if (config.neo4j || !needsNeo4j) return;
      const home = path.join(config.embedded.home, 'test');
      fs.rmSync(home, { recursive: true, force: true });
      // No JVM AOT cache (Java 25+): this home is thrown away, a recorded cache would only slow the stop.
      neo4j = await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '1g', pageCache: '256m', aotCache: 'off' }, log);
      process.stdout.write(`embedded Neo4j for tests at ${neo4j.uri} (started in ${Date.now() - started} ms)\n`);
      env.NEO4J_URI = neo4j.uri;
      // Tests of what only the embedded Neo4j has (its plan counters) fail rather than skip here.
      env.TRIBUTARY_TEST_EMBEDDED_NEO4J = '1';
    })(),
    (async () => {
      if (process.env.TEST_KAFKA_BROKERS || !needsKafka) return;
      kafka = await startKafka(path.join(config.embedded.home, 'test-kafka'), config.embedded.searchPath, config.embedded.javaHome);
      process.stdout.write(`Kafka (KRaft) for tests at ${kafka.bootstrap} (started in ${Date.now() - started} ms)\n`);
      env.TEST_KAFKA_BROKERS = kafka.bootstrap;
    })(),
  ]);
  const stopNeo4j = async () => {
    await (kafka as KafkaBroker | null)?.stop();
    await (neo4j as EmbeddedNeo4j | null)?.stop();
  };
  process.once('SIGINT', () => void stopNeo4j().then(() => process.exit(130)));
  try {
    return await new Promise<number>((resolve) => {
      // Two files at a time: most of a test's time is waiting on Neo4j, Kafka or a timer, and files
      // isolate themselves by namespace (those that stop or freeze Neo4j start their own).
      const child = spawn(process.execPath, ['--test', `--test-concurrency=${TEST_CONCURRENCY}`, '--test-reporter=spec', ...files], { env, stdio: 'inherit' });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await stopNeo4j();
  }
}

/** Test files running at once (TEST_CONCURRENCY overrides). */
const TEST_CONCURRENCY = Number(process.env.TEST_CONCURRENCY) || 2;

const TIERS = ['unit', 'cypher', 'api', 'kafka', 'browser'];
const OPT_IN_TIERS = ['resilience', 'marquez-ui', 'cluster'];

function listTests(dir: string, tiers: string[]): string[] {
  const out: string[] = [];
  for (const tier of tiers) {
    const base = path.join(dir, tier);
    if (!fs.existsSync(base)) continue;
    for (const f of fs.readdirSync(base, { recursive: true }) as string[]) {
      if (f.endsWith('.test.js')) out.push(path.join(base, f));
    }
  }
  return out;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`test runner: ${(err as Error)?.message ?? err}\n`);
    process.exit(1);
  },
);
