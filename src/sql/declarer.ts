import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { cmp } from '../lineage/common';
import { Repeat } from '../http/repeat';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { MAX_SQL_CHARS, type DeclaredTable, type SqlParse } from './declared-tables';
import { dialectOf } from './dialects';
import { SqlParsePool } from './parse-pool';

/**
 * The SQL declarer: in the background, off the ingestion path, it parses the statements of sql job
 * facets (src/sql/parse-pool.ts) and records the tables each names as DECLARED lineage
 * (`(:Job)-[:DECLARES]->(:SqlTable)`, cypher/sql/write-declared.cypher), kept apart from what
 * producers report; then it resolves each declared table name to datasets
 * (`(:SqlTable)-[:RESOLVES {strength}]->(:Dataset)`, cypher/sql/table-candidates.cypher).
 *
 * Contract:
 * - A statement is recorded once per version (the job's sqlHash); a statement that changes while
 *   it is parsed is parsed again next round. One that does not parse is recorded UNPARSED with the
 *   reason, never guessed. BUSY (the parser shut down) records nothing: next round tries again.
 * - Resolution follows the graph: each round every declared name is matched again, so a dataset
 *   that arrives later is found then. A name resolves to its best candidates only (most trailing
 *   name parts matching: STRONG ones when there are any, else MEDIUM, the table name alone), at
 *   most PER_TABLE; all MEDIUM when they are more than one logical dataset (ambiguous).
 * - Never two rounds at once; a failed round (Neo4j away) is logged and counted, nothing is lost:
 *   what was pending stays pending. Nothing here writes a node or edge that reported lineage reads.
 */

export interface DeclarerRound {
  /** Statements recorded PARSED / UNPARSED; parses removed (the statement is gone). */
  parsed: number;
  unparsed: number;
  removed: number;
  /** Declared names whose resolution changed, and those deleted (no job declares them now). */
  resolved: number;
  orphans: number;
}

/** Pending statements read per page, and at most this many pages per round (the rest: next round). */
const PAGE = 50;
const MAX_PAGES = 40;
/** SqlTables matched per page, and the most datasets one name resolves to. */
const TABLE_PAGE = 500;
export const PER_TABLE = 10;

interface Pending {
  jobId: string;
  hash: string | null;
  chars: number;
  sql: string | null;
  dialect: string | null;
  engine: string | null;
  schemes?: string[];
}
/** A row of write-declared.cypher. */
interface DeclaredRow {
  jobId: string;
  hash: string | null;
  status: SqlParse['status'] | null;
  dialect: string | null;
  from: string | null;
  reason: string | null;
  message: string | null;
  at: string;
  tables: ReturnType<typeof tableRow>[];
}
interface Target {
  datasetId: string;
  strength: 'STRONG' | 'MEDIUM';
}
interface Candidate extends Target {
  score: number;
  /** One logical dataset (the least id among it and its SYMLINKed names). */
  group?: string;
}

export class SqlDeclarer {
  private readonly schedule: Repeat;
  private running: Promise<DeclarerRound | null> | null = null;

  constructor(
    private readonly executor: Executor,
    private readonly pool: SqlParsePool,
    private readonly intervalS: number,
    private readonly metrics?: Metrics,
    private readonly log?: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.schedule = new Repeat(() => this.round(), intervalS * 1000);
  }

  start(firstInMs = 2_000): void {
    if (this.intervalS > 0) this.schedule.start(firstInMs);
  }

  async stop(): Promise<void> {
    this.schedule.stop();
    await this.running;
    await this.pool.close();
  }

