import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { createLogger, type Logger } from '../../src/log';
import { createApp, type App } from '../../src/app';

/**
 * A real Tributary service for api and cypher tests: the full app (schema applied, fastify,
 * Apollo) on a random loopback port, against the Neo4j that test/run.ts provides via NEO4J_URI.
 */
export interface TestService {
  app: App;
  config: Config;
  baseUrl: string;
  post(path: string, body: string | Buffer, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  postEvent(event: unknown): Promise<{ status: number; body: any }>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }>;
  close(): Promise<void>;
}

export async function startService(
  env: Record<string, string> = {},
  log: Logger = createLogger('error'),
  /** createApp's: the scheduled reads start once it settles. */
  schedulesAfter?: Promise<unknown>,
): Promise<TestService> {
  // Tests read what they just sent: HTTP ingestion answers once projected, unless a test asks for
  // the default contract (TRIBUTARY_INGEST_WAIT: 'none', see test/api/ingest-contract.test.ts).
  // The lineage gauges refresh only when a test asks (test/api/lineage-gauges.test.ts).
  // Each service its own spool (one per process is the rule), removed on close unless the test chose it.
  const ownSpool = env.TRIBUTARY_SPOOL_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-spool-'));
  const config = loadConfig({ ...process.env, TRIBUTARY_INGEST_WAIT: 'projected', TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: '0', ...(ownSpool ? { TRIBUTARY_SPOOL_DIR: ownSpool } : {}), ...env });
  if (!config.neo4j) throw new Error('tests need NEO4J_URI: run them with `npm test` (test/run.ts starts Neo4j)');
  const app = await createApp(config, log, undefined, undefined, undefined, schedulesAfter);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // leave as text
    }
    return { status: res.status, body: parsed };
  };
  return {
    app,
    config,
    baseUrl,
    post,
    postEvent: (event) => post('/api/v1/lineage', JSON.stringify(event)),
    graphql: async (query, variables) => (await post('/graphql', JSON.stringify({ query, variables }))).body,
    close: async () => {
      await app.close();
      if (ownSpool) fs.rmSync(ownSpool, { recursive: true, force: true });
    },
  };
}
