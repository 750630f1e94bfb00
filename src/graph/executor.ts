import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type Session, type SessionConfig } from 'neo4j-driver';
import { AppError, ErrorCode, limitExceeded, unavailable } from '../errors';
import { toPlain } from './mappers';
import { currentRequestId, type Logger } from '../log';
import { parameterNames, Query, type QueryTexts } from './queries';

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
  /** Told each time a write transaction's attempt lost on locks (the driver then retries it). */
  onLockConflict?: (tx: TxName) => void;
  /** Read transactions running longer are cancelled by Neo4j (LIMIT_EXCEEDED); none when absent. */
  readTimeoutMs?: number;
  /** False while the database is known to be down (restarting, or not answering its probe): fail at once, UNAVAILABLE. */
  available?: () => boolean;
  /**
   * Client-side deadlines: a call (connection, queries, commit) that has not settled by then fails
   * with UNAVAILABLE, whatever the server does. Reads: readTimeoutMs plus READ_GRACE_MS (the server
   * cancels first when it can); writes: writeDeadlineMs. None when absent.
   */
  writeDeadlineMs?: number;
  /** Told each query run (not EXPLAINs), before it runs: the plan refresher's record of the shapes in use. */
  onQuery?: (query: Query, params: Record<string, unknown>, write: boolean, afterWrite: boolean) => void;
}

export interface ExplainOptions {
  /** Plan anew even when a plan is cached; the new plan replaces the cached one. */
  force?: boolean;
  /**
   * EXPLAIN after an uncommitted write in the same (rolled back) transaction: Neo4j caches the plans
   * of statements that follow a write in their transaction apart from the others.
   */
  afterWrite?: boolean;
}

/**
 * A call that outlived its client-side deadline: UNAVAILABLE, like a database that is down. It says
 * the database was too slow or silent, never that the work itself is at fault, so callers that
 * split failing batches down to the event at fault (the projector, the ingestor) retry on it
 * instead of labelling an event that is fine.
 */
export class DeadlineExceeded extends AppError {
  constructor(ms: number) {
    super(ErrorCode.UNAVAILABLE, `the graph database did not answer within ${ms} ms; retry later`);
  }
}

/**
 * A write transaction that lost to another one on locks (Neo4j's DeadlockDetected or a lock wait
 * past its limit) more often than the driver's retries allow: UNAVAILABLE too, and never the
 * events' fault, so callers retry the batch whole (the projector backs off, Kafka commits no
 * offset) instead of splitting it or labelling an event. Concurrent projectors meet it
 * (lock-projection.cypher); each lost attempt is told to onLockConflict.
 */
export class Contended extends AppError {
  constructor() {
    super(ErrorCode.UNAVAILABLE, 'the graph database kept refusing this write for lock conflicts with concurrent writers; retry later');
  }
}

const MEMORY_POOL_FULL = 'Neo.TransientError.General.MemoryPoolOutOfMemoryError';

/**
 * Rethrows a transaction's error; one that Neo4j's memory pool refused is rethrown translated
 * (LIMIT_EXCEEDED), which the driver does not retry: the same transaction would need the same
 * memory again (the driver retries transient errors for 30 s, and this one is classed transient).
 */
function notRetriedIfTooLarge(err: unknown): never {
  throw (err as { code?: string })?.code === MEMORY_POOL_FULL ? translateDriverError(err) : err;
}

/** Neo4j's transient lock failures: a deadlock, or a lock not granted in time. */
export const isLockConflict = (err: unknown): boolean => /^Neo\.TransientError\.Transaction\.(DeadlockDetected|LockAcquisitionTimeout)$/.test((err as { code?: string })?.code ?? '');

/** How much longer than the server's read timeout a read may take before the client gives up on it. */
export const READ_GRACE_MS = 2_000;

