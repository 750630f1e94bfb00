import fs from 'node:fs';
import path from 'node:path';
import { names, ports, repoRoot, workDir, type Log } from './contract';
import { requireFree, spawnLogged, waitUntil, type Child } from './proc';
import { SERVICE_NODE_FLAGS } from '../../src/service-flags';

/**
 * The Tributary the seed stack's producers send to: the one at TRIBUTARY_URL when it is set (the
 * events of the Kafka transport are then bridged to its batch endpoint, since that Tributary's Kafka
 * worker does not consume the seed broker), else one started here on the embedded Neo4j with its
 * Kafka worker consuming the OpenLineage topic (state under <work>/tributary, fresh every run).
 */
export interface SeedTributary {
  url: string;
  /** True when this Tributary's own Kafka worker consumes names.openlineageTopic. */
  consumesKafka: boolean;
  /** Resolves once every event stored has been projected (projection lag 0 on /readyz). */
  projected(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startTributary(opts: { kafkaBootstrap: string; log: Log }): Promise<SeedTributary> {
  const external = process.env.TRIBUTARY_URL;
  if (external) {
    const url = external.replace(/\/+$/, '');
    await waitUntil(`Tributary at ${url}/readyz`, async () => (await fetch(`${url}/readyz`)).ok, 30_000);
    opts.log(`sending to the running Tributary at ${url}`);
    return { url, consumesKafka: false, projected: (t) => projected(url, t), stop: async () => {} };
  }
  await requireFree(ports.tributary, 'Tributary', 'SEED_TRIBUTARY_PORT');
  const home = path.join(workDir(), 'tributary');
  fs.rmSync(home, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports.tributary),
    TRIBUTARY_HOME: home,
    TRIBUTARY_NEO4J_PORT: '0',
    TRIBUTARY_NEO4J_HEAP: '768m',
    TRIBUTARY_NEO4J_PAGECACHE: '256m',
    TRIBUTARY_EXPLORER: 'true',
    KAFKA_BROKERS: opts.kafkaBootstrap,
    KAFKA_TOPIC: names.openlineageTopic,
    KAFKA_GROUP_ID: 'tributary-seed',
    TRIBUTARY_LOG_LEVEL: 'info',
  };
  delete env.NEO4J_URI;
  const child: Child = spawnLogged(process.execPath, [...SERVICE_NODE_FLAGS, path.join(repoRoot, 'dist', 'src', 'main.js')], { logFile: path.join(workDir(), 'logs', 'tributary.log'), env });
  const url = `http://127.0.0.1:${ports.tributary}`;
  try {
    await waitUntil(`Tributary to be ready (log: ${child.logFile})`, async () => {
      if (child.process.exitCode !== null) throw new Error(`Tributary exited with ${child.process.exitCode}; see ${child.logFile}`);
      return (await fetch(`${url}/readyz`)).ok;
    }, 600_000, 1000);
  } catch (err) {
    await child.stop(5000);
    throw err;
  }
  opts.log(`Tributary ready at ${url} (embedded Neo4j; Kafka worker on ${names.openlineageTopic}; explorer at ${url}/explore)`);
  return { url, consumesKafka: true, projected: (t) => projected(url, t), stop: () => child.stop() };
}

async function projected(url: string, timeoutMs = 120_000): Promise<void> {
  await waitUntil('Tributary to project every stored event', async () => {
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { projectionLagMs?: number };
    return res.ok && (body.projectionLagMs ?? 0) === 0;
  }, timeoutMs, 1000);
}
