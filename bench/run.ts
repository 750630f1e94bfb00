import fs from 'node:fs';
import http from 'node:http';
import { send } from './http-client';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Driver } from 'neo4j-driver';
import { createApp } from '../src/app';
import { compiledSince, readPlanCounters } from '../src/graph/plan-cache';
import { loadConfig } from '../src/config';
import { createDriver } from '../src/graph/driver';
import { directoryBytes, startEmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { compactPlan } from '../src/ingest/compact';
import { planEvent } from '../src/ingest/plan';
import { emptyPlan } from '../src/ingest/plan-rows';
import { storedEventRow } from '../src/ingest/stored-event';
import { validateEvent } from '../src/ingest/validate';
import { createLogger } from '../src/log';
import { bareSchema, bareWrite } from './bare-loader';
import { Metrics } from '../src/metrics';
import { Ingestor } from '../src/ingest/ingestor';
import { ProjectionWriter } from '../src/ingest/writer';
import { generate, SIZES, stream, type Output } from './generator';
import { neo4jMemory } from '../src/graph/embedded/sizing';
import { rssMiB, type JvmThreadGroup } from './processes';
import { clock, ingestRounds, roundsTable } from './rounds';
import { replicaLag } from './replica-lag';
import { KAFKA_BATCH, timedKafka } from './kafka-clock';
import { measureCases, queryCases } from './query-cases';

/**
 * `npm run bench -- [S|M|L]`: generates a lineage stream of that size, then in one run measures
 *  - ingestion through the HTTP batch endpoint (4 concurrent clients), and the lower bound: the
 *    same graph written by a bare UNWIND loader (bare-loader.ts) with the same constraints, both
 *    after a warm-up on a disjoint stream (and the plan refresher's replanning of what it made
 *    stale); each path's CPU, Neo4j's by thread (queries, JIT, GC), and the plans compiled meanwhile;
 *  - queries over GraphQL/HTTP (p50, p95, p99 over many start nodes) and, for lineage, the same
 *    traversal through the bare Cypher (the service's expansion queries on the driver alone);
 *  - memory: this process's RSS and Neo4j's heap (JMX) and page cache setting.
 *  - with --kafka: the Kafka worker on a fresh stream of the same size (its own names) through a
 *    local KRaft broker (4 partitions, keyed by run id), timed from the first poll to the last
 *    offset committed; producing is not timed.
 *  - with --ingest-only: the ingestion tables only, printed (no report written; no replica lag),
 *    and --rounds N (default 3) more pairs of clocks on fresh streams, the order alternating
 *    (rounds.ts): the ratio as the JVM ages, the last round being the steady state.
 *  - with --scale-out: the same with 1, 2 and 4 Kafka workers in one group, each with its own
 *    projection writer (as separate processes have), over one Neo4j (issue 27): a fresh stream of
 *    the same size each time; the ratio of each to one worker, and the lock conflicts retried.
 * Prints markdown tables and a one-line summary, and writes them to bench/REPORT-<size>.md.
 * Uses a throwaway embedded Neo4j (its own store, recreated) unless NEO4J_URI is set.
 */
async function main() {
  const args = process.argv.slice(2);
  const size = (args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--jobs' && args[i - 1] !== '--rounds') ?? 'S').toUpperCase();
  // XL is streamed: generated while it is sent, never held (its JSON is several GB); its lower bound
  // would need a second copy of a store of tens of GB, so it is measured on S and M only.
  const streamed = size === 'XL';
  // --reuse: the query phase again on the store a previous run of this size left (its ingestion
  // figures are that run's, from loaded.json), after a change to the queries: XL takes an hour to load.
  const reuse = args.includes('--reuse');
  const withLowerBound = !args.includes('--no-lower-bound') && !streamed && !reuse;
  const withKafka = args.includes('--kafka') && !reuse;
  const withScaleOut = args.includes('--scale-out') && !reuse;
  // --ingest-only: the ingestion tables only (batch endpoint, lower bound, --kafka), printed, no
  // report written: for trying a change to the projection in a minute or two.
  const ingestOnly = args.includes('--ingest-only') && !reuse;
  // --rounds N (default 3, with --ingest-only only: they add streams the query phase would see).
  const roundsArg = args.indexOf('--rounds');
  const roundsWanted = ingestOnly ? (roundsArg >= 0 ? Number(args[roundsArg + 1]) : 3) : 0;
  if (!Number.isInteger(roundsWanted) || roundsWanted < 0 || roundsWanted > 20) throw new Error('--rounds N: a whole number from 0 to 20');
  if (roundsArg >= 0 && !ingestOnly) throw new Error('--rounds goes with --ingest-only (its streams would change the graph the query phase measures)');
  // --jobs N: the size's shape with fewer (or more) jobs, for a trial run; the report says so.
  const jobsArg = args.indexOf('--jobs');
  const spec = SIZES[size] && jobsArg >= 0 ? { ...SIZES[size], jobs: Number(args[jobsArg + 1]) } : SIZES[size];
  if (!spec || !(spec.jobs > 0)) throw new Error(`size must be one of ${Object.keys(SIZES).join(', ')} (--jobs N: a positive number)`);
  let config = loadConfig();
  const log = createLogger('warn');
  const home = path.join(config.embedded.home, `bench-${size}`);
  const loadedFile = path.join(home, 'loaded.json');
  const reused: Loaded | null = reuse && fs.existsSync(loadedFile) ? (JSON.parse(fs.readFileSync(loadedFile, 'utf8')) as Loaded) : null;
  if (reuse && !reused) throw new Error(`--reuse: no store of a finished run at ${home}`);
  if (!reused) fs.rmSync(home, { recursive: true, force: true });
  // The page cache holds the whole store up to M; L's store (~20 GB) gets what the machine can spare.
  // XL runs on what `npm start` would choose on this machine (src/graph/embedded/sizing.ts), so that
  // its memory figures are the default's.
  const sized = neo4jMemory(os.totalmem());
  const heap = streamed ? sized.heap : '4g';
  const pageCache = streamed ? sized.pageCache : size === 'L' ? '10g' : '4g';
  const neo4j = config.neo4j ? null : await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap, pageCache }, log);
  if (neo4j) config = { ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } };
  const app = await createApp({ ...config, ingest: { ...config.ingest, spoolDir: path.join(home, 'spool') }, graphql: { ...config.graphql, maxDepth: 30, maxComplexity: 1_000_000 } }, log);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const lines: string[] = [];
  const out = (s = '') => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
  };

  const driver = createDriver(config.neo4j!);
  const memory = new MemorySampler(driver, neo4j?.pid);
  const t0 = Date.now();
  const outputs: Output[] = reused ? reused.outputs : [];
  // Held in memory (S, M, L), or generated while it is sent (XL): then these are measured on the way.
  const generated = streamed || reused ? { events: [] as Record<string, unknown>[], outputs } : generate({ ...spec, seed: 42 }, outputs);
  const seen = { events: 0, bytes: 0, times: [] as string[] };
  const count = (e: Record<string, unknown>, text: string) => {
    seen.events++;
    seen.bytes += text.length;
    seen.times.push((e as { eventTime: string }).eventTime);
  };
  const expected = spec.jobs * spec.runsPerJob * 2;
  // Request bodies are encoded before the clock starts (S, M), as the lower bound's plans are built
  // before its own: a client's JSON encoding is not the service's work, and this process runs both.
  // L and XL encode while sending (held whole, their JSON would take gigabytes more).
  const encodeFirst = !streamed && expected <= 100_000;
  const bodies = (events: Iterable<Record<string, unknown>>, onEvent?: typeof count): Iterable<Body> => (encodeFirst ? [...bodiesOf(events, onEvent)] : bodiesOf(events, onEvent));
  const source = bodies(streamed ? stream({ ...spec, seed: 42 }, outputs) : generated.events, count);
  out(`# Tributary benchmark, size ${size}${jobsArg >= 0 ? ` with ${spec.jobs} jobs (a trial: --jobs)` : ''}`);
  out();
  out(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}; Neo4j 5.26 (embedded, heap ${heap}, page cache ${pageCache}${streamed ? ': the machine-sized default' : ''}); ${new Date().toISOString()}`);
  out(streamed ? `Stream: ${spec.jobs} jobs, ${expected} events, generated while sent (seed 42)` : `Stream: ${spec.jobs} jobs, ${expected} events, generated in ${Date.now() - t0} ms (seed 42)`);
  out();

  // --- ingestion -----------------------------------------------------------------------------
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const port = (app.server.server.address() as AddressInfo).port;
  // As an OpenLineage client does: a 503 (the projection more than TRIBUTARY_SPOOL_MAX_MB behind,
  // which XL's stream reaches) is retried after its Retry-After; the time spent waiting counts.
  let refused = 0;
  const post = async (text: string) => {
    for (;;) {
      const res = await send(agent, port, 'POST', '/api/v1/lineage/batch', text);
      if (res.status === 200) return;
      if (res.status !== 503) throw new Error(`batch: ${res.status} ${res.text}`);
      refused++;
      await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 5) * 1000));
    }
  };
  await bareSchema(driver);
  /**
   * A check of the plan refresher now, and the refresh it starts (or one already running) to its
   * end; the plans it replanned meanwhile are counted for the report (`settled`).
   */
  /** Plans Neo4j compiled so far and those the refresher replanned: read around each clock. */
  const planReading = async () => ({ counters: await readPlanCounters(app.executor), refreshed: await plansRefreshed(app.metrics) });
  const settled: { before: string; plans: number }[] = [];
  const settleRefresher = async (before: string) => {
    const from = await plansRefreshed(app.metrics);
    while ((await app.refresher?.check()) === 'busy') await new Promise((r) => setTimeout(r, 500));
    settled.push({ before, plans: (await plansRefreshed(app.metrics)) - from });
  };
  /** The settled counts, those of the rounds' clocks summed. */
  const settledText = () => {
    const byClock = new Map<string, { plans: number; clocks: number }>();
    for (const x of settled) {
      const c = byClock.get(x.before) ?? { plans: 0, clocks: 0 };
      byClock.set(x.before, { plans: c.plans + x.plans, clocks: c.clocks + 1 });
    }
    return [...byClock].map(([before, c]) => `${c.plans} before ${c.clocks > 1 ? `${c.clocks} of ${before}s` : before}`).join(', ');
  };
  const viaHttp = (source: Iterable<Body>, total: number) => async () => {
    const it = source[Symbol.iterator]();
    let done = 0;
    const t = Date.now();
    // Progress on stderr every 30 s (rate so far), for the long runs.
    const progress = setInterval(() => process.stderr.write(`ingest: ${done} of ${total} events, ${Math.round(done / ((Date.now() - t) / 1000))} events/s, projection ${Math.round(app.projector.lagMs() / 1000)} s behind\n`), 30_000);
    try {
      await Promise.all(Array.from({ length: 4 }, async () => {
        for (let r = it.next(); !r.done; r = it.next()) {
          await post(r.value.text);
          done += r.value.events;
        }
      }));
      // HTTP acknowledges once stored: the measurement ends when the graph shows every event.
      while (app.projector.lagMs() > 0) await new Promise((r) => setTimeout(r, 20));
    } finally {
      clearInterval(progress);
    }
  };
  const viaBare = (stream: Record<string, unknown>[]) => {
    const plans = batchesOf(stream, 100).map((c) => {
      const plan = emptyPlan();
      const stored = c.map((e) => {
        const v = validateEvent(e);
        planEvent(plan, v);
        const raw = JSON.stringify(e);
        return { id: storedEventRow(v, raw, e).id, raw };
      });
      return { plan: compactPlan(plan), stored };
    });
    return async () => {
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < plans.length) {
          const { plan, stored } = plans[next++]!;
          await bareWrite(driver, plan, stored);
        }
      }));
    };
  };
  // Warm-up, not measured: both paths on a stream sharing no names with the measured one (500
  // jobs, 2000 events), so that neither pays alone for the JVM's JIT, Node's JIT or plan compilation.
  if (!reused) {
    const warm = generate({ ...spec, jobs: streamed ? 100 : 500, seed: 7, nameOffset: 10_000_000 }).events;
    await viaHttp(bodies(warm), warm.length)();
    if (withLowerBound) await viaBare(warm)();
    // The plan refresher replans what the warm-up's growth made stale (each plan about a second of
    // a core): part of the warm-up, so it runs to its end here rather than inside a measurement.
    await settleRefresher("the batch endpoint's run");
  }
  memory.phase('ingest (Tributary)');
  const plans0 = await planReading();
  const tributaryClock = reused ? null : await clock(neo4j?.pid, viaHttp(source, expected));
  const ingestT = reused ? reused.ingestSeconds : tributaryClock!.seconds;
  const eventCount = reused ? reused.events : seen.events;
  const bytes = reused ? reused.bytes : seen.bytes;
  // The lineage diff case starts at the median event time (about half the runs before it).
  const diffFrom = reused ? reused.diffFrom : seen.times.sort()[Math.floor(eventCount / 2)]!;
  seen.times = [];
  const tributaryCpu = reused ? reused.cpu : { neo4j: tributaryClock!.neo4j, node: tributaryClock!.node };
  const plans1 = await planReading();
  if (!reused) {
    const loaded: Loaded = {
      date: new Date().toISOString(), events: eventCount, bytes, diffFrom, ingestSeconds: ingestT, refused,
      cpu: tributaryCpu,
      // What the query cases read of the outputs: names, layer, column lineage, the first field.
      outputs: outputs.map((o) => ({ ...o, fields: o.fields.slice(0, 1) })),
    };
    fs.writeFileSync(loadedFile, JSON.stringify(loaded));
  }
  memory.phase('ingest (lower bound)');
  // What Tributary's growth left for the plan refresher is done before the lower bound's clock
  // starts, and the refresher is paused during it: its replans run on Neo4j's Bolt threads beside
  // the bare loader's (index sampling catches up with Tributary's writes seconds later, so a check
  // during the lower bound's run could still find a statistic diverged).
  if (withLowerBound) {
    await settleRefresher("the lower bound's run");
    await app.refresher?.pause();
  }
  const bareClock = withLowerBound ? await clock(neo4j?.pid, viaBare(generated.events)) : null;
  const bareT = bareClock?.seconds ?? NaN;
  app.refresher?.resume();
  // The stream is no longer needed: let it go, so that the service (same process) does not pay
  // for collecting hundreds of MB during the query phase.
  generated.events = [];
  const plans2 = await planReading();
  // --rounds N (with --ingest-only): more pairs of clocks on fresh streams, the order alternating.
  const rounds = withLowerBound && ingestOnly && tributaryClock && bareClock
    ? await ingestRounds({
        rounds: roundsWanted,
        neo4jPid: neo4j?.pid,
        stream: (round, side) => generate({ ...spec, seed: 70 + round * 2 + (side === 'bound' ? 1 : 0), nameOffset: 50_000_000 + round * 2_000_000 + (side === 'bound' ? 1_000_000 : 0) }).events,
        tributary: (events) => viaHttp(bodies(events), events.length),
        bound: (events) => viaBare(events),
        settle: () => settleRefresher("the rounds' clock"),
        pause: async () => app.refresher?.pause(),
        resume: () => app.refresher?.resume(),
      })
    : [];
  let plans3: Awaited<ReturnType<typeof planReading>> | null = null;
  // Its own warm-up stream first (2000 events, names of its own) through the same broker: the Kafka
  // path's statements (offsets) planned and compiled before its clock, as the HTTP path's are.
  const kafkaWarm = () => generate({ ...spec, jobs: streamed ? 100 : 500, seed: 8, nameOffset: 11_000_000 }).events;
  const kafka = withKafka
    ? await timedKafka(() => app.ingestor, generate({ ...spec, seed: 43, nameOffset: 20_000_000 }).events, {
        home: path.join(home, 'kafka'), config, neo4jPid: neo4j?.pid, warm: {
          events: kafkaWarm(),
          settle: async () => {
            await settleRefresher("the Kafka worker's run");
            plans3 = await planReading();
          },
        },
      })
    : null;
  if (kafka) process.stdout.write(`Kafka worker: joined and received the first batch after ${s(kafka.joinSeconds)} s (not timed); ${s(kafka.seconds)} s\n`);
  const plans4 = withKafka ? await planReading() : null;
  const kafkaT = kafka?.seconds ?? NaN;
  const scaleOut: { workers: number; seconds: number; conflicts: number }[] = [];
  for (const workers of withScaleOut ? [1, 2, 4] : []) {
    const conflicts0 = await lockConflicts(app.metrics);
    const events = generate({ ...spec, seed: 44 + workers, nameOffset: 30_000_000 + workers * 1_000_000 }).events;
    const own = () => new Ingestor(app.executor, log, app.metrics, app.rules, new ProjectionWriter());
    const { seconds, joinSeconds } = await timedKafka(own, events, { home: path.join(home, `kafka-${workers}`), config, neo4jPid: neo4j?.pid, workers, keys: 'run' });
    process.stdout.write(`Kafka workers (${workers}): joined and received the first batch after ${s(joinSeconds)} s (not timed); ${s(seconds)} s\n`);
    scaleOut.push({ workers, seconds, conflicts: (await lockConflicts(app.metrics)) - conflicts0 });
  }
  // Replica lag: offered loads as fractions of one projector's rate just measured, 30 s each.
  const oneRate = scaleOut.length > 0 ? eventCount / scaleOut[0]!.seconds : 0;
  const lagLevels = withScaleOut && !ingestOnly
    ? await replicaLag({
        config,
        home,
        log,
        primary: { executor: app.executor, ingestor: new Ingestor(app.executor, log, app.metrics, app.rules, new ProjectionWriter()), metrics: app.metrics },
        warm: generate({ ...spec, seed: 59, nameOffset: 39_000_000 }).events.slice(0, 2000),
        levels: LAG_LOAD.map((fraction, i) => {
          const rate = Math.max(5, Math.round(oneRate * fraction));
          return { rate, events: generate({ ...spec, seed: 60 + i, nameOffset: 40_000_000 + i * 1_000_000 }).events.slice(0, rate * 30) };
        }),
      })
    : [];
  memory.phase('queries');
  const graph = await graphSize(driver);
  out('## Ingestion');
  out();
  if (reused) out(`Measured when this store was loaded (${reused.date}; this run reused it with --reuse).\n`);
  out('| path | events | seconds | events/s | MB/s | ratio to lower bound |');
  out('|---|---|---|---|---|---|');
  const refusedAll = reused ? reused.refused : refused;
  out(`| Tributary, HTTP batch endpoint (100/request, 4 clients${refusedAll > 0 ? `; ${refusedAll} requests answered 503 while the projection was more than TRIBUTARY_SPOOL_MAX_MB behind, retried after Retry-After` : ''}) | ${eventCount} | ${s(ingestT)} | ${rate(eventCount, ingestT)} | ${(bytes / 1e6 / ingestT).toFixed(2)} | ${withLowerBound ? (bareT / ingestT).toFixed(2) : "–"} |`);
  // After rounds, the Kafka worker runs on the aged JVM: its ratio is to the last round's lower bound.
  const kafkaBound = rounds.length > 0 ? rounds[rounds.length - 1]!.bound.seconds : bareT;
  if (withKafka) out(`| Tributary, Kafka worker (4 partitions, keys as the OpenLineage transport sets them, up to ${KAFKA_BATCH} events a transaction; a fresh stream of the same size${rounds.length > 0 ? `, after the ${rounds.length} rounds below: ratio to the last round's lower bound` : ''}) | ${eventCount} | ${s(kafkaT)} | ${rate(eventCount, kafkaT)} | ${(bytes / 1e6 / kafkaT).toFixed(2)} | ${withLowerBound ? (kafkaBound / kafkaT).toFixed(2) : '–'} |`);
  for (const r of scaleOut) {
    const one = scaleOut[0]!.seconds;
    out(`| Tributary, ${r.workers} Kafka worker${r.workers > 1 ? 's' : ''}, own projection writers (4 partitions; a fresh stream; ${(one / r.seconds).toFixed(2)}× one worker, ${r.conflicts} lock conflicts retried) | ${eventCount} | ${s(r.seconds)} | ${rate(eventCount, r.seconds)} | ${(bytes / 1e6 / r.seconds).toFixed(2)} | ${withLowerBound ? (bareT / r.seconds).toFixed(2) : '–'} |`);
  }
  if (withLowerBound) out(`| lower bound: bare UNWIND loader, same nodes, relationships, properties and raw events, same constraints (4 writers) | ${eventCount} | ${s(bareT)} | ${rate(eventCount, bareT)} | ${(bytes / 1e6 / bareT).toFixed(2)} | 1.00 |`);
  out();
  const per1k = (secs: number) => ((secs / eventCount) * 1000).toFixed(2);
  if (neo4j) {
    out('CPU seconds per 1000 events (both processes share the 2 cores; the Node.js process also runs the bench client):');
    out();
    out('| path | Neo4j | Node.js (service + client; its garbage collection) |');
    out('|---|---|---|');
    const gc = (c: { gcMs: number } | null) => (c ? ` (GC ${per1k(c.gcMs / 1000)})` : '');
    out(`| Tributary | ${per1k(tributaryCpu.neo4j)} | ${per1k(tributaryCpu.node)}${gc(tributaryClock)} |`);
    if (bareClock) out(`| lower bound | ${per1k(bareClock.neo4j)} | ${per1k(bareClock.node)}${gc(bareClock)} |`);
    // The broker is a JVM of its own on the same two cores, started for this run (bench-only).
    if (kafka) out(`| Tributary, Kafka worker (the broker besides: ${per1k(kafka.cpu.broker)}) | ${per1k(kafka.cpu.neo4j)} | ${per1k(kafka.cpu.node)} |`);
    out();
    if (tributaryClock?.threads) {
      // Neo4j's CPU by thread: the queries' work per event, apart from the JIT's, which fades with the process's age.
      const row = (name: string, t: Record<JvmThreadGroup, number>) => `| ${name} | ${per1k(t.queries / 1000)} | ${per1k(t.jit / 1000)} | ${per1k(t.gc / 1000)} | ${per1k(t.other / 1000)} |`;
      out("Neo4j's CPU seconds per 1000 events by thread: its queries (Bolt workers, planning included), the JVM's JIT compilers, garbage collection, the rest:");
      out();
      out('| path | queries | JIT | GC | other |');
      out('|---|---|---|---|---|');
      out(row('Tributary', tributaryClock.threads));
      if (kafka?.threads) out(row('Tributary, Kafka worker', kafka.threads));
      if (bareClock?.threads) {
        out(row('lower bound', bareClock.threads));
        out();
        out(`Neo4j's query work per event: ${(tributaryClock.threads.queries / bareClock.threads.queries).toFixed(2)}× the lower bound's.`);
      }
      out();
    }
  }
  if (!reused) {
    // Plans compiled meanwhile: each costs Neo4j about a second of a core, beside the writes.
    const compiled = (a: Awaited<ReturnType<typeof planReading>>, b: Awaited<ReturnType<typeof planReading>>) => {
      const c = compiledSince(a.counters, b.counters);
      return `${c ? `${c.plans} plans compiled (${c.stale} found stale)` : 'plans compiled: unknown'}, ${b.refreshed - a.refreshed} refreshed in the background`;
    };
    out(`Query plans during the batch endpoint's run: ${compiled(plans0, plans1)}${withLowerBound ? `; during the lower bound's (the refresher paused): ${compiled(plans1, plans2)}` : ''}${plans3 && plans4 ? `; during the Kafka worker's (its broker's start and group join included): ${compiled(plans3, plans4)}` : ''}. Replanned by the refresher before each clock started: ${settledText()}.`);
    out();
  }
  if (rounds.length > 0 && tributaryClock && bareClock) {
    out(`Rounds (--rounds ${rounds.length}): the same sizes again on fresh streams, the order alternating, each clock after Neo4j went quiet (${rounds.flatMap((r) => [r.tributary.quietWait, r.bound.quietWait]).reduce((a, b) => a + b, 0).toFixed(0)} s waited in all): the JVM ages, and the last round is the steady state. Per 1000 events, CPU seconds:`);
    out();
    for (const line of roundsTable({ round: 0, boundFirst: false, events: eventCount, tributary: tributaryClock, bound: bareClock }, rounds)) out(line);
    out();
    const last = rounds[rounds.length - 1]!;
    out(`Steady state (round ${last.round}): the batch endpoint at ${(last.bound.seconds / last.tributary.seconds).toFixed(2)}× the lower bound, Neo4j's query work ${last.tributary.threads && last.bound.threads ? (last.tributary.threads.queries / last.bound.threads.queries).toFixed(2) : '–'}× the lower bound's.`);
    out();
  }
  if (ingestOnly) {
    await memory.stop();
    agent.destroy();
    await driver.close();
    await app.close();
    await neo4j?.stop();
    return;
  }
  // As an operator would after a bulk load: resample the indexes and drop plans made on the old
  // statistics, so that the query phase does not measure one-off replanning (1-3 s per query).
  await driver.executeQuery('CALL db.prepareForReplanning(300)');
  // Then what the service does after start (TRIBUTARY_PLAN_WARMUP): compile the hot plans.
  const warmed = await app.warmUp(false, false);
  if (lagLevels.length > 0) {
    out('Replica lag under load (--scale-out; replica-lag.ts): one topic (4 partitions), the primary graph and a read replica (a second embedded Neo4j, heap 2g) each fed by its own projector in its own group, 30 s of events per level at a steady offered rate (a fraction of one projector\'s rate above). Delay: from the topic\'s acknowledgement of a 100 ms tick of events until the graph\'s recorded offsets pass it (what `Tributary-Wait: projected` waits for). Everything shares the 2 cores.');
    out();
    out('| offered events/s (× one projector) | produced events/s | events | graph | delay p50 / p95 / max ms | most behind (events) | transactions | mean ms per transaction | events per transaction |');
    out('|---|---|---|---|---|---|---|---|---|');
    for (const l of lagLevels) {
      for (const [name, d] of [['primary', l.primary], ['replica', l.replica]] as const) {
        out(`| ${l.offered} (${(l.offered / oneRate).toFixed(2)}) | ${l.produced} | ${l.events} | ${name} | ${d.p50} / ${d.p95} / ${d.max} | ${d.maxBehind} | ${d.transactions} | ${d.meanTxMs} | ${d.eventsPerTx} |`);
      }
    }
    out();
  }
  out(`Graph after ingestion: ${graph.nodes.toLocaleString('en')} nodes (${graph.fields.toLocaleString('en')} fields), ${graph.relationships.toLocaleString('en')} relationships, without the lower bound's copy.`);
  out();

  // --- queries -------------------------------------------------------------------------------
  const cases = await queryCases({ app, config, agent, port, outputs, layers: spec.layers, diffFrom });
  const results = await measureCases(cases, warmed, out);
  const compiledInQueries = compiledSince(warmed.counters, await readPlanCounters(app.executor));
  out();
  out(`Plans Neo4j compiled after the warm-up, while these cases ran (tributary_neo4j_plans_compiled): ${compiledInQueries ? `${compiledInQueries.plans} (${compiledInQueries.stale} replans of stale plans), ${compiledInQueries.codeGen} recompiles with compiled expressions` : 'not counted'}.`);
  out();

  // --- memory --------------------------------------------------------------------------------
  const mem = await memory.stop();
  const store = neo4j ? directoryBytes(path.join(home, 'neo4j', 'data')) : null;
  out('## Memory (sampled every 2 s; maxima per phase)');
  out();
  out(`| phase | service RSS MiB (bench client in the same process) | Neo4j RSS MiB | Neo4j heap used MiB (of ${heap}) |`);
  out('|---|---|---|---|');
  for (const m of mem) out(`| ${m.phase} | ${m.rssMiB} | ${m.neo4jRssMiB || '–'} | ${m.heapMiB} |`);
  out();
  out(`Page cache: ${pageCache} configured; store on disk${withLowerBound ? ' (with the lower bound\'s copy)' : ''}: ${store === null ? 'n/a (external server)' : `${(store / 2 ** 20).toFixed(0)} MiB`}.`);
  out();
  const d20 = results.find((r) => r.name === 'lineage DATASET upstream depth 20')!;
  const ratio = withLowerBound ? `${(bareT / ingestT).toFixed(2)}× the bare-UNWIND lower bound` : 'lower bound not measured';
  out(`Summary: size ${size} (${graph.nodes.toLocaleString('en')} nodes), ${eventCount} events ingested at ${rate(eventCount, ingestT)} events/s (${ratio}); depth-20 dataset lineage p50 ${d20.p50.toFixed(0)} ms, p95 ${d20.p95.toFixed(0)} ms.`);
  const benchDir = path.join(__dirname, '..', '..', 'bench');
  // A trial with --jobs writes its own report, never the size's.
  const label = jobsArg >= 0 ? `${size}-${spec.jobs}` : size;
  fs.writeFileSync(path.join(benchDir, `REPORT-${label}.md`), lines.join('\n') + '\n');
  const result = {
    size, date: new Date().toISOString(), jobs: spec.jobs, events: eventCount, bytes, graph,
    ingest: { seconds: ingestT, eventsPerSecond: eventCount / ingestT, lowerBoundSeconds: withLowerBound ? bareT : null },
    queries: results, memory: mem, storeBytes: store,
  };
  fs.writeFileSync(path.join(benchDir, `results-${label}.json`), JSON.stringify(result, null, 2) + '\n');
  await driver.close();
  await app.close();
  await neo4j?.stop();
}