/**
 * The one executor: every query goes through it, by name and with parameters.
 * Reads use read transactions (routable to secondaries in a cluster), writes write transactions.
 * All sessions share the driver's bookmark manager, so a read issued after a write this process
 * committed sees that write, also on a cluster. Transient errors are retried by the driver's
 * transaction functions; a lost connection becomes UNAVAILABLE.
 *
 * Naming: every transaction carries metadata `{app: 'tributary', tx: <name>}` (a single query's
 * transaction is named by its .cypher file, a multi-query one by its caller), plus `reqId` when it
 * runs for an HTTP request (the id its log lines carry, src/log.ts), and every query text starts
 * with a comment naming its file, so a slow query in Neo4j's query.log or in `SHOW TRANSACTIONS`
 * points at cypher/<file> and at the request.
 */
export class Executor {
  private readonly texts: Readonly<Record<Query, string>>;
  /** The parameters each query's text uses: a call's others are not sent (see `only`). */
  private readonly parameters: Readonly<Record<Query, ReadonlySet<string>>>;
  private readonly log?: Logger;
  private readonly database?: string;
  private readonly readTimeoutMs?: number;
  private readonly available?: () => boolean;
  private readonly writeDeadlineMs?: number;
  private readonly onLockConflict?: (tx: TxName) => void;
  private readonly onQuery?: ExecutorOptions['onQuery'];
  /** Rejections of the calls in flight, for abortInFlight. */
  private readonly inFlight = new Set<(err: AppError) => void>();

  constructor(
    private readonly driver: Driver,
    queries: QueryTexts,
    options: ExecutorOptions = {},
  ) {
    this.texts = Object.fromEntries(
      Object.entries(queries).map(([name, text]) => [name, `// ${APP}: ${name}.cypher\n${text}`]),
    ) as Record<Query, string>;
    this.parameters = Object.fromEntries(Object.entries(queries).map(([name, text]) => [name, parameterNames(text)])) as Record<Query, ReadonlySet<string>>;
    this.log = options.log;
    this.database = options.database;
    this.readTimeoutMs = options.readTimeoutMs;
    this.available = options.available;
    this.writeDeadlineMs = options.writeDeadlineMs;
    this.onLockConflict = options.onLockConflict;
    this.onQuery = options.onQuery;
  }

  /** Fails every call in flight at once with UNAVAILABLE (the database stopped answering: nobody waits out a deadline). */
  abortInFlight(message = 'the graph database stopped answering; retry in a few seconds'): number {
    const calls = [...this.inFlight];
    for (const abort of calls) abort(unavailable(message));
    return calls.length;
  }

  /** Calls running now. */
  get running(): number {
    return this.inFlight.size;
  }

  /**
   * The liveness probe (src/graph/liveness.ts): a trivial read, whether or not the database is
   * believed to be up, that fails after `timeoutMs`.
   */
  async ping(timeoutMs: number): Promise<void> {
    const query = Query.Ping;
    await this.session(neo4j.session.READ, (s) => s.run(this.texts[query], {}, this.txConfig(query)), timeoutMs, false);
  }

  /** False while the database is known to be down (the embedded one restarting). */
  up(): boolean {
    return this.available ? this.available() : true;
  }

  /**
   * One query in an auto-commit read transaction, named by the query: one round trip to the server
   * (a managed transaction adds its commit), which is most of a small lookup's cost. A transient
   * failure is not retried here: it answers UNAVAILABLE (503, Retry-After) like any other.
   */
  read<Row = Record<string, unknown>>(query: Query, allParams: Record<string, unknown> = {}): Promise<Row[]> {
    const params = this.only(query, allParams);
    this.onQuery?.(query, params, false, false);
    return this.session(neo4j.session.READ, (s) => this.rows<Row>(query, params, s.run(this.texts[query], params, this.readConfig(query))), this.readDeadline());
  }

  /** Several queries in one read transaction (a consistent snapshot). */
  readTx<T>(name: TxName, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    const attempt = (tx: ManagedTransaction) => work(this.runner(tx, false)).catch(notRetriedIfTooLarge);
    return this.session(neo4j.session.READ, (s) => s.executeRead(attempt, this.readConfig(name)), this.readDeadline());
  }

