import { PerformanceObserver } from 'node:perf_hooks';
import { processCpuMs } from '../src/graph/embedded/cpu';
import { jvmThreadCpuMs, type JvmThreadGroup } from './processes';

/**
 * Ingestion in interleaved rounds (`npm run bench -- S --ingest-only --rounds N`): after the first
 * pair of clocks, N more, each side on a fresh stream of the same size with names of its own, the
 * order alternating (the lower bound first in odd rounds), so that neither side is always the one
 * that runs on the younger JVM. On this machine the JVM is still compiling Neo4j's write paths for
 * tens of thousands of events after a start, and whichever side runs first pays most of it: the
 * rounds show the ratio as the process ages, and the last round is the steady state.
 */

export type Events = Record<string, unknown>[];

/** What one clock cost: wall seconds, CPU seconds of each process, Neo4j's CPU ms by thread group. */
export interface Clock {
  seconds: number;
  neo4j: number;
  node: number;
  threads: Record<JvmThreadGroup, number> | null;
  /** Seconds spent before the clock waiting for Neo4j to go quiet (see untilQuiet). */
  quietWait: number;
  /** Milliseconds this process spent in garbage collection meanwhile (the bench client's data included). */
  gcMs: number;
}

/** This process's garbage collection so far (ms), from the start of the first clock. */
let gcTotalMs = 0;
let gcObserver: PerformanceObserver | null = null;
function gcMs(): number {
  if (!gcObserver) {
    gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcTotalMs += e.duration;
    });
    gcObserver.observe({ entryTypes: ['gc'] });
  }
  return gcTotalMs;
}

export interface Round {
  round: number;
  boundFirst: boolean;
  events: number;
  tributary: Clock;
  bound: Clock;
}

/** This process's CPU seconds and the Neo4j process's (0 without a local one). */
export function cpuSeconds(neo4jPid: number | undefined): { node: number; neo4j: number } {
  const u = process.cpuUsage();
  return { node: (u.user + u.system) / 1e6, neo4j: neo4jPid ? (processCpuMs(neo4jPid) ?? NaN) / 1000 : 0 };
}

/**
 * Waits until the Neo4j process uses under a tenth of a core over half a second (its JIT queue and
 * collections from what ran before have drained), at most `maxMs`; the seconds waited.
 */
export async function untilQuiet(neo4jPid: number | undefined, maxMs = 30_000): Promise<number> {
  if (!neo4jPid) return 0;
  const started = Date.now();
  for (;;) {
    const a = processCpuMs(neo4jPid);
    await new Promise((r) => setTimeout(r, 500));
    const b = processCpuMs(neo4jPid);
    if (a === null || b === null || b - a < 50 || Date.now() - started >= maxMs) return (Date.now() - started) / 1000;
  }
}

/** Runs `work` on a clock, after Neo4j went quiet, reading both processes' CPU around it. */
export async function clock(neo4jPid: number | undefined, work: () => Promise<void>): Promise<Clock> {
  const quietWait = await untilQuiet(neo4jPid);
  const gc0 = gcMs();
  const cpu0 = cpuSeconds(neo4jPid);
  const th0 = neo4jPid ? jvmThreadCpuMs(neo4jPid) : null;
  const t = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  const cpu1 = cpuSeconds(neo4jPid);
  const th1 = neo4jPid ? jvmThreadCpuMs(neo4jPid) : null;
  const threads = th0 && th1 ? ({ queries: th1.queries - th0.queries, jit: th1.jit - th0.jit, gc: th1.gc - th0.gc, other: th1.other - th0.other } as const) : null;
  // GC entries arrive asynchronously: let the last ones in before reading.
  await new Promise((r) => setImmediate(r));
  return { seconds, neo4j: cpu1.neo4j - cpu0.neo4j, node: cpu1.node - cpu0.node, threads, quietWait, gcMs: gcMs() - gc0 };
}

export interface RoundsOptions {
  rounds: number;
  neo4jPid: number | undefined;
  /** A fresh stream for one side of one round (names of its own). */
  stream: (round: number, side: 'tributary' | 'bound') => Events;
  tributary: (events: Events) => () => Promise<void>;
  bound: (events: Events) => () => Promise<void>;
  /** Before each clock: the plan refresher run to its end (see run.ts settleRefresher). */
  settle: () => Promise<void>;
  /** Around the lower bound's clock: the refresher paused, so that its replans stay out of it. */
  pause: () => Promise<void>;
  resume: () => void;
}

export async function ingestRounds(o: RoundsOptions): Promise<Round[]> {
  const out: Round[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    const boundFirst = round % 2 === 1;
    const tribEvents = o.stream(round, 'tributary');
    const boundEvents = o.stream(round, 'bound');
    const runTributary = async () => {
      await o.settle();
      return clock(o.neo4jPid, o.tributary(tribEvents));
    };
    const runBound = async () => {
      await o.settle();
      await o.pause();
      try {
        return await clock(o.neo4jPid, o.bound(boundEvents));
      } finally {
        o.resume();
      }
    };
    let tributary: Clock;
    let bound: Clock;
    if (boundFirst) {
      bound = await runBound();
      tributary = await runTributary();
    } else {
      tributary = await runTributary();
      bound = await runBound();
    }
    out.push({ round, boundFirst, events: tribEvents.length, tributary, bound });
  }
  return out;
}

/** The rounds as a markdown table (per 1000 events: CPU seconds; query work = Bolt threads). */
export function roundsTable(first: Round, rounds: Round[]): string[] {
  const per1k = (secs: number, n: number) => ((secs / n) * 1000).toFixed(2);
  const q = (c: Clock, n: number) => (c.threads ? per1k(c.threads.queries / 1000, n) : '–');
  const jit = (c: Clock, n: number) => (c.threads ? per1k(c.threads.jit / 1000, n) : '–');
  const qRatio = (r: Round) => (r.tributary.threads && r.bound.threads ? (r.tributary.threads.queries / r.bound.threads.queries).toFixed(2) : '–');
  const lines = [
    '| round | order | Tributary events/s | lower bound events/s | ratio | Neo4j CPU s/1000 events (Tributary / bound) | query work (Bolt threads) | ratio of query work | JIT | Node.js (of which GC) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of [first, ...rounds]) {
    const n = r.events;
    lines.push(
      `| ${r.round === 0 ? '0 (the table above)' : r.round} | ${r.boundFirst ? 'bound, then Tributary' : 'Tributary, then bound'} | ${Math.round(n / r.tributary.seconds)} | ${Math.round(n / r.bound.seconds)} | **${(r.bound.seconds / r.tributary.seconds).toFixed(2)}** | ${per1k(r.tributary.neo4j, n)} / ${per1k(r.bound.neo4j, n)} | ${q(r.tributary, n)} / ${q(r.bound, n)} | ${qRatio(r)} | ${jit(r.tributary, n)} / ${jit(r.bound, n)} | ${per1k(r.tributary.node, n)} (${per1k(r.tributary.gcMs / 1000, n)}) / ${per1k(r.bound.node, n)} (${per1k(r.bound.gcMs / 1000, n)}) |`,
    );
  }
  return lines;
}