function batchesOf<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** What a finished run leaves beside its store (loaded.json), for --reuse. */
interface Loaded {
  date: string;
  events: number;
  bytes: number;
  diffFrom: string;
  ingestSeconds: number;
  refused: number;
  /** CPU seconds of the ingestion. */
  cpu: { neo4j: number; node: number };
  outputs: Output[];
}

/** Nodes and relationships of the service's graph (count store lookups, no scans). */
async function graphSize(driver: Driver) {
  const s = driver.session();
  try {
    const count = async (q: string) => Number((await s.run(q)).records[0]!.get(0));
    const labels = ['Dataset', 'Job', 'Run', 'Field', 'Event', 'JobVersion'];
    let nodes = 0;
    for (const l of labels) nodes += await count(`MATCH (n:${l}) RETURN count(n)`);
    const types = ['FEEDS', 'PRODUCES', 'INPUT_TO', 'OUTPUT_TO', 'RUN_OF', 'HAS_FIELD', 'DERIVES', 'INFLUENCES', 'SYMLINK', 'PARENT', 'ROOT', 'HAS_VERSION', 'OF_VERSION'];
    let relationships = 0;
    for (const t of types) relationships += await count(`MATCH ()-[r:${t}]->() RETURN count(r)`);
    return { nodes, relationships, fields: await count('MATCH (n:Field) RETURN count(n)') };
  } finally {
    await s.close();
  }
}

