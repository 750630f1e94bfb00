import neo4j, { type Driver, type ManagedTransaction, type Session, type SessionConfig } from 'neo4j-driver';
import { AppError, ErrorCode, limitExceeded, unavailable } from '../errors';
import { toPlain } from './mappers';
import type { Logger } from '../log';
import type { Query, QueryTexts } from './queries';

/** Runs named queries inside one transaction. */
export interface TxRunner {
  run<Row = Record<string, unknown>>(query: Query, params?: Record<string, unknown>): Promise<Row[]>;
}

/** What a transaction is for: its name in the transaction metadata (SHOW TRANSACTIONS, query.log). */
export type TxName = string;

export interface ExecutorOptions {
  database?: string;
  /** Given at debug level only: one line per query with its name, parameter sizes, rows and time. */
  log?: Logger;
  /** Read transactions running longer are cancelled by Neo4j (LIMIT_EXCEEDED); none when absent. */
  readTimeoutMs?: number;
  /** False while the database is known to be down (the embedded one restarting): fail at once, UNAVAILABLE. */
  available?: () => boolean;
}

/**
 * The one executor: every query goes through it, by name and with parameters.
 * Reads use read transactions (routable to secondaries in a cluster), writes write transactions.
 * All sessions share the driver's bookmark manager, so a read issued after a write this process
 * committed sees that write, also on a cluster. Transient errors are retried by the driver's
 * transaction functions; a lost connection becomes UNAVAILABLE.
 *
 * Naming: every transaction carries metadata `{app: 'tributary', tx: <name>}` (a single query's
 * transaction is named by its .cypher file, a multi-query one by its caller), and every query text
 * starts with a comment naming its file, so a slow query in Neo4j's query.log or in
 * `SHOW TRANSACTIONS` points at cypher/<file>.
 */
export class Executor {
  private readonly texts: Readonly<Record<Query, string>>;
  private readonly log?: Logger;
  private readonly database?: string;
  private readonly readTimeoutMs?: number;
  private readonly available?: () => boolean;

  constructor(
    private readonly driver: Driver,
    queries: QueryTexts,
    options: ExecutorOptions = {},
  ) {
    this.texts = Object.fromEntries(
      Object.entries(queries).map(([name, text]) => [name, `// ${APP}: ${name}.cypher\n${text}`]),
    ) as Record<Query, string>;
    this.log = options.log;
    this.database = options.database;
    this.readTimeoutMs = options.readTimeoutMs;
    this.available = options.available;
  }

  /** False while the database is known to be down (the embedded one restarting). */
  up(): boolean {
    return this.available ? this.available() : true;
  }

  /** One query in its own read transaction, named by the query. */
  read<Row = Record<string, unknown>>(query: Query, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.readTx(query, (tx) => tx.run<Row>(query, params));
  }

  /** Several queries in one read transaction (a consistent snapshot). */
  readTx<T>(name: TxName, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    const config = this.readTimeoutMs ? { ...this.txConfig(name), timeout: this.readTimeoutMs } : this.txConfig(name);
    return this.session(neo4j.session.READ, (s) => s.executeRead((tx) => work(this.runner(tx)), config));
  }

  /** Several queries in one write transaction; retried as a whole on transient errors. */
  writeTx<T>(name: TxName, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    return this.session(neo4j.session.WRITE, (s) => s.executeWrite((tx) => work(this.runner(tx)), this.txConfig(name)));
  }

  /**
   * One write query committed on its own (an auto-commit transaction: one round trip instead of
   * BEGIN, RUN and COMMIT). It resolves once Neo4j committed it. Not retried on transient errors,
   * so only for single idempotent statements whose caller retries (store-pending-events).
   */
  autoCommit<Row = Record<string, unknown>>(query: Query, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.session(neo4j.session.WRITE, async (s) => {
      const started = this.log ? performance.now() : 0;
      const result = await s.run(this.texts[query], params, this.txConfig(query));
      const rows = result.records.map((r) => toPlain(r.toObject()) as Row);
      this.log?.debug('query', { query, params: sizesOf(params), rows: rows.length, ms: Math.round((performance.now() - started) * 10) / 10 });
      return rows;
    });
  }

