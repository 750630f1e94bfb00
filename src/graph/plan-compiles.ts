import type { Logger } from '../log';
import type { Executor } from './executor';
import { Query } from './queries';

/**
 * Which of the service's queries met a plan compile after the warm-up, by name.
 *
 * The embedded Neo4j keeps the last plans it compiled for statements (tools/neo4j/Launcher.java,
 * `tributary.planCompiles`): a statement seen for the first time with its parameter types and
 * transaction state, or a cached plan found stale. The plan refresher's forced replans are not
 * among them (Neo4j reports those as recompiles), nor are recompiles with compiled expressions.
 * After the warm-up every such compile is one a caller waited for (a request, a projection batch,
 * a scheduled read), about a second of a core on a small machine: the watch logs each one with the
 * query it belongs to and counts it (tributary_plans_compiled_after_warmup_total), so "no plan on
 * the request path" can be checked by name, not only as a total (plan-cache.ts).
 */

export interface PlanCompile {
  seq: number;
  /** Epoch milliseconds. */
  at: number;
  /** The service's query the statement is; null for a statement none of them is (another client's). */
  query: Query | null;
  /** The statement's first 120 characters, for one no query matches. */
  statement: string;
  /** The parameter types the plan is keyed by, as Neo4j renders them. */
  parameters: string;
  /** Its transaction held uncommitted changes (Neo4j caches that plan apart). */
  afterWrite: boolean;
  /** For a cached plan replanned because the statistics changed, Neo4j's reason; null for a plan not cached before. */
  staleReason: string | null;
}

interface Row {
  seq: number;
  at: number;
  event: 'compiled' | 'stale' | 'flushed';
  statement: string;
  parameters: string;
  afterWrite: boolean;
  reason: string | null;
}

/** Comments dropped and whitespace collapsed: Neo4j keys a statement by its text after the leading comments. */
function normalize(text: string): string {
  return text.replace(/\/\/[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The service's query a statement is, by its text. */
export class StatementNames {
  private readonly byText = new Map<string, Query>();

  constructor(texts: Readonly<Partial<Record<Query, string>>>) {
    for (const [query, text] of Object.entries(texts) as [Query, string][]) this.byText.set(normalize(text), query);
  }

  name(statement: string): Query | null {
    return this.byText.get(normalize(statement)) ?? null;
  }
}

const MAX_PENDING_STALE = 100;

export interface PlanCompileWatchOptions {
  intervalMs: number;
  /** Told each compile met after the baseline (health probes left out). */
  onCompile?: (compile: PlanCompile) => void;
}

export class PlanCompileWatch {
  private timer?: NodeJS.Timeout;
  /** The last sequence number read; null before the baseline. */
  private last: number | null = null;
  /** Stale events whose compile is not read yet, by statement and transaction state. */
  private readonly stale = new Map<string, string | null>();
  private busy: Promise<unknown> | null = null;
  private stopped = false;
  /** Compiles the ring dropped before they were read (more than Neo4j keeps between two checks). */
  missed = 0;

  constructor(
    private readonly executor: Executor,
    private readonly names: StatementNames,
    private readonly log: Logger,
    private readonly options: PlanCompileWatchOptions,
  ) {}

  /**
   * Takes what Neo4j compiled so far as the baseline, then checks every `intervalMs`. Resolves
   * false, and watches nothing, where the server keeps no such log (a Neo4j other than the embedded one).
   */
  async start(): Promise<boolean> {
    if (this.stopped || this.timer) return false;
    if ((await this.check()) === null) return false;
    if (this.stopped) return false;
    this.timer = setInterval(() => void this.check(), this.options.intervalMs);
    this.timer.unref();
    return true;
  }

  /**
   * Once started: waits for a check in flight, then checks again, so that every compile Neo4j
   * counted before the call is reported when it resolves (a metrics scrape names what it counts).
   * Before the start (the warm-up still running) it checks nothing: that would take the baseline early.
   */
  async catchUp(): Promise<void> {
    if (!this.timer) return;
    await this.busy;
    // A check begun since the call (another scrape's) reads the log after it: that one will do.
    if (this.busy) await this.busy;
    else await this.check();
  }

  /** The next check takes a new baseline: for a restarted Neo4j, whose log starts again (and whose plans are all cold). */
  rebaseline(): void {
    this.last = null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.busy;
  }

  /**
   * Reads what was compiled since the last check, logs and reports each compile but the health
   * probes' (the first check only sets the baseline). Resolves with them; null where the server
   * has no such log; [] for a check while one runs or one that failed (logged at debug: the
   * service's liveness reports Neo4j's outages).
   */
  check(): Promise<PlanCompile[] | null> {
    if (this.busy || this.stopped) return Promise.resolve([]);
    const run = this.read().finally(() => {
      this.busy = null;
    });
    this.busy = run;
    return run;
  }

  private async read(): Promise<PlanCompile[] | null> {
    let rows: Row[];
    try {
      rows = await this.executor.read<Row>(Query.PlanCompiles, { after: this.last ?? 0 });
    } catch (err) {
      if ((err as { code?: string }).code === 'Neo.ClientError.Procedure.ProcedureNotFound') return null;
      this.log.debug('plan compile check failed', { error: err });
      return [];
    }
    const baseline = this.last === null;
    const compiles: PlanCompile[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      if (this.last !== null && seq > this.last + 1) this.missed += seq - this.last - 1;
      this.last = seq;
      if (row.event === 'flushed') {
        // Every plan compiles again after it (a schema change does it): said once, not per plan.
        if (!baseline) this.log.info('Neo4j dropped its cached query plans', { reason: row.reason });
        continue;
      }
      const key = `${row.afterWrite ? 'w' : 'c'}|${row.statement}`;
      if (row.event === 'stale') {
        // Its compile follows at once; one that never came (the compile failed) is not kept for long.
        if (this.stale.size >= MAX_PENDING_STALE) this.stale.clear();
        this.stale.set(key, row.reason);
        continue;
      }
      const staleReason = this.stale.get(key) ?? null;
      this.stale.delete(key);
      if (baseline) continue;
      const query = this.names.name(row.statement);
      if (query?.startsWith('health/')) continue;
      compiles.push({ seq, at: Number(row.at), query, statement: row.statement.slice(0, 120), parameters: row.parameters, afterWrite: row.afterWrite, staleReason });
    }
    if (baseline && rows.length === 0) this.last = 0;
    if (baseline) this.stale.clear();
    for (const c of compiles) {
      this.log.info('query plan compiled after the warm-up', {
        query: c.query ?? 'another client',
        ...(c.query ? {} : { statement: c.statement }),
        afterWrite: c.afterWrite,
        parameters: c.parameters,
        stale: c.staleReason,
      });
      this.options.onCompile?.(c);
    }
    return compiles;
  }
}
