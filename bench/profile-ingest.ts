import fs from 'node:fs';
import path from 'node:path';
import { createCore } from '../src/app';
import { startEmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { loadConfig } from '../src/config';
import type { TxRunner } from '../src/graph/executor';
import type { Driver } from 'neo4j-driver';
import { toPlain } from '../src/graph/mappers';
import { loadQueries, Query } from '../src/graph/queries';
import { compactPlan, type CompactPlan } from '../src/ingest/compact';
import { writePlan } from '../src/ingest/write-plan';
import { planEvent } from '../src/ingest/plan';
import { emptyPlan } from '../src/ingest/plan-rows';
import { storedEventRow, type StoredEventRow } from '../src/ingest/stored-event';
import { validateEvent } from '../src/ingest/validate';
import { createLogger } from '../src/log';
import { bareSchema, bareWrite } from './bare-loader';
import { generate, SIZES } from './generator';

/**
 * Where ingestion time goes: after a warm-up of both paths on a disjoint stream (1000 events), the
 * first `events` of the size-S stream, in batches of `batch`, one
 * writer, each query awaited on its own (no pipelining) and timed; then the bare loader on the same
 * batches, timed the same way. Prints per-query totals, first call and median (ms) for both.
 * Uses a throwaway embedded Neo4j (its own store, recreated) unless NEO4J_URI is set; with
 * NEO4J_URI, use an empty database: the figures only mean something for first-time writes.
 * Usage: node dist/bench/profile-ingest.js [events=2000] [batch=100] [size=S] [jobs]
 * A size with a history (XL: 24 runs per job) is sent in event-time order, as it would arrive, so
 * that later batches meet jobs whose earlier runs are in the graph; `jobs` shrinks it.
 */
async function main() {
  const total = Number(process.argv[2] ?? 2000);
  const batch = Number(process.argv[3] ?? 100);
  let config = loadConfig();
  const log = createLogger('warn');
  const home = path.join(config.embedded.home, 'bench-profile');
  fs.rmSync(home, { recursive: true, force: true });
  const neo4j = config.neo4j ? null : await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '4g', pageCache: '4g' }, log);
  if (neo4j) config = { ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } };
  const core = await createCore(config, log);
  if (process.env.PROFILE_DROP) {
    const sess = core.driver.session();
    for (const n of process.env.PROFILE_DROP.split(',')) await sess.run(`DROP INDEX ${n}`);
    await sess.close();
  }
  const times = new Map<string, number[]>();
  const add = (k: string, ms: number) => times.set(k, [...(times.get(k) ?? []), ms]);
  const clock = async <T>(k: string, work: () => Promise<T>): Promise<T> => {
    const t = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      add(k, Number(process.hrtime.bigint() - t) / 1e6);
    }
  };
  const tributary = async (batches: Batch[]) => {
    for (const b of batches) {
      await clock('(transaction)', () =>
        core.executor.writeTx('ingest', (tx) => clock('(work before commit)', async () => {
          let chain: Promise<unknown> = Promise.resolve();
          const timedTx: TxRunner = {
            run: <Row>(q: Query, p?: Record<string, unknown>) => {
              const next = chain.then(() => clock(q, () => tx.run<Row>(q, p)));
              chain = next.catch(() => undefined);
              return next;
            },
          };
          await timedTx.run(Query.StoreEvents, { events: b.stored, token: 'profile', receivedAt: new Date().toISOString() });
          await writePlan(timedTx, b.plan);
        })),
      );
    }
  };
  const bare = async (batches: Batch[]) => {
    for (const b of batches) await clock('(transaction)', () => bareWrite(core.driver, b.plan, b.stored.map((s) => ({ id: s.id, raw: s.raw })), add));
  };
  await bareSchema(core.driver);
  // Warm-up (JIT of both JVM and Node.js, plan caches): both paths on a stream sharing no names.
  const warm = batchesOf(generate({ ...SIZES.S!, seed: 7, nameOffset: 1_000_000 }).events.slice(0, 1000), batch);
  await tributary(warm);
  await bare(warm);
  times.clear();
  const size = SIZES[(process.argv[4] ?? 'S').toUpperCase()];
  if (!size) throw new Error(`size must be one of ${Object.keys(SIZES).join(', ')}`);
  const spec = { ...size, jobs: process.argv[5] ? Number(process.argv[5]) : size.jobs, seed: 42 };
  const stream = generate(spec).events;
  if (spec.runsPerJob > 2) stream.sort((a, b) => String(a.eventTime).localeCompare(String(b.eventTime)));
  const events = stream.slice(0, total);
  const batches = batchesOf(events, batch);
  const t0 = Date.now();
  await tributary(batches);
  const tributaryMs = Date.now() - t0;
  if (process.env.PROFILE_PLANS) await profileNext(core.driver, events.length, batch);
  const tribTimes = new Map(times);
  times.clear();
  const t1 = Date.now();
  await bare(batches);
  const bareMs = Date.now() - t1;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (m: Map<string, number[]>) =>
    [...m].sort((a, b) => sum(b[1]) - sum(a[1])).map(([k, v]) => `| ${k} | ${sum(v).toFixed(0)} | ${v[0]!.toFixed(0)} | ${median(v).toFixed(1)} |`);
  process.stdout.write(
    [
      `${events.length} events, batches of ${batch}, one writer, queries not pipelined`,
      '',
      `Tributary: ${tributaryMs} ms (${Math.round((events.length / tributaryMs) * 1000)} events/s)`,
      '| query | total ms | first call ms | median ms |', '|---|---|---|---|', ...row(tribTimes), '',
      `bare loader: ${bareMs} ms (${Math.round((events.length / bareMs) * 1000)} events/s)`,
      '| query | total ms | first call ms | median ms |', '|---|---|---|---|', ...row(times), '',
    ].join('\n'),
  );
  await core.close();
  await neo4j?.stop();
}

