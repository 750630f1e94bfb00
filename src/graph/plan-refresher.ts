import type { Logger } from '../log';
import type { Executor } from './executor';
import { pauseAsLongAs } from './pace';
import { Query } from './queries';
import type { Shape, UsedShapes } from './used-shapes';

/**
 * Plan refresher: takes Neo4j's stale-plan replanning off the request path.
 *
 * Neo4j keeps with each cached plan a snapshot of the statistics it was costed with (label and
 * relationship counts, index selectivities) and, on a lookup at least 10 s after the last check,
 * replans it when one of them diverged (|a - b| / max(a, b)) past a threshold that its default
 * algorithm lowers from 0.75 to 0.1 over hours. On a growing graph that is a compile (about a
 * second of a core here) met by whichever request or projection batch uses the plan next:
 * `bench:marquez -- S` counted 27 such replans while reading and 43 while ingesting.
 *
 * With the refresher on, the embedded Neo4j checks a plan at most hourly, with its threshold fixed
 * at 0.95 (no decay: tools/neo4j/Launcher.java, `tributary.replan`), and this class does the
 * replanning instead:
 * every `intervalMs` it reads the same statistics (health/graph-counts.cypher) and re-plans
 * (`CYPHER replan=force EXPLAIN`, which replaces the cached plan and runs nothing) each shape the
 * service has run since it started for which a statistic of the labels and types its
 * own query names (namedBy), of at least MIN_DIVERGENT_COUNT, has diverged past `threshold` (0.75,
 * Neo4j's own default) from the reading it was last planned against: a graph where only runs and
 * events grow replans the statements that read runs, not the lineage expansions over datasets and
 * fields. A shape the warm-up compiled but nothing has run yet is left until its first run: that
 * run uses the plan as it is, and the next check replans it if its statistics moved since the
 * warm-up. Replanning every warmed shape at each refresh cost a growing store's ingestion as much
 * as it cost the shapes in use (126 plans a pass in `bench:marquez`, of which about 30 were run).
 * Except where Neo4j would replan it itself on that first run (`neo4jCheck`: Neo4j, set as the
 * refresher needs, checks a plan an hour after it was planned, at 0.95, that is once a statistic grew twentyfold):
 * such a shape is replanned here from `leadMs` before that hour, once its statistics diverged
 * that far (`bench:marquez -- M` met 7 such replans on the Marquez API's first pages, the store
 * grown from empty since the warm-up an hour before); so is a shape that ran, where a statistic
 * under MIN_DIVERGENT_COUNT is what grew. One at a time, each followed
 * by a pause as long as itself, so a refresh takes at most about half a core. A statement that ran after a write in its
 * transaction is replanned that way too (ExplainOptions.afterWrite: Neo4j caches its plan apart).
 * Neo4j's own check stays as the hourly net for what the refresher does not know of (shapes past
 * UsedShapes' maximum).
 */

/**
 * Statistics by key: `n:<label>`, `r:<start>:<type>:<end>`, and per index `is:` its size and `iu:`
 * its estimated distinct values (the planner's selectivity is their inverse, which diverges alike).
 */
export type Statistics = ReadonlyMap<string, number>;

interface CountsRow {
  nodes: { label?: string; count: number }[];
  relationships: { startLabel?: string; relationshipType?: string; endLabel?: string; count: number }[];
  indexes: { labels?: string[]; relationshipTypes?: string[]; properties?: string[]; totalSize?: number; estimatedUniqueSize?: number }[];
}

export async function readStatistics(executor: Executor): Promise<Statistics> {
  const [row] = await executor.read<CountsRow>(Query.GraphCounts);
  const out = new Map<string, number>();
  for (const n of row?.nodes ?? []) out.set(`n:${n.label ?? ''}`, Number(n.count));
  for (const r of row?.relationships ?? []) out.set(`r:${r.startLabel ?? ''}:${r.relationshipType ?? ''}:${r.endLabel ?? ''}`, Number(r.count));
  for (const i of row?.indexes ?? []) {
    const index = `${[...(i.labels ?? []), ...(i.relationshipTypes ?? [])].join('|')}:${(i.properties ?? []).join('|')}`;
    out.set(`is:${index}`, Number(i.totalSize ?? 0));
    out.set(`iu:${index}`, Number(i.estimatedUniqueSize ?? 0));
  }
  return out;
}

/**
 * The largest divergence between two readings, as Neo4j measures it (|a - b| / max(a, b); 0 where
 * both are 0; a key present on one side only counts as 0 on the other), and its key. Only keys
 * `relevant` says so of count, and only where either reading reaches `minCount`.
 */