/** CPU seconds (user + system) so far of this process and of the Neo4j process (Linux /proc). */

/** Samples this process's RSS, Neo4j's RSS and its used heap (JMX) every 2 s; keeps the maxima per phase. */
class MemorySampler {
  private current = 'setup';
  private readonly max = new Map<string, { rss: number; heap: number; neo4jRss: number }>();
  private readonly timer: NodeJS.Timeout;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly driver: Driver,
    private readonly neo4jPid?: number,
  ) {
    this.timer = setInterval(() => {
      this.pending = this.sample();
    }, 2000);
  }

  phase(name: string): void {
    this.current = name;
  }

  async stop(): Promise<{ phase: string; rssMiB: number; heapMiB: number; neo4jRssMiB: number }[]> {
    clearInterval(this.timer);
    await this.pending;
    await this.sample();
    const mib = (b: number) => Math.round(b / 2 ** 20);
    return [...this.max].map(([phase, m]) => ({ phase, rssMiB: mib(m.rss), heapMiB: mib(m.heap), neo4jRssMiB: mib(m.neo4jRss) }));
  }

  private async sample(): Promise<void> {
    const phase = this.current;
    const rss = process.memoryUsage().rss;
    const s = this.driver.session();
    let heap = 0;
    try {
      const r = await s.run("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties.used AS used");
      heap = Number(r.records[0]?.get('used') ?? 0);
    } catch {
      heap = 0;
    } finally {
      await s.close();
    }
    const neo4jRss = this.neo4jPid ? rssMiB([this.neo4jPid]) * 2 ** 20 : 0;
    const m = this.max.get(phase) ?? { rss: 0, heap: 0, neo4jRss: 0 };
    this.max.set(phase, { rss: Math.max(m.rss, rss), heap: Math.max(m.heap, heap), neo4jRss: Math.max(m.neo4jRss, neo4jRss) });
  }
}