  private readConfig(name: TxName) {
    return this.readTimeoutMs ? { ...this.txConfig(name), timeout: this.readTimeoutMs } : this.txConfig(name);
  }

  private readDeadline(): number | undefined {
    return this.readTimeoutMs ? this.readTimeoutMs + READ_GRACE_MS : undefined;
  }

  /**
   * Several queries in one write transaction; retried as a whole on transient errors (lock
   * conflicts told to onLockConflict, each attempt; Contended once the driver gives up on them).
   */
  writeTx<T>(name: TxName, work: (tx: TxRunner) => Promise<T>): Promise<T> {
    const attempt = (tx: ManagedTransaction) =>
      work(this.runner(tx, true)).catch((err: unknown) => {
        if (isLockConflict(err)) this.onLockConflict?.(name);
        return notRetriedIfTooLarge(err);
      });
    return this.session(neo4j.session.WRITE, (s) => s.executeWrite(attempt, this.txConfig(name)), this.writeDeadlineMs);
  }

  /**
   * One write query committed on its own (an auto-commit transaction: one round trip instead of
   * BEGIN, RUN and COMMIT). It resolves once Neo4j committed it. Not retried on transient errors,
   * so only for single idempotent statements whose caller retries (store-pending-events).
   */
  autoCommit<Row = Record<string, unknown>>(query: Query, allParams: Record<string, unknown> = {}): Promise<Row[]> {
    const params = this.only(query, allParams);
    this.onQuery?.(query, params, true, false);
    return this.session(neo4j.session.WRITE, async (s) => {
      const started = this.log ? performance.now() : 0;
      const result = await s.run(this.texts[query], params, this.txConfig(query));
      const rows = result.records.map((r) => toPlain(r.toObject()) as Row);
      this.log?.debug('query', { query, params: sizesOf(params), rows: rows.length, ms: Math.round((performance.now() - started) * 10) / 10 });
      return rows;
    }, this.writeDeadlineMs);
  }

  /**
   * EXPLAINs a named query (compiles and caches its plan for these parameter types; runs nothing).
   * Write queries go through a write transaction, so that routing sends them to the leader.
   */
  explain(query: Query, allParams: Record<string, unknown>, write: boolean, { force = false, afterWrite = false }: ExplainOptions = {}): Promise<void> {
    const params = this.only(query, allParams);
    const work = (tx: { run: ManagedTransaction['run'] }) =>
      force ? tx.run(`CYPHER replan=force EXPLAIN ${this.texts[query]}`, params) : tx.run(`EXPLAIN ${this.texts[query]}`, params);
    const config = this.txConfig(`explain ${query}`);
    if (afterWrite) {
      return this.session(neo4j.session.WRITE, async (s) => {
        const tx = s.beginTransaction(config);
        try {
          await tx.run(this.texts[Query.UncommittedWrite]);
          await work(tx);
        } finally {
          await tx.rollback();
        }
      }, this.writeDeadlineMs);
    }
    return this.session(write ? neo4j.session.WRITE : neo4j.session.READ, async (s) => {
      await (write ? s.executeWrite(work, config) : s.executeRead(work, config));
    }, write ? this.writeDeadlineMs : this.readDeadline());
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
    const reqId = currentRequestId();
    return { metadata: reqId === undefined ? { app: APP, tx: name } : { app: APP, tx: name, reqId } };
  }

  /** In a write transaction, every statement after the first is taken to follow a write (ExplainOptions.afterWrite). */
  private runner(tx: ManagedTransaction, write: boolean): TxRunner {
    let wrote = false;
    return {
      run: <Row>(query: Query, allParams: Record<string, unknown> = {}) => {
        const params = this.only(query, allParams);
        this.onQuery?.(query, params, write, wrote);
        wrote = write;
        return this.rows<Row>(query, params, tx.run(this.texts[query], params));
      },
    };
  }