type Batch = { plan: CompactPlan; stored: StoredEventRow[] };

function batchesOf(events: Record<string, unknown>[], size: number): Batch[] {
  const out: Batch[] = [];
  for (let i = 0; i < events.length; i += size) {
    const plan = emptyPlan();
    const stored = events.slice(i, i + size).map((e) => {
      const v = validateEvent(e);
      planEvent(plan, v);
      return storedEventRow(v, JSON.stringify(e), e);
    });
    out.push({ plan: compactPlan(plan), stored });
  }
  return out;
}

/** PROFILEs each ingest query on the next batch of the stream, in a transaction rolled back. */
async function profileNext(driver: Driver, from: number, batch: number) {
  const texts = loadQueries();
  const chunk = generate({ ...SIZES.S!, seed: 42 }).events.slice(from, from + batch);
  const plan = emptyPlan();
  for (const e of chunk) planEvent(plan, validateEvent(e));
  const session = driver.session();
  const tx = session.beginTransaction();
  const profiled: TxRunner = {
    run: async <Row>(q: Query, p?: Record<string, unknown>) => {
      const r = await tx.run(`PROFILE ${texts[q]}`, p);
      const lines: string[] = [];
      const walk = (op: { operatorType: string; dbHits: number; rows: number; arguments: Record<string, unknown>; children: unknown[] }, depth: number) => {
        lines.push(`${'  '.repeat(depth)}${op.operatorType} hits=${op.dbHits} rows=${op.rows} ${String(op.arguments.Details ?? '').slice(0, 120)}`);
        op.children.forEach((c) => walk(c as typeof op, depth + 1));
      };
      if (r.summary.profile) walk(r.summary.profile as never, 1);
      process.stdout.write(`${q}\n${lines.join('\n')}\n`);
      return r.records.map((x) => toPlain(x.toObject()) as Row);
    },
  };
  await writePlan(profiled, compactPlan(plan));
  await tx.rollback();
  await session.close();
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