  /**
   * One round now (or the one in flight); null when it failed (logged and counted). `jobPrefix`
   * limits the statements parsed to job namespaces starting with it (the tests' isolation).
   */
  round(jobPrefix = ''): Promise<DeclarerRound | null> {
    this.running ??= this.work(jobPrefix).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async work(prefix: string): Promise<DeclarerRound | null> {
    try {
      const out: DeclarerRound = { parsed: 0, unparsed: 0, removed: 0, resolved: 0, orphans: 0 };
      await this.declare(out, prefix);
      await this.resolve(out);
      this.metrics?.sqlRounds.inc({ outcome: 'ok' });
      return out;
    } catch (err) {
      this.metrics?.sqlRounds.inc({ outcome: 'failed' });
      this.log?.warn('SQL declarer round failed; what is pending stays pending', { error: err });
      return null;
    }
  }

  private async declare(out: DeclarerRound, prefix: string): Promise<void> {
    for (let page = 0; page < MAX_PAGES; page++) {
      const pending = await this.executor.read<Pending>(Query.PendingStatements, { prefix, limit: PAGE, maxChars: MAX_SQL_CHARS });
      const rows: DeclaredRow[] = [];
      for (const p of pending) {
        const row = await this.record(p);
        if (row) rows.push(row);
      }
      if (rows.length) await this.executor.writeTx(Query.WriteDeclared, (tx) => tx.run(Query.WriteDeclared, { rows }));
      for (const r of rows) {
        if (r.hash === null) out.removed++;
        else if (r.status === 'PARSED') out.parsed++;
        else out.unparsed++;
        if (r.hash !== null) this.metrics?.sqlStatements.inc({ status: r.status === 'PARSED' ? 'parsed' : 'unparsed', reason: r.reason ?? 'none' });
      }
      // Fewer than a page: none left. Nothing written: only BUSY ones left, for the next round.
      if (pending.length < PAGE || rows.length === 0) return;
    }
  }

  private async record(p: Pending): Promise<DeclaredRow | null> {
    const at = this.now().toISOString();
    if (p.hash === null) return { jobId: p.jobId, hash: null, status: null, dialect: null, from: null, reason: null, message: null, at, tables: [] };
    const choice = dialectOf(p.dialect, p.engine, p.schemes ?? []);
    const parse: SqlParse =
      p.sql === null
        ? { status: 'UNPARSED', dialect: choice.dialect, reason: 'TOO_LARGE', message: `${p.chars} characters, over ${MAX_SQL_CHARS}` }
        : await this.pool.parse(p.sql, choice.dialect);
    if (parse.status === 'UNPARSED' && parse.reason === 'BUSY') return null;
    const base = { jobId: p.jobId, hash: p.hash, status: parse.status, dialect: parse.dialect, from: choice.from, at };
    if (parse.status === 'UNPARSED') {
      const message = parse.reason === 'UNKNOWN_DIALECT' ? `${parse.message} (${choice.from})` : parse.message;
      return { ...base, reason: parse.reason, message, tables: [] };
    }
    return { ...base, reason: null, message: null, tables: parse.tables.map(tableRow) };
  }

  private async resolve(out: DeclarerRound): Promise<void> {
    let after = '';
    for (;;) {
      const page = await this.executor.read<{ key: string; declared: boolean; candidates: Candidate[]; current: Target[] }>(Query.TableCandidates, {
        after,
        limit: TABLE_PAGE,
        perTable: PER_TABLE,
      });
      if (page.length === 0) return;
      after = page[page.length - 1]!.key;
      const orphans = page.filter((t) => !t.declared).map((t) => t.key);
      const rows: { key: string; targets: Target[] }[] = [];
      for (const t of page) {
        const targets = targetsOf(t.candidates);
        if (t.declared && !sameTargets(targets, t.current)) rows.push({ key: t.key, targets });
      }
      if (rows.length || orphans.length) await this.executor.writeTx(Query.WriteResolutions, (tx) => tx.run(Query.WriteResolutions, { rows, orphans }));
      out.resolved += rows.length;
      out.orphans += orphans.length;
      if (page.length < TABLE_PAGE) return;
    }
  }
}

/** The declarer as the service runs it (main.ts: `serve` and `worker`), with its own parser worker. */
export function createSqlDeclarer(
  settings: { intervalS: number; timeoutMs: number; coldTimeoutMs: number },
  executor: Executor,
  metrics?: Metrics,
  log?: Logger,
): SqlDeclarer {
  const pool = new SqlParsePool({ timeoutMs: settings.timeoutMs, coldTimeoutMs: settings.coldTimeoutMs, maxQueue: PAGE });
  return new SqlDeclarer(executor, pool, settings.intervalS, metrics, log);
}

/** A declared table as write-declared.cypher keeps it: its key is the lower-cased name. */
export function tableRow(t: DeclaredTable) {
  const key = t.name.toLowerCase();
  return { key, tail: key.split('.').pop() ?? key, role: t.role, name: t.name, line: t.line, column: t.column, start: t.start, end: t.end };
}

/** The candidates of the best score (so STRONG ones when there are any), in dataset id order. */
/**
 * The best-scoring candidates. Ambiguity is never STRONG: when they are more than one logical
 * dataset (two warehouses, each with shop.orders), every one is MEDIUM.
 */
export function targetsOf(candidates: readonly Candidate[]): Target[] {
  const best = Math.max(0, ...candidates.map((c) => c.score));
  const top = candidates.filter((c) => c.score === best);
  const ambiguous = new Set(top.map((c) => c.group ?? c.datasetId)).size > 1;
  return top
    .map((c) => ({ datasetId: c.datasetId, strength: ambiguous ? ('MEDIUM' as const) : c.strength }))
    .sort((a, b) => cmp(a.datasetId, b.datasetId));
}

function sameTargets(a: readonly Target[], b: readonly Target[]): boolean {
  return a.length === b.length && a.every((c, i) => c.datasetId === b[i]!.datasetId && c.strength === b[i]!.strength);
}
