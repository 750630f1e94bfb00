import type { Logger } from '../log';
import { pauseAsLongAs } from './pace';
import type { Executor } from './executor';
import { Query, type QueryTexts } from './queries';
import type { WarmUpShapes } from './warmup';

/**
 * Execution warm-up. A compiled plan is not yet fast code: the first few hundred executions of a
 * path the JVM has not run since it started (Lucene's full-text search, above all) are interpreted
 * and JIT-compiled on the request path. Measured on the S store right after a start, the first 200
 * Marquez searches took 7.5 ms p50 and ~10 ms of Neo4j CPU each, against 1.8 ms once warm.
 * The runs cost CPU at every start (issue 28: a warm-up under 30 s), so they stay few: 300 prefix
 * searches cost the embedded Neo4j 8-14 s of CPU and brought the first 100 searches after them to
 * 9.2 ms p50 (11.1 with none); 50 give 9.5 ms for about 1.5 s (S bench store, 2026-12-05, one start each).
 *
 * A read query may declare, below its `// Warm-up:` line,
 *   // Warm-up runs: {"times": 200, "query": ["+a*", "+s*"]}
 * : `times` executions (at most MAX_TIMES) cycling through the Warm-up line's combinations, each
 * other key a parameter whose values are taken in turn instead (real prefixes rather than a
 * placeholder that matches nothing, which would leave the scoring and collecting paths cold).
 * Runs go through `Executor.read` (a read transaction: Neo4j refuses a write in one), their rows
 * discarded, and stop at a query's BUDGET_MS however large the store (a prefix's hits grow with it).
 */

export type WarmUpRuns = ReadonlyMap<Query, Record<string, unknown>[]>;

const MAX_TIMES = 1000;
const BUDGET_MS = 5000;
const PREFIX = '// Warm-up runs:';

/** The executions declared by `// Warm-up runs:` lines. Throws, naming the file, on a bad line. */
export function warmUpRuns(texts: QueryTexts, shapes: WarmUpShapes): WarmUpRuns {
  const out = new Map<Query, Record<string, unknown>[]>();
  for (const query of Object.values(Query)) {
    const line = texts[query].split('\n').find((l) => l.startsWith(PREFIX));
    if (!line) continue;
    const fail = (why: string) => new Error(`${query}.cypher: ${why}`);
    let spec: unknown;
    try {
      spec = JSON.parse(line.slice(PREFIX.length));
    } catch {
      throw fail('the Warm-up runs line is not JSON');
    }
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw fail('Warm-up runs must be an object with "times"');
    const { times, ...values } = spec as Record<string, unknown>;
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > MAX_TIMES) throw fail(`Warm-up runs: "times" must be an integer from 1 to ${MAX_TIMES}`);
    const combos = shapes.get(query);
    if (!combos?.length) throw fail('Warm-up runs needs a Warm-up line (the parameters to run with)');
    for (const [param, list] of Object.entries(values)) {
      if (!Array.isArray(list) || list.length === 0) throw fail(`Warm-up runs: "${param}" must be a non-empty list of values`);
      if (!(param in combos[0]!)) throw fail(`Warm-up runs: "${param}" is not a parameter of the Warm-up line`);
    }
    const lists = Object.entries(values) as [string, unknown[]][];
    out.set(
      query,
      Array.from({ length: times }, (_, i) => ({ ...combos[i % combos.length]!, ...Object.fromEntries(lists.map(([p, vs]) => [p, vs[i % vs.length]])) })),
    );
  }
  return out;
}

/**
 * Executes the declared runs, query after query; `pace` pauses as long as each run took (at most
 * about half a core while requests are served). Resolves with counts, never rejects: a failed run
 * is logged once per query and ends that query's runs.
 */
export async function executeRuns(executor: Executor, runs: WarmUpRuns, log: Logger, { pace, signal }: { pace: boolean; signal?: AbortSignal }): Promise<{ runs: number; failed: number; ms: number }> {
  const t0 = Date.now();
  let done = 0;
  let failed = 0;
  for (const [query, list] of runs) {
    const started = Date.now();
    for (const params of list) {
      if (signal?.aborted) return { runs: done, failed, ms: Date.now() - t0 };
      if (Date.now() - started > BUDGET_MS) break;
      const one = Date.now();
      try {
        await executor.read(query, params);
        done++;
      } catch (err) {
        if (signal?.aborted) return { runs: done, failed, ms: Date.now() - t0 };
        failed++;
        log.warn('execution warm-up failed', { query, error: err });
        break;
      }
      if (pace) await pauseAsLongAs(one);
    }
  }
  return { runs: done, failed, ms: Date.now() - t0 };
}
