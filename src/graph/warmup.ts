import type { Logger } from '../log';
import { pauseAsLongAs } from './pace';
import type { Executor } from './executor';
import { compiledSince, readPlanCounters, type PlanCounters } from './plan-cache';
import { Query, type QueryTexts } from './queries';
import { executeRuns, type WarmUpRuns } from './warmup-runs';

/**
 * Plan warm-up. Neo4j caches a query's plan per parameter *types*, where an empty list, a list of
 * strings, null and a string all differ: the first call with each combination compiles a plan
 * (about a second on a small machine), which users would meet as a multi-second outlier on a
 * lineage request whose frontier happens to be, say, datasets and jobs at once.
 *
 * With Neo4j's default settings lists also differ by size bucket (empty, 1, 2-10, 11-100,
 * 101-1000, 1001-10000 elements, as measured on 5.26), so a frontier of 3 datasets and one of 16
 * need different plans. The embedded Neo4j plans without parameter sizes
 * (tools/neo4j/Launcher.java): there an empty list still differs from a list of strings, but lists
 * of other sizes share one plan, so the size alternatives below are cache hits (milliseconds); they
 * stay declared for a server given by NEO4J_URI.
 *
 * A query file may declare the shapes its callers send, as a header line
 *   // Warm-up: {"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100]}], "asOf": [null, "2000-01-01"]}
 * mapping each parameter to its alternative values (every combination is warmed); an alternative
 * {"listOf": x, "sizes": [...]} stands for lists of x of each size. The line may also hold a JSON
 * list of such maps: the union of their combinations. The first pass (what the default
 * `TRIBUTARY_PLAN_WARMUP=first` compiles) takes the first combination of each map: so a line lists
 * first, as maps apart, the shapes that users meet (a dataset's identity and a job's, a namespace
 * or none), and puts the rarer alternatives after the first value of a map. Lists of node ids are
 * never empty (NO_NODE_ID in src/ids.ts), which spares a plan per empty-or-not combination.
 * `warmUpPlans` EXPLAINs each combination once (EXPLAIN compiles and caches the plan, and runs
 * nothing), write queries in write transactions.
 * The plans Neo4j compiled meanwhile are counted apart (`compiled`, plan-cache.ts; null on a
 * server that does not count them): a combination whose plan is already cached compiles nothing.
 *
 * Neo4j also caches a statement's plan apart when its transaction has uncommitted changes (a
 * CREATE, a SET, even one undone, as the projection's locks are). Ingestion queries are EXPLAINed
 * both ways unless their file says where they run, as a header line
 *   // Warm-up transaction: first            (only ever the first statement of a write transaction)
 *   // Warm-up transaction: after-write      (only ever after a write in its transaction)
 *   // Warm-up transaction: read             (only in read transactions)
 * A statement that runs elsewhere than declared still works: it compiles its plan when first run.
 *
 * A query that a fresh service rarely meets (time travel) may leave the first pass, as the line
 *   // Warm-up pass: second (why, optionally)
 * its plans then compile in the second pass (TRIBUTARY_PLAN_WARMUP=all) or at first use.
 */

/**
 * Each query's declared parameter combinations, the first pass's first: one per map of its
 * `// Warm-up:` line (that map's first combination), then the rest.
 */
export class WarmUpShapes extends Map<Query, Record<string, unknown>[]> {
  private readonly firsts = new Map<Query, number>();

  /** `combos` in order: the first `first` of them are the first pass's. */
  put(query: Query, combos: Record<string, unknown>[], first = 1): this {
    this.firsts.set(query, first);
    return this.set(query, combos);
  }

  /** The combinations the first pass compiles (none for an undeclared query). */
  firstPass(query: Query): Record<string, unknown>[] {
    return (this.get(query) ?? []).slice(0, this.firsts.get(query) ?? 1);
  }

  /** The combinations only the second pass compiles. */
  secondPass(query: Query): Record<string, unknown>[] {
    return (this.get(query) ?? []).slice(this.firsts.get(query) ?? 1);
  }
}

/**
 * How a query's plans are warmed: `write` both in a clean write transaction and after a write,
 * `first` only the former, `after-write` only the latter, `read` in a read transaction.
 */
export type WarmUpTransaction = 'read' | 'write' | 'first' | 'after-write';
const DECLARABLE: readonly string[] = ['read', 'first', 'after-write'];

/** The text after `prefix` on the query's header line that starts with it, trimmed; undefined without one. */
const headerValue = (text: string, prefix: string): string | undefined =>
  text.split('\n').find((l) => l.startsWith(prefix))?.slice(prefix.length).trim();

const TRANSACTION = '// Warm-up transaction:';
const byDefault = (query: Query): WarmUpTransaction => (query.startsWith('ingest/') ? 'write' : 'read');