export function divergence(before: Statistics, after: Statistics, relevant: (key: string) => boolean = () => true, minCount = 0): { value: number; key: string | null } {
  let value = 0;
  let key: string | null = null;
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(k) ?? 0;
    const b = after.get(k) ?? 0;
    const m = Math.max(a, b);
    if (m < minCount || !relevant(k)) continue;
    const d = m > 0 ? Math.abs(a - b) / m : 0;
    if (d > value) {
      value = d;
      key = k;
    }
  }
  return { value, key };
}

/**
 * Whether a statistic (readStatistics' keys) is of labels and relationship types that `texts` (the
 * service's queries) name: what other applications keep in a shared database, or a benchmark's
 * own labels, changes no plan of Tributary's.
 */
export function namedBy(texts: Iterable<string>): (key: string) => boolean {
  const words = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(m[0]);
  return (key) => {
    const [kind = '', ...rest] = key.split(':');
    const names = kind === 'n' || kind === 'r' ? rest : (rest[0] ?? '').split('|');
    return names.every((n) => n === '' || words.has(n));
  };
}

/**
 * Below this count in both readings a statistic never calls for a refresh: any plan over so few
 * nodes or relationships is cheap, and small counts diverge with every few writes (a label's first
 * nodes, a new relationship type), which would replan every shape for nothing.
 */
export const MIN_DIVERGENT_COUNT = 1_000;

export interface PlanRefresherOptions {
  intervalMs: number;
  /** Divergence past which a used shape is re-planned. */
  threshold: number;
  /**
   * The query texts: a shape's plan is checked against the statistics of the labels and types its
   * own text names (namedBy). Absent: against every statistic.
   */
  texts?: Readonly<Partial<Record<Query, string>>>;
  /** Statistics below this count in both readings are left out (MIN_DIVERGENT_COUNT in the service); 0 when absent. */
  minCount?: number;
  /** Told each plan the refresher compiled (tributary_plans_refreshed_total). */
  onRefreshed?: () => void;
  /**
   * Neo4j's own staleness check, where it is known (NEO4J_OWN_CHECK): any shape, run or not, is
   * replanned from `afterMs - leadMs` after it was planned once a statistic its query names
   * diverged past `threshold` (no floor: Neo4j has none), as Neo4j would on its next use. Absent:
   * shapes not run wait for their first run, and statistics under `minCount` are Neo4j's to check.
   */
  neo4jCheck?: { afterMs: number; threshold: number; leadMs: number };
  /** The clock (milliseconds), for tests. */
  now?: () => number;
}

/**
 * Neo4j's own check of its cached plans as the refresher needs it set (the embedded Neo4j's
 * tools/neo4j/Launcher.java, docker-compose.yml, README for a server of one's own:
 * `dbms.cypher.min_replan_interval` one hour, `dbms.cypher.statistics_divergence_threshold` 0.95),
 * and how long before it the refresher takes over a shape that has not run (a quarter of an hour:
 * well past a check's interval and a pass's length).
 */
export const NEO4J_OWN_CHECK = { afterMs: 3_600_000, threshold: 0.95, leadMs: 900_000 } as const;

export class PlanRefresher {
  private timer?: NodeJS.Timeout;
  /** The previous check's reading: a shape first met since is taken as planned against it. */
  private latest: Statistics | null = null;
  /**
   * Each shape (by UsedShapes key): the reading it was last planned against, and when, as far as
   * the refresher knows (first seen, or replanned).
   */
  private readonly planned = new Map<string, { at: Statistics; time: number }>();
  /** Which statistics count for a query: those its text names. */
  private readonly relevance = new Map<Query, (key: string) => boolean>();
  private busy: Promise<void> | null = null;
  private stopped = false;
  /** Refresh passes run, plans re-planned, and EXPLAINs that failed. */
  readonly counts = { refreshes: 0, plans: 0, failed: 0 };