/** A batch request's body: 100 events (the last one fewer) as JSON text. */
interface Body {
  text: string;
  events: number;
}

/** The events in bodies of 100, encoded as they are drawn; `onEvent` sees each with its JSON. */
function* bodiesOf(events: Iterable<Record<string, unknown>>, onEvent?: (e: Record<string, unknown>, text: string) => void): Generator<Body> {
  let chunk: string[] = [];
  for (const e of events) {
    const text = JSON.stringify(e);
    onEvent?.(e, text);
    if (chunk.push(text) === 100) {
      yield { text: `[${chunk.join(',')}]`, events: 100 };
      chunk = [];
    }
  }
  if (chunk.length > 0) yield { text: `[${chunk.join(',')}]`, events: chunk.length };
}

const s = (x: number) => x.toFixed(2);
const rate = (n: number, secs: number) => Math.round(n / secs);

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});

/** Replica lag levels (--scale-out): offered load as a fraction of one projector's measured rate. */
const LAG_LOAD = [0.25, 0.5, 0.75];

/** Lock conflicts the service's transactions lost so far (tributary_write_lock_conflicts_total). */
async function plansRefreshed(metrics: Metrics): Promise<number> {
  return (await metrics.plansRefreshed.get()).values.reduce((n, v) => n + v.value, 0);
}

async function lockConflicts(metrics: Metrics): Promise<number> {
  return (await metrics.lockConflicts.get()).values.reduce((n, v) => n + v.value, 0);
}

