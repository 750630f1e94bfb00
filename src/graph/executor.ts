import neo4j, { type Driver, type ManagedTransaction, type Session, type SessionConfig } from 'neo4j-driver';
import { AppError, ErrorCode, unavailable } from '../errors';
import { toPlain } from './mappers';
import type { Query, QueryTexts } from './queries';

/** Runs named queries inside one transaction. */
export interface TxRunner {
  run<Row = Record<string, unknown>>(query: Query, params?: Record<string, unknown>): Promise<Row[]>;
}

/**
 * The one executor: every query goes through it, by name and with parameters.
 * Reads use read transactions (routable to secondaries in a cluster), writes write transactions.
 * All sessions share the driver's bookmark manager, so a read issued after a write this process
 * committed sees that write, also on a cluster. Transient errors are retried by the driver's
 * transaction functions; a lost connection becomes UNAVAILABLE.
 */
export class Executor {
  constructor(
    private readonly driver: Driver,
    private readonly queries: QueryTexts,
    private readonly database?: string,
  ) {}

  /** One query in its own read transaction. */
  read<Row = Record<string, unknown>>(query: Query, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.readTx((tx) => tx.run<Row>(query, params));
  }

  /** Several queries in one read transaction (a consistent snapshot). */
  readTx<T>(work: (tx: TxRunner) => Promise<T>): Promise<T> {
    return this.session(neo4j.session.READ, (s) => s.executeRead((tx) => work(this.runner(tx))));
  }

  /** Several queries in one write transaction; retried as a whole on transient errors. */
  writeTx<T>(work: (tx: TxRunner) => Promise<T>): Promise<T> {
    return this.session(neo4j.session.WRITE, (s) => s.executeWrite((tx) => work(this.runner(tx))));
  }

  /**
   * PROFILEs one named read query (for tests and diagnostics): the operators of its executed plan,
   * depth first, and the total database hits.
   */
  profile(query: Query, params: Record<string, unknown>): Promise<{ operators: string[]; dbHits: number; rows: number }> {
    return this.session(neo4j.session.READ, (s) =>
      s.executeRead(async (tx) => {
        const result = await tx.run(`PROFILE ${this.queries[query]}`, params);
        const operators: string[] = [];
        let dbHits = 0;
        const walk = (p: { operatorType: string; dbHits: number; children: unknown[] }) => {
          operators.push(p.operatorType.replace(/@.*$/, ''));
          dbHits += Number(p.dbHits);
          p.children.forEach((c) => walk(c as typeof p));
        };
        const profile = result.summary.profile;
        if (profile) walk(profile as unknown as { operatorType: string; dbHits: number; children: unknown[] });
        return { operators, dbHits, rows: result.records.length };
      }),
    );
  }

  /**
   * EXPLAINs a named query (compiles and caches its plan for these parameter types; runs nothing).
   * Write queries go through a write transaction, so that routing sends them to the leader.
   */
  explain(query: Query, params: Record<string, unknown>, write: boolean): Promise<void> {
    return this.session(write ? neo4j.session.WRITE : neo4j.session.READ, async (s) => {
      const work = (tx: ManagedTransaction) => tx.run(`EXPLAIN ${this.queries[query]}`, params);
      await (write ? s.executeWrite(work) : s.executeRead(work));
    });
  }

  /**
   * A schema statement (constraint or index DDL) from cypher/schema/, in its own write transaction.
   * Only schema.ts calls this, with statements loaded from files, never with user input.
   */
  schema(statement: string): Promise<void> {
    return this.session(neo4j.session.WRITE, async (s) => {
      await s.executeWrite((tx) => tx.run(statement));
    });
  }

  private runner(tx: ManagedTransaction): TxRunner {
    return {
      run: async <Row>(query: Query, params: Record<string, unknown> = {}) => {
        const result = await tx.run(this.queries[query], params);
        return result.records.map((r) => toPlain(r.toObject()) as Row);
      },
    };
  }

  private async session<T>(mode: SessionConfig['defaultAccessMode'], work: (s: Session) => Promise<T>): Promise<T> {
    const session = this.driver.session({
      defaultAccessMode: mode,
      database: this.database,
      bookmarkManager: this.driver.executeQueryBookmarkManager,
    });
    try {
      return await work(session);
    } catch (err) {
      throw translateDriverError(err);
    } finally {
      await session.close();
    }
  }
}

/** Connection-level and retriable failures become UNAVAILABLE; everything else passes through unchanged. */
export function translateDriverError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? '';
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