  constructor(
    private readonly executor: Executor,
    /** What it replans: the shapes the executor ran (those the warm-up only compiled wait for their first run). */
    readonly shapes: UsedShapes,
    private readonly log: Logger,
    private readonly options: PlanRefresherOptions,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.check(), this.options.intervalMs);
    this.timer.unref();
  }

  /**
   * No checks until `resume` (a refresh in flight runs to its end first): for a bulk load or a
   * measurement that should not share Neo4j with replanning. Checks made by calling `check` still run.
   */
  async pause(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.busy;
  }

  resume(): void {
    this.start();
  }

  /** Stops the timer; a refresh in flight ends after its current EXPLAIN. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.busy;
  }

  /**
   * One check: the first reading becomes the baseline; then the shapes that ran whose own
   * statistics diverged past `threshold` since they were planned are re-planned, and with
   * `neo4jCheck` any that Neo4j's own check would soon replan on its next use, each taking this reading
   * as its new baseline once done. Never rejects; a check while one runs is skipped. Resolves with
   * what it did ('failed': a pass cut short, its shapes left are tried again at the next check).
   */
  check(): Promise<'baseline' | 'fresh' | 'refreshed' | 'busy' | 'failed'> {
    if (this.busy || this.stopped) return Promise.resolve('busy');
    let outcome: 'baseline' | 'fresh' | 'refreshed' | 'failed' = 'fresh';
    const run = async () => {
      try {
        const now = await readStatistics(this.executor);
        const previous = this.latest;
        this.latest = now;
        if (!previous) {
          outcome = 'baseline';
          return;
        }
        const shapes = this.shapes.keyed();
        const time = this.clock();
        for (const [key] of shapes) if (!this.planned.has(key)) this.planned.set(key, { at: previous, time });
        const ran = shapes.filter(([key]) => this.shapes.hasRun(key));
        const at = (key: string) => this.planned.get(key)!.at;
        const stale = staleShapes(ran, at, now, (q) => this.relevantTo(q), this.options);
        const check = this.options.neo4jCheck;
        if (check) {
          const replanning = new Set(stale.map((s) => s.key));
          const due = shapes.filter(([key]) => !replanning.has(key) && time - this.planned.get(key)!.time >= check.afterMs - check.leadMs);
          stale.push(...staleShapes(due, at, now, (q) => this.relevantTo(q), { threshold: check.threshold }));
        }
        if (stale.length === 0) return;
        outcome = (await this.refresh(stale, now)) ? 'refreshed' : 'failed';
      } catch (err) {
        outcome = 'failed';
        if (!this.stopped) this.log.warn('plan refresh check failed', { error: err });
      }
    };
    const busy = run().finally(() => {
      this.busy = null;
    });
    this.busy = busy;
    return busy.then(() => outcome);
  }

  private clock(): number {
    return this.options.now?.() ?? Date.now();
  }

  private relevantTo(query: Query): ((key: string) => boolean) | undefined {
    const text = this.options.texts?.[query];
    if (text === undefined) return undefined;
    let relevant = this.relevance.get(query);
    if (!relevant) this.relevance.set(query, (relevant = namedBy([text])));
    return relevant;
  }

  /**
   * One pass over the stale shapes. Resolves false when it was cut short: stopped, or the graph
   * database went down (liveness), where every further EXPLAIN would only fail and log.
   */
  private async refresh(stale: Stale[], now: Statistics): Promise<boolean> {
    const t0 = Date.now();
    let plans = 0;
    let failed = 0;
    for (const { key, shape } of stale) {
      if (this.stopped) break;
      const started = Date.now();
      try {
        await this.executor.explain(shape.query, shape.params, shape.write, { force: true, afterWrite: shape.afterWrite });
        plans++;
        this.planned.set(key, { at: now, time: this.clock() });
        this.options.onRefreshed?.();
      } catch (err) {
        if (this.stopped) break;
        if (!this.executor.up()) {
          this.log.warn('plan refresh stopped: the graph database is unavailable; the next check tries again', { plans, error: err });
          this.counts.plans += plans;
          this.counts.failed += failed;
          return false;
        }
        failed++;
        // Planned against this reading all the same: a shape that fails to EXPLAIN is not retried at every check.
        this.planned.set(key, { at: now, time: this.clock() });
        this.log.warn('plan refresh failed', { query: shape.query, error: err });
      }
      await pauseAsLongAs(started);
    }
    this.counts.refreshes++;
    this.counts.plans += plans;
    this.counts.failed += failed;
    const worst = stale.reduce((a, b) => (b.value > a.value ? b : a));
    this.log.info('query plans refreshed: the graph statistics changed', {
      statistic: worst.statistic,
      divergence: Math.round(worst.value * 100) / 100,
      plans,
      failed,
      of: this.shapes.size,
      dropped: this.shapes.dropped,
      ms: Date.now() - t0,
    });
    return !this.stopped;
  }
}

/**
 * The shapes whose plan is stale: a statistic relevant to the shape's query (all, where
 * `relevantTo` gives none), of at least `minCount` in either reading, diverged past `threshold`
 * between the reading it was planned against and `now`.
 */
export function staleShapes(
  shapes: [string, Shape][],
  plannedAt: (key: string) => Statistics,
  now: Statistics,
  relevantTo: (query: Query) => ((key: string) => boolean) | undefined,
  limits: { threshold: number; minCount?: number },
): Stale[] {
  const stale: Stale[] = [];
  for (const [key, shape] of shapes) {
    const d = divergence(plannedAt(key), now, relevantTo(shape.query), limits.minCount);
    if (d.value > limits.threshold) stale.push({ key, shape, value: d.value, statistic: d.key });
  }
  return stale;
}

/** A shape found stale, with its key and the statistic that diverged most. */
export interface Stale {
  key: string;
  shape: Shape;
  value: number;
  /** That statistic (readStatistics' key). */
  statistic: string | null;
}