/** Each query's `// Warm-up transaction:` line; without one, `write` for ingest/ queries, else `read`. Throws on a bad line. */
export function warmUpTransactions(texts: QueryTexts): ReadonlyMap<Query, WarmUpTransaction> {
  const out = new Map<Query, WarmUpTransaction>();
  for (const query of Object.values(Query)) {
    const declared = headerValue(texts[query], TRANSACTION);
    if (declared !== undefined && !DECLARABLE.includes(declared)) {
      throw new Error(`${query}.cypher: Warm-up transaction must be one of ${DECLARABLE.map((d) => `"${d}"`).join(', ')}`);
    }
    out.set(query, (declared as WarmUpTransaction | undefined) ?? byDefault(query));
  }
  return out;
}

const PASS = '// Warm-up pass:';

/** The queries whose file says `// Warm-up pass: second`. Throws on a bad line. */
export function secondPassQueries(texts: QueryTexts): ReadonlySet<Query> {
  const out = new Set<Query>();
  for (const query of Object.values(Query)) {
    const declared = headerValue(texts[query], PASS)?.split(/\s/)[0];
    if (declared !== undefined && declared !== 'first' && declared !== 'second') throw new Error(`${query}.cypher: Warm-up pass must be "first" or "second"`);
    if (declared === 'second') out.add(query);
  }
  return out;
}

/** The parameter combinations declared by the `// Warm-up:` header lines. Throws on a bad line. */
export function warmUpShapes(texts: QueryTexts): WarmUpShapes {
  const out = new WarmUpShapes();
  for (const query of Object.values(Query)) {
    const line = texts[query].split('\n').find((l) => l.startsWith('// Warm-up:'));
    if (!line) continue;
    let spec: unknown;
    try {
      spec = JSON.parse(line.slice('// Warm-up:'.length));
    } catch {
      throw new Error(`${query}.cypher: the Warm-up line is not JSON`);
    }
    const products = Array.isArray(spec) ? spec : [spec];
    if (!products.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p) && Object.values(p).every(Array.isArray))) {
      throw new Error(`${query}.cypher: Warm-up must map each parameter to a list of values (or list such maps)`);
    }
    const each = (products as Record<string, unknown[]>[]).map(combinations).filter((c) => c.length > 0);
    out.put(query, [...each.map((c) => c[0]!), ...each.flatMap((c) => c.slice(1))], each.length);
  }
  return out;
}

function combinations(spec: Record<string, unknown[]>): Record<string, unknown>[] {
  let combos: Record<string, unknown>[] = [{}];
  for (const [param, alternatives] of Object.entries(spec)) {
    const values = alternatives.flatMap((v) => (isListSpec(v) ? v.sizes.map((n) => Array.from({ length: n }, () => v.listOf)) : [v]));
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [param]: v })));
  }
  return combos;
}

function isListSpec(v: unknown): v is { listOf: unknown; sizes: number[] } {
  return v !== null && typeof v === 'object' && 'listOf' in v && 'sizes' in v && Array.isArray((v as { sizes: unknown }).sizes);
}

/** Where a statement of each kind is EXPLAINed: a write transaction, clean or after a write, or a read transaction. */
function explainModes(tx: WarmUpTransaction): { write: boolean; afterWrite: boolean }[] {
  if (tx === 'read') return [{ write: false, afterWrite: false }];
  if (tx === 'first') return [{ write: true, afterWrite: false }];
  if (tx === 'after-write') return [{ write: true, afterWrite: true }];
  return [{ write: true, afterWrite: false }, { write: true, afterWrite: true }];
}

/**
 * The shapes the first pass compiles (what `TRIBUTARY_PLAN_WARMUP=first` leaves warm): each
 * query's first combination, with the parameters the query uses, where its transaction kind runs
 * it; second-pass queries left out.
 */
export function firstPassShapes(
  executor: Pick<Executor, 'only'>,
  shapes: WarmUpShapes,
  transactions: ReadonlyMap<Query, WarmUpTransaction>,
  secondPass: ReadonlySet<Query>,
): { query: Query; params: Record<string, unknown>; write: boolean; afterWrite: boolean }[] {
  return firstPassCombinations(shapes, secondPass).flatMap(([query, params]) =>
    modesOf(transactions, query).map((m) => ({ query, params: executor.only(query, params), ...m })),
  );
}

/** How a query is EXPLAINed: as its `// Warm-up transaction:` line says, else by its kind. */
const modesOf = (transactions: ReadonlyMap<Query, WarmUpTransaction>, query: Query) => explainModes(transactions.get(query) ?? byDefault(query));

/** Kinds of query in the order a fresh service meets them: ingestion first, then reads, admin last. */
const PRIORITY = ['ingest/', 'lineage/', 'nodes/', 'analytics/', 'admin/'];
const rank = (q: Query) => {
  const i = PRIORITY.findIndex((p) => q.startsWith(p));
  return i < 0 ? PRIORITY.length : i;
};

/** The declared queries with their combinations, in the order the warm-up compiles them (PRIORITY). */
const ordered = (shapes: WarmUpShapes) => [...shapes].sort((a, b) => rank(a[0]) - rank(b[0]));