  /**
   * EXPLAINs a named query (compiles and caches its plan for these parameter types; runs nothing).
   * Write queries go through a write transaction, so that routing sends them to the leader.
   */
  explain(query: Query, params: Record<string, unknown>, write: boolean): Promise<void> {
    return this.session(write ? neo4j.session.WRITE : neo4j.session.READ, async (s) => {
      const work = (tx: ManagedTransaction) => tx.run(`EXPLAIN ${this.texts[query]}`, params);
      const config = this.txConfig(`explain ${query}`);
      await (write ? s.executeWrite(work, config) : s.executeRead(work, config));
    });
  }

  /**
   * A schema statement (constraint or index DDL, or the wait for indexes) from cypher/schema/, in
   * its own write transaction. Only schema.ts calls this, with statements loaded from files.
   */
  schema(statement: string): Promise<void> {
    return this.session(neo4j.session.WRITE, async (s) => {
      await s.executeWrite((tx) => tx.run(statement), this.txConfig('schema'));
    });
  }

  private txConfig(name: TxName) {
    return { metadata: { app: APP, tx: name } };
  }

  private runner(tx: ManagedTransaction): TxRunner {
    return {
      run: async <Row>(query: Query, params: Record<string, unknown> = {}) => {
        const started = this.log ? performance.now() : 0;
        const result = await tx.run(this.texts[query], params);
        const rows = result.records.map((r) => toPlain(r.toObject()) as Row);
        this.log?.debug('query', { query, params: sizesOf(params), rows: rows.length, ms: Math.round((performance.now() - started) * 10) / 10 });
        return rows;
      },
    };
  }

  private async session<T>(mode: SessionConfig['defaultAccessMode'], work: (s: Session) => Promise<T>): Promise<T> {
    if (this.available && !this.available()) throw unavailable('the graph database is restarting; retry in a few seconds');
    const session = this.driver.session({
      defaultAccessMode: mode,
      database: this.database,
      bookmarkManager: this.driver.executeQueryBookmarkManager,
    });
    try {
      return await work(session);
    } catch (err) {
      throw translateDriverError(err, this.readTimeoutMs);
    } finally {
      await session.close();
    }
  }
}

const APP = 'tributary';

/** Parameter sizes for the debug log: list lengths, string lengths, keys of maps; never values. */
function sizesOf(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = Array.isArray(v) ? `list(${v.length})` : typeof v === 'string' ? `string(${v.length})` : v === null ? 'null' : typeof v === 'object' ? `map(${Object.keys(v as object).length})` : typeof v;
  }
  return out;
}

/**
 * A transaction Neo4j cancelled for running past its timeout becomes LIMIT_EXCEEDED; connection-level
 * and retriable failures become UNAVAILABLE; everything else passes through unchanged.
 */
export function translateDriverError(err: unknown, timeoutMs?: number): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code.includes('TransactionTimedOut')) {
    return limitExceeded(
      `the query ran longer than ${timeoutMs ?? '?'} ms (TRIBUTARY_QUERY_TIMEOUT_MS) and was cancelled: ask for a smaller depth, fewer starts or a narrower scope`,
      400,
    );
  }
  if (
    neo4j.isRetryableError(err) ||
    code === 'ServiceUnavailable' ||
    code === 'SessionExpired' ||
    code.startsWith('Neo.TransientError') ||
    code === 'Neo.ClientError.Database.DatabaseUnavailable'
  ) {
    return unavailable('the graph database is unavailable; retry later');
  }
  if (code === 'Neo.ClientError.Database.DatabaseNotFound') {
    return new AppError(ErrorCode.UNAVAILABLE, 'the configured Neo4j database does not exist');
  }
  return err;
}
