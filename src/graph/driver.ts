import neo4j, { type Driver } from 'neo4j-driver';
import type { GraphDeadlines, Neo4jConnection } from '../config';
import { enlargeBoltWrites } from './bolt-writes';

/**
 * Creates the driver for a connection. `neo4j://` URIs route (cluster, Aura); `bolt://` connects
 * to one server. Without a password, authentication is off (the embedded default). Connecting and
 * waiting for a pooled connection each give up after `deadlines.connectMs` (the queries' own
 * deadlines are the executor's).
 */
export function createDriver(conn: Neo4jConnection, deadlines: Pick<GraphDeadlines, 'connectMs'> = { connectMs: 5_000 }): Driver {
  enlargeBoltWrites();
  const auth = conn.password !== undefined ? neo4j.auth.basic(conn.user, conn.password) : undefined;
  return neo4j.driver(conn.uri, auth, {
    maxConnectionPoolSize: 50,
    connectionAcquisitionTimeout: deadlines.connectMs,
    connectionTimeout: deadlines.connectMs,
    maxTransactionRetryTime: conn.retryMs ?? 15_000,
    userAgent: 'tributary/0.1',
  });
}

/** Waits until the server answers, retrying connection errors until the deadline. */
export async function waitForConnectivity(driver: Driver, timeoutMs: number, database?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await driver.verifyConnectivity({ database });
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Neo4j did not answer within ${timeoutMs} ms: ${(lastError as Error)?.message ?? lastError}`);
}