/** Pass 1's combinations, in its order: each query's first ones, the second-pass queries left out. */
function firstPassCombinations(shapes: WarmUpShapes, secondPass: ReadonlySet<Query>): [Query, Record<string, unknown>][] {
  return ordered(shapes)
    .filter(([query]) => !secondPass.has(query))
    .flatMap(([query]) => shapes.firstPass(query).map((params): [Query, Record<string, unknown>] => [query, params]));
}

/**
 * EXPLAINs the declared combinations in two passes, resolving with counts (never rejecting):
 *  1. the first combination of each map of each query's line (single events, small frontiers,
 *     each kind of start: what a fresh service meets first), ingestion queries first, then lineage,
 *     nodes, analytics, admin, back to back; not those in `secondPass` (secondPassQueries);
 *  2. the rest in the same order, each compile followed by a pause as long as itself, so the
 *     warm-up takes at most about half a core while requests are being served.
 * With `firstOnly`, pass 1 alone (a check that the declared parameters are complete).
 * Then the execution warm-up's `runs` (warmup-runs.ts), paced as pass 2.
 * `pace` = false runs pass 2 and the runs back to back too (benchmarks that wait for it).
 * Once `signal` is aborted (the service is stopping), no further plan is compiled, and the one in
 * flight failing because the driver closed is not a failure: nothing is logged for it.
 * Each combination is EXPLAINed as its query's `transactions` entry says (warmUpTransactions; by
 * default ingestion queries twice, in a clean write transaction and after an uncommitted write:
 * ExplainOptions.afterWrite); `plans` counts combinations.
 * `onExplained` is told each plan EXPLAINed (the plan refresher keeps those plans fresh too).
 */
export async function warmUpPlans(
  executor: Executor,
  shapes: WarmUpShapes,
  log: Logger,
  {
    firstOnly = false,
    pace = true,
    signal,
    runs = new Map(),
    transactions = new Map(),
    secondPass = new Set(),
    onExplained,
  }: {
    firstOnly?: boolean;
    pace?: boolean;
    signal?: AbortSignal;
    runs?: WarmUpRuns;
    transactions?: ReadonlyMap<Query, WarmUpTransaction>;
    secondPass?: ReadonlySet<Query>;
    onExplained?: (query: Query, params: Record<string, unknown>, write: boolean, afterWrite: boolean) => void;
  } = {},
): Promise<WarmUpResult> {
  const t0 = Date.now();
  const counters = await readPlanCounters(executor).catch(() => null);
  let plans = 0;
  let failed = 0;
  const compile = async (query: Query, params: Record<string, unknown>) => {
    try {
      for (const { write, afterWrite } of modesOf(transactions, query)) {
        await executor.explain(query, params, write, { afterWrite });
        onExplained?.(query, executor.only(query, params), write, afterWrite);
      }
      plans++;
    } catch (err) {
      if (signal?.aborted) return;
      failed++;
      log.warn('plan warm-up failed', { query, error: err });
    }
  };
  let firstPassMs: number | null = null;
  const stopped = () => {
    const ms = Date.now() - t0;
    log.info('plan warm-up stopped: the service is stopping', { plans, failed, ms });
    return { plans, failed, ms, firstPassMs: firstPassMs ?? ms, compiled: null, counters: null, runs: 0 };
  };
  const compiledNow = async () => {
    const now = await readPlanCounters(executor).catch(() => null);
    return { now, compiled: compiledSince(counters, now)?.plans ?? null };
  };
  for (const [query, params] of firstPassCombinations(shapes, secondPass)) {
    if (signal?.aborted) return stopped();
    await compile(query, params);
  }
  firstPassMs = Date.now() - t0;
  log.info('query plans warmed up for first use', { plans, failed, ms: firstPassMs, compiled: (await compiledNow()).compiled });
  if (!firstOnly) {
    for (const [query, combos] of ordered(shapes)) {
      for (const params of secondPass.has(query) ? combos : shapes.secondPass(query)) {
        if (signal?.aborted) return stopped();
        const started = Date.now();
        await compile(query, params);
        if (pace) await pauseAsLongAs(started);
      }
    }
  }
  const executed = await executeRuns(executor, runs, log, { pace, signal });
  if (signal?.aborted) return stopped();
  const ms = Date.now() - t0;
  const { now, compiled } = await compiledNow();
  log.info('query plans warmed up', { plans, failed, ms, firstPassMs, compiled, runs: executed.runs, runsMs: executed.ms });
  return { plans, failed: failed + executed.failed, ms, firstPassMs, compiled, counters: now, runs: executed.runs };
}

/**
 * `plans`: combinations EXPLAINed; `compiled`: plans Neo4j compiled meanwhile (null where it does
 * not count them); `counters`: Neo4j's counters once done, to count what is compiled after it;
 * `runs`: executions of the execution warm-up; `failed`: EXPLAINs and runs that failed.
 */
export interface WarmUpResult {
  plans: number;
  failed: number;
  ms: number;
  firstPassMs: number;
  compiled: number | null;
  counters: PlanCounters | null;
  runs: number;
}