  /**
   * The parameters of a call that its query uses. Neo4j ignores the others but keys its plan cache
   * by the whole parameter map, so a caller passing one step's parameters to another (the traversal
   * gives every step `asOf`, `indirect`, `metadata`) met a plan the warm-up had not compiled, whose
   * `// Warm-up:` line declares only what the query uses.
   */
  only(query: Query, params: Record<string, unknown>): Record<string, unknown> {
    const used = this.parameters[query];
    if (!used) return params;
    const keys = Object.keys(params);
    if (keys.every((k) => used.has(k))) return params;
    return Object.fromEntries(keys.filter((k) => used.has(k)).map((k) => [k, params[k]]));
  }

  /** The rows of `query`'s result (running) as plain values (toPlain); logged at debug. */
  private async rows<Row>(query: Query, params: Record<string, unknown>, running: PromiseLike<QueryResult>): Promise<Row[]> {
    const started = this.log ? performance.now() : 0;
    const result = await running;
    const rows = result.records.map((r) => toPlain(r.toObject()) as Row);
    this.log?.debug('query', { query, params: sizesOf(params), rows: rows.length, ms: Math.round((performance.now() - started) * 10) / 10 });
    return rows;
  }

  /**
   * A session for `work`, closed afterwards. Past `deadlineMs` (or on abortInFlight) the call fails
   * with UNAVAILABLE at once; its session is closed in the background once the driver lets go of it
   * (a frozen server holds the connection until it answers or dies).
   */
  private async session<T>(mode: SessionConfig['defaultAccessMode'], work: (s: Session) => Promise<T>, deadlineMs?: number, checkAvailable = true): Promise<T> {
    if (checkAvailable && this.available && !this.available()) throw unavailable('the graph database is down or not answering; retry in a few seconds');
    const session = this.driver.session({
      defaultAccessMode: mode,
      database: this.database,
      bookmarkManager: this.driver.executeQueryBookmarkManager,
    });
    let done = false;
    const call = work(session).then(
      (result) => {
        done = true;
        return result;
      },
      (err: unknown) => {
        done = true;
        throw translateDriverError(err, this.readTimeoutMs);
      },
    );
    let abort: (err: AppError) => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<never>((_, reject) => {
      abort = reject;
      if (deadlineMs) timer = setTimeout(() => reject(new DeadlineExceeded(deadlineMs)), deadlineMs);
    });
    this.inFlight.add(abort);
    try {
      return await Promise.race([call, cut]);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
      if (done) await session.close();
      else void call.then(() => undefined, () => undefined).then(() => session.close()).catch(() => undefined);
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
  if (isLockConflict(err)) return new Contended();
  // Neo4j's transaction memory pool (db.memory.transaction.*, a share of the heap) refused the
  // transaction: it is too large for this heap, not the database down. A projection batch is split
  // (the database answers), a single event is labelled ProjectionFailed (kept; reproject once the
  // heap is larger), a read is told to ask for less.
  if (code === MEMORY_POOL_FULL) {
    return limitExceeded(`the transaction needed more memory than the graph database allows one (its heap: TRIBUTARY_NEO4J_HEAP): ${(err as Error).message}`, 400);
  }
  if (code.includes('TransactionTimedOut')) {
    return limitExceeded(
      `the query ran longer than ${timeoutMs ?? '?'} ms (TRIBUTARY_QUERY_TIMEOUT_MS) and was cancelled: ask for a smaller depth, fewer starts or a narrower scope`,
      400,
    );
  }
  if (
    /Connection acquisition timed out|Connection was closed by server|Failed to connect to server/i.test((err as Error)?.message ?? '') ||
    neo4j.isRetryableError(err) ||
    code === 'ServiceUnavailable' ||
    code === 'SessionExpired' ||
    code.startsWith('Neo.TransientError') ||
    code === 'Neo.ClientError.Database.DatabaseUnavailable'
  ) {
    return unavailable(code.startsWith('Neo.') ? `the graph database is unavailable (${code}); retry later` : 'the graph database is unavailable; retry later');
  }
  if (code === 'Neo.ClientError.Database.DatabaseNotFound') {
    return new AppError(ErrorCode.UNAVAILABLE, 'the configured Neo4j database does not exist');
  }
  return err;
}
