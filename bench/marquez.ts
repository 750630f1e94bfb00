import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { send } from './http-client';
import { compareEndpoints, renderEndpoints, type MarquezAnswers } from './marquez-endpoints';
import { startMarquez as startMarquezBaseline } from '../tools/marquez-clients/baseline';
import { cpuMs, freePort, pidsOf, releaseOnExit, rssMiB, startLogged, until, type Cleanup } from './processes';
import { SIZES, stream, type GenOptions } from './generator';
import { SERVICE_NODE_FLAGS } from '../src/service-flags';
import { describeCpu, ingest, median, readsDuringIngest, renderLoad, underLoad, withReaders, type Phase, type Readers, type Side } from './marquez-ingest';
import { datasetId, fieldId, parseId } from '../src/ids';

/**
 * Tributary and Marquez 0.50.0 side by side (issue 13), each a separate process with a fresh store
 * on this machine: Tributary as `npm start` runs it (embedded Neo4j, default heap and page cache,
 * after its plan warm-up), Marquez from ../shared/marquez-baseline/run.sh (source build, private
 * PostgreSQL 15). Both get byte-identical spec-valid events from the same client, one event per
 * request: per round, the first `seq` events of a fresh stream (other names, other seed) from one
 * client, the rest from 16 clients; rounds interleave the services, medians are reported. Tributary
 * answers once an event is stored; the table also gives the time until it was projected
 * (end-to-end) and the projection lag. Then the same questions: lineage from 20 deep datasets
 * (Marquez GET /api/v1/lineage depth 20, undirected; Tributary BOTH depth 20), column lineage
 * upstream depth 20, node sets compared; then Marquez's own read API on both sides, the same GET
 * requests to each (bench/marquez-endpoints.ts); RSS of each side's processes; last, one more round
 * per side with a busy loop holding one core, and one GraphQL reader's depth-5 lineage p50 alone and
 * under 16 ingesting clients (bench/marquez-ingest.ts). Tributary runs with
 * TRIBUTARY_MARQUEZ_MAX_NODES=50000, so that its Marquez lineage answers are as whole as Marquez's.
 * Usage: npm run bench:marquez -- [S|M] [--rounds 3] [--seq 1000] [--starts 20] [--endpoint-starts 20] [--marquez-timeout 60s] [--tributary-only]
 * (--starts: how many deep datasets the lineage questions start from; Marquez needs minutes per
 * depth-20 lineage on M, so M runs with a few. --endpoint-starts: how many the other Marquez-API
 * requests take their names from. --marquez-timeout: PostgreSQL's statement_timeout
 * for Marquez; a request cut by it counts as an error, and its time as a lower bound of Marquez's.
 * Marquez's table lineage is timed once per start, in the first comparison, and that answer is
 * reused by the Marquez-API comparison, which sends Tributary the same request.)
 * (--tributary-only: Tributary's ingestion figures alone, for iterating; writes no report.
 * --render: no run; writes bench/MARQUEZ-<size>.md again from bench/marquez-<size>.json.)
 * Writes bench/MARQUEZ-<size>.md and bench/marquez-<size>.json. Not part of npm test.
 */
const repo = path.resolve(__dirname, '..', '..');
const baseline = path.resolve(repo, '..', 'shared', 'marquez-baseline');


async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const size = args.find((a) => /^[SML]$/.test(a)) ?? 'S';
  const opt = (name: string, dflt: number) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) return dflt;
    const n = Number(args[i + 1]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number, not ${JSON.stringify(args[i + 1] ?? '')}`);
    return n;
  };
  const rounds = opt('rounds', 3);
  const seqEvents = opt('seq', 1000);
  const only = args.includes('--tributary-only');
  if (args.includes('--render')) return rerender(size);
  const startCount = opt('starts', 20);
  const endpointStartCount = opt('endpoint-starts', 20);
  // The busy-loop round and the reads during ingestion send the first N events of a fresh stream
  // (default all): at M a whole stream costs Marquez over half an hour more per round.
  const loadEvents = opt('load-events', Infinity);
  const timeoutAt = args.indexOf('--marquez-timeout');
  const marquezTimeout = timeoutAt >= 0 ? args[timeoutAt + 1]! : '60s';
  if (!fs.existsSync(path.join(baseline, 'run.sh'))) {
    process.stdout.write(`bench:marquez skipped: ${baseline} is absent (it holds the Marquez 0.50.0 source build; see its README)\n`);
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-marquez-'));
  fs.chmodSync(work, 0o755); // PostgreSQL runs as the postgres user
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  const { cleanup, release } = releaseOnExit(work);
  try {
    const marquez = only ? null : await startMarquez(log, cleanup, marquezTimeout);
    const tributary = await startTributary(work, log, cleanup);
    const sides = marquez ? [marquez, tributary] : [tributary];
    const results: Record<string, { seq: Phase[]; conc: Phase[] }> = { Marquez: { seq: [], conc: [] }, Tributary: { seq: [], conc: [] } };
    const afterWarmUp = await planCounters(agent, tributary);
    let lastOutputs: { namespace: string; name: string; fields: string[]; layer: number; columnLineage: boolean }[] = [];
    const jobNamespaces = new Set<string>();
    for (let r = 0; r < rounds; r++) {
      const outputs: typeof lastOutputs = [];
      const opts: GenOptions = { ...SIZES[size]!, seed: 42 + r, nameOffset: r * 10_000_000 };
      const texts = [...stream(opts, outputs)].map((e) => {
        jobNamespaces.add((e.job as { namespace: string }).namespace);
        return JSON.stringify(e);
      });
      lastOutputs = outputs;
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        // Each side's clocks start once the other side is quiet (what its own last round left
        // running, a refresher or a vacuum, counts against it), and its CPU meanwhile is logged.
        const others = sides.filter((s) => s !== side);
        if (others.length > 0) await untilQuiet(agent, others, tributary, log);
        const seq = await ingest(agent, side, texts.slice(0, seqEvents), 1, others);
        const conc = await ingest(agent, side, texts.slice(seqEvents), 16, others);
        results[side.name]!.seq.push(seq);
        results[side.name]!.conc.push(conc);
        log(`round ${r + 1} ${side.name}: 1 client ${seq.evPerS.toFixed(1)} ev/s (${seq.non2xx} non-2xx), 16 clients ${conc.evPerS.toFixed(1)} ev/s (${conc.non2xx} non-2xx)` +
          (conc.projectedEvPerS ? `, projected ${seq.projectedEvPerS!.toFixed(1)} / ${conc.projectedEvPerS.toFixed(1)} ev/s` : '') +
          `; CPU s per 1000 events at 16 clients: ${describeCpu(side.name, conc)}` +
          (conc.others ? `; meanwhile, CPU ms/s of ${Object.entries(conc.others).map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ')} (1 client: ${Object.values(seq.others ?? {}).map((v) => v.toFixed(0)).join(', ')})` : ''));
      }
    }
    // Ingestion while 50 GraphQL clients read (Tributary): a fresh stream, readers asking lineage
    // of the datasets already ingested, for as long as the ingestion runs.
    // The readers get their own connections: sharing the ingesting clients' pool would queue an
    // event behind reads in the client, not in the service.
    const readerAgent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const readers = await withReaders(readerAgent, tributary, lastOutputs, 50, async () => {
      const texts = [...stream({ ...SIZES[size]!, seed: 42 + rounds, nameOffset: rounds * 10_000_000 })].map((e) => JSON.stringify(e));
      return { seq: await ingest(agent, tributary, texts.slice(0, seqEvents), 1), conc: await ingest(agent, tributary, texts.slice(seqEvents), 16) };
    });
    log(`with 50 GraphQL readers: 1 client ${readers.result.seq.evPerS.toFixed(1)} ev/s, 16 clients ${readers.result.conc.evPerS.toFixed(1)} ev/s; ${readers.reads} reads, p50 ${readers.p50.toFixed(1)} ms, ${readers.errors} errors`);
    const afterIngest = await planCounters(agent, tributary);
    log(`Neo4j plans compiled after the warm-up, while ingesting: ${describeCompiled(afterWarmUp, afterIngest)}`);
    if (!marquez) {
      // --tributary-only: one reader's lineage during ingestion too, printed (no report written).
      const texts = [...stream({ ...SIZES[size]!, seed: 42 + rounds + 2, nameOffset: (rounds + 2) * 10_000_000 })].slice(0, loadEvents).map((e) => JSON.stringify(e));
      const reads = await readsDuringIngest(agent, readerAgent, tributary, lastOutputs, texts);
      log(`one reader, depth-5 lineage: p50 ${reads.idle.p50.toFixed(1)} ms idle, ${reads.busy.p50.toFixed(1)} ms under 16 ingesting clients until projected (${(reads.busy.p50 / reads.idle.p50).toFixed(2)}×), ${reads.sending.p50.toFixed(1)} ms while they were sending (${(reads.sending.p50 / reads.idle.p50).toFixed(2)}×, ${reads.sending.reads} reads); ${reads.busy.result.conc.evPerS.toFixed(1)} ev/s acknowledged, ${reads.busy.result.conc.projectedEvPerS?.toFixed(1)} until projected`);
      return;
    }
    const deep = lastOutputs.filter((o) => o.layer >= SIZES[size]!.layers / 2);
    const starts = deep.slice(0, startCount);
    const marquezAnswers: MarquezAnswers = new Map();
    const settled = await untilQuiet(agent, sides, tributary, log);
    const queries = await compareQueries(agent, marquez, tributary, starts, log, marquezAnswers);
    const endpoints = await compareEndpoints(agent, marquez, tributary, starts, deep.slice(0, endpointStartCount), [...jobNamespaces].sort(), log, marquezAnswers);
    const memory = { Marquez: rssMiB(marquez.pids()), Tributary: rssMiB(tributary.pids()) };
    const afterReads = await planCounters(agent, tributary);
    const plans = { afterWarmUp, afterIngest, afterReads };
    // Last, so that the comparisons above read the same data on both sides: a competing load on one
    // core, then one reader's lineage during ingestion against its idle p50 (issue 28).
    const fresh = (n: number) => [...stream({ ...SIZES[size]!, seed: 42 + n, nameOffset: n * 10_000_000 })].slice(0, loadEvents).map((e) => JSON.stringify(e));
    const loadTexts = fresh(rounds + 1);
    const loaded = await underLoad(agent, sides, loadTexts, seqEvents);
    log(`with a busy loop on one core: ${Object.entries(loaded).map(([n, l]) => `${n} ${l.seq.evPerS.toFixed(1)} / ${l.conc.evPerS.toFixed(1)} ev/s`).join(', ')}`);
    const reads = await readsDuringIngest(agent, readerAgent, tributary, lastOutputs, fresh(rounds + 2));
    log(`one reader, depth-5 lineage: p50 ${reads.idle.p50.toFixed(1)} ms idle, ${reads.busy.p50.toFixed(1)} ms under 16 ingesting clients until projected, ${reads.sending.p50.toFixed(1)} ms while they were sending`);
    const figures: Figures = { at: new Date().toISOString(), size, rounds, seqEvents, loadEvents: loadTexts.length, results, queries, endpoints, memory, readers, plans, settled, loaded, reads };
    fs.writeFileSync(path.join(repo, 'bench', `marquez-${size}.json`), JSON.stringify(figures, null, 2) + '\n');
    const report = renderAll(figures);
    fs.writeFileSync(path.join(repo, 'bench', `MARQUEZ-${size}.md`), report);
    process.stdout.write(report);
  } finally {
    await release();
  }
}

async function startMarquez(log: (l: string) => void, cleanup: (() => void)[], statementTimeout: string): Promise<Side> {
  const m = await startMarquezBaseline(repo, log, cleanup, statementTimeout);
  return { name: 'Marquez', port: m.port, pids: () => [m.pid, ...pidsOf('postgres')] };
}

async function startTributary(work: string, log: (l: string) => void, cleanup: Cleanup[]): Promise<Side> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', TRIBUTARY_HOME: path.join(work, 'tributary'), TRIBUTARY_NEO4J_PORT: String(await freePort()), TRIBUTARY_MAX_DEPTH: '40', TRIBUTARY_MARQUEZ_MAX_NODES: '50000', NEO4J_URI: '', TRIBUTARY_PLAN_WARMUP: 'all' };
  const logFile = path.join(work, 'tributary.log');
  log(`starting Tributary (log ${logFile})`);
  const child = startLogged(process.execPath, [...SERVICE_NODE_FLAGS, path.join(repo, 'dist', 'src', 'main.js')], env, repo, logFile);
  cleanup.push(() => {
    try {
      process.kill(child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    return child.pid!;
  });
  const agent = new http.Agent({ keepAlive: true });
  await until('Tributary ready', async () => (await send(agent, port, 'GET', '/readyz')).status === 200, 5 * 60_000, { child, logFile });
  const started = Date.now();
  await until('the plan warm-up', async () => fs.readFileSync(logFile, 'utf8').includes('"msg":"query plans warmed up"'), 10 * 60_000, { child, logFile });
  log(`Tributary up on ${port}; plan warm-up took ${((Date.now() - started) / 1000).toFixed(0)} s after ready`);
  return { name: 'Tributary', port, pids: () => [child.pid!] };
}

/** Sends `texts` one per request from `clients` clients; for Tributary also waits until all are projected. */
type QueryFigures = { case: string; marquezMs: number[]; tributaryMs: number[]; marquezNodes: number[]; tributaryNodes: number[]; shared: number[]; marquezErrors: number; onlyTributary: string[]; onlyMarquez: string[] };

async function compareQueries(
  agent: http.Agent,
  marquez: Side,
  tributary: Side,
  starts: { namespace: string; name: string; fields: string[]; columnLineage: boolean }[],
  log: (l: string) => void,
  marquezAnswers: MarquezAnswers,
) {
  const gql = (query: string, variables: Record<string, unknown>) => send(agent, tributary.port, 'POST', '/graphql', JSON.stringify({ query, variables }));
  const lineageQuery = `query($id: ID!, $depth: Int!, $g: Granularity!, $d: LineageDirection!) { lineage(nodeId: $id, depth: $depth, granularity: $g, direction: $d) { nodes { id } } }`;
  const cases: QueryFigures[] = [];
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const t = performance.now();
    const out = await work();
    return [out, performance.now() - t];
  };
  for (const kind of ['lineage', 'column'] as const) {
    const fig: QueryFigures = { case: kind === 'lineage' ? 'lineage depth 20 (Marquez undirected; Tributary BOTH)' : 'column lineage upstream depth 20', marquezMs: [], tributaryMs: [], marquezNodes: [], tributaryNodes: [], shared: [], marquezErrors: 0, onlyTributary: [], onlyMarquez: [] };
    for (const s of kind === 'column' ? starts.filter((x) => x.columnLineage) : starts) {
      const field = s.fields[0]!;
      const nodeId = kind === 'lineage' ? `dataset:${s.namespace}:${s.name}` : `datasetField:${s.namespace}:${s.name}:${field}`;
      const url = kind === 'lineage' ? `/api/v1/lineage?nodeId=${encodeURIComponent(nodeId)}&depth=20` : `/api/v1/column-lineage?nodeId=${encodeURIComponent(nodeId)}&depth=20`;
      const [m, mMs] = await timed(() => send(agent, marquez.port, 'GET', url));
      if (kind === 'lineage') marquezAnswers.set(url, { ...m, ms: mMs });
      const variables = kind === 'lineage'
        ? { id: datasetId(s.namespace, s.name), depth: 20, g: 'DATASET', d: 'BOTH' }
        : { id: fieldId(s.namespace, s.name, field), depth: 20, g: 'FIELD', d: 'UPSTREAM' };
      const [t, tMs] = await timed(() => gql(lineageQuery, variables));
      const tIds = new Set(((JSON.parse(t.text) as { data?: { lineage: { nodes: { id: string }[] } } }).data?.lineage.nodes ?? []).map((n) => marquezId(n.id)));
      if (m.status !== 200) {
        fig.marquezErrors++;
      } else {
        // Marquez names a job with a parent facet `<parent>.<name>` (simpleName: the name sent).
        type MarquezNode = { id: string; type: string; data?: { namespace?: string; simpleName?: string } };
        const mIds = new Set(
          ((JSON.parse(m.text) as { graph: MarquezNode[] }).graph ?? []).map((n) =>
            n.type === 'JOB' && n.data?.simpleName ? `job:${n.data.namespace}:${n.data.simpleName}` : n.id,
          ),
        );
        fig.marquezNodes.push(mIds.size);
        fig.shared.push([...tIds].filter((id) => mIds.has(id)).length);
        // A few of each side's own nodes, for reading the difference (in the JSON).
        if (fig.onlyTributary.length < 10) fig.onlyTributary.push(...[...tIds].filter((id) => !mIds.has(id)).slice(0, 3));
        if (fig.onlyMarquez.length < 10) fig.onlyMarquez.push(...[...mIds].filter((id) => !tIds.has(id)).slice(0, 3));
      }
      fig.marquezMs.push(mMs);
      fig.tributaryMs.push(tMs);
      fig.tributaryNodes.push(tIds.size);
    }
    log(`${fig.case}: Marquez p50 ${median(fig.marquezMs).toFixed(0)} ms, Tributary p50 ${median(fig.tributaryMs).toFixed(1)} ms`);
    cases.push(fig);
  }
  return cases;
}

/** A Tributary id in Marquez's spelling (components unescaped: Marquez does not escape ':'). */
function marquezId(id: string): string {
  const ref = parseId(id) as { kind: string; namespace?: string; name?: string; field?: string; runId?: string };
  const kind = ref.kind === 'FIELD' ? 'datasetField' : ref.kind.toLowerCase();
  return [kind, ref.namespace, ref.name, ref.field].filter((x) => x !== undefined).join(':');
}


/** Background work both sides may still do once ingestion ended: at most this CPU rate counts as quiet. */
const QUIET_CPU_MS_PER_S = 100;
const QUIET_WINDOW_MS = 5_000;
const QUIET_MAX_MS = 5 * 60_000;
type Settled = { waitedS: number; quiet: boolean; refreshed: number; cpuMsPerS: Record<string, number> };

/**
 * Waits until every one of `sides`' processes use under QUIET_CPU_MS_PER_S over a QUIET_WINDOW_MS
 * window (at most QUIET_MAX_MS), so that the read comparisons measure the steady state a user of
 * the UI meets, not what ingestion left running: Tributary's plan refresher replans every recorded
 * shape in the background once the graph's counts diverged (src/graph/plan-refresher.ts), Marquez's
 * PostgreSQL vacuums and analyzes. What was still running, and how long it took, goes into the
 * report. Before an ingestion clock `sides` is the side not measured.
 */
async function untilQuiet(agent: http.Agent, sides: Side[], tributary: Side, log: (l: string) => void): Promise<Settled> {
  const started = performance.now();
  const refreshedAt = async () => (await planCounters(agent, tributary))?.refreshed ?? 0;
  const refreshed0 = await refreshedAt();
  let rates: Record<string, number> = {};
  let quiet = false;
  while (!quiet && performance.now() - started < QUIET_MAX_MS) {
    const from = sides.map((s) => cpuMs(s.pids()));
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS));
    const s = (performance.now() - t0) / 1000;
    rates = Object.fromEntries(sides.map((side, i) => [side.name, (cpuMs(side.pids()) - from[i]!) / s]));
    quiet = Object.values(rates).every((r) => r < QUIET_CPU_MS_PER_S);
  }
  const settled = { waitedS: (performance.now() - started) / 1000, quiet, refreshed: (await refreshedAt()) - refreshed0, cpuMsPerS: rates };
  log(`${sides.map((x) => x.name).join(' and ')} ${quiet ? 'quiet' : 'still busy'} after ${settled.waitedS.toFixed(0)} s (CPU ms/s ${Object.entries(rates).map(([n, r]) => `${n} ${r.toFixed(0)}`).join(', ')}; Tributary's plan refresher replanned ${settled.refreshed} plans meanwhile)`);
  return settled;
}

function renderSettled(s: Settled): string {
  return `\nBefore the reads below, both sides were left until quiet (every side's processes under ${QUIET_CPU_MS_PER_S} ms of CPU per s over ${QUIET_WINDOW_MS / 1000} s; at most ${QUIET_MAX_MS / 60_000} min): ${s.quiet ? 'quiet' : 'still busy'} after ${s.waitedS.toFixed(0)} s (${Object.entries(s.cpuMsPerS).map(([n, r]) => `${n} ${r.toFixed(0)} ms/s`).join(', ')}); meanwhile Tributary's plan refresher replanned ${s.refreshed} plans (the graph's counts had diverged past its threshold while ingesting).\n`;
}

type PlanCounts = { plan: number; codegen: number; stale: number; refreshed: number; named?: Record<string, number> } | null;

/**
 * Tributary's tributary_neo4j_plans_compiled (its embedded Neo4j's own count, src/graph/plan-cache.ts)
 * and tributary_plans_compiled_after_warmup_total by query and cause (src/graph/plan-compiles.ts,
 * read by the service every 10 s, so a phase's last seconds may show in the next); null when absent.
 */
async function planCounters(agent: http.Agent, side: Side): Promise<PlanCounts> {
  const res = await send(agent, side.port, 'GET', '/metrics');
  const value = (kind: string) => Number(new RegExp(`^tributary_neo4j_plans_compiled\\{kind="${kind}"\\} (\\d+)`, 'm').exec(res.text)?.[1] ?? NaN);
  const refreshed = Number(/^tributary_plans_refreshed_total (\d+)/m.exec(res.text)?.[1] ?? 0);
  const named: Record<string, number> = {};
  for (const m of res.text.matchAll(/^tributary_plans_compiled_after_warmup_total\{query="([^"]*)",cause="([^"]*)"\} (\d+)/gm)) named[`${m[1]}${m[2] === 'stale' ? ' (stale)' : ''}`] = Number(m[3]);
  const counts = { plan: value('plan'), codegen: value('codegen'), stale: value('stale'), refreshed, named };
  return Number.isFinite(counts.plan) ? counts : null;
}

function describeCompiled(from: PlanCounts, to: PlanCounts): string {
  if (!from || !to) return 'not counted (no tributary_neo4j_plans_compiled)';
  // The plan refresher's replans (src/graph/plan-refresher.ts) are in `plan` too, but off the
  // request path; Neo4j counts a forced replan as a recompile with compiled expressions as well.
  const refreshed = to.refreshed - from.refreshed;
  const onPath = to.plan - from.plan - refreshed;
  const named = Object.entries(to.named ?? {})
    .map(([q, n]) => [q, n - (from.named?.[q] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([q, n]) => `${q}${n > 1 ? ` ×${n}` : ''}`);
  const byName = to.named ? `; by name: ${named.length ? named.join(', ') : 'none'}` : '';
  return `${onPath} plans on the request path (of them ${to.stale - from.stale} replans of stale plans${byName}) besides ${refreshed} the plan refresher replanned in the background, ${to.codegen - from.codegen - refreshed} recompiles with compiled expressions`;
}

function renderPlans(p: { afterWarmUp: PlanCounts; afterIngest: PlanCounts; afterReads: PlanCounts }): string {
  return [
    `Neo4j query plans compiled after Tributary's plan warm-up (tributary_neo4j_plans_compiled, the embedded Neo4j's own count, less tributary_plans_refreshed_total): while ingesting (all rounds, and with readers) ${describeCompiled(p.afterWarmUp, p.afterIngest)}; while answering the read comparisons below ${describeCompiled(p.afterIngest, p.afterReads)}.`,
    '',
  ].join('\n');
}

/** Everything a run measured, as bench/marquez-<size>.json keeps it. */
interface Figures {
  /** When the run ended (ISO). */
  at?: string;
  size: string;
  rounds: number;
  seqEvents: number;
  /** Events of the busy-loop round (absent in runs before it was kept: then taken from the stream size). */
  loadEvents?: number;
  results: Record<string, { seq: Phase[]; conc: Phase[] }>;
  queries: QueryFigures[];
  endpoints: Parameters<typeof renderEndpoints>[0];
  memory: Record<string, number>;
  readers: Readers;
  plans: Parameters<typeof renderPlans>[0];
  settled: Parameters<typeof renderSettled>[0];
  loaded: Parameters<typeof renderLoad>[0];
  reads: Parameters<typeof renderLoad>[1];
}

function renderAll(f: Figures): string {
  const total = SIZES[f.size]!.jobs * SIZES[f.size]!.runsPerJob * 2;
  return render(f.at ?? '(date not kept)', f.size, f.rounds, f.seqEvents, f.results, f.queries, f.memory, f.readers) + renderLoad(f.loaded, f.reads, f.loadEvents ?? total).join('\n') + '\n' + renderPlans(f.plans) + renderSettled(f.settled) + renderEndpoints(f.endpoints).join('\n');
}

/** `--render`: writes bench/MARQUEZ-<size>.md again from bench/marquez-<size>.json (after a change to how figures are reported). */
function rerender(size: string): void {
  const figures = JSON.parse(fs.readFileSync(path.join(repo, 'bench', `marquez-${size}.json`), 'utf8')) as Figures;
  fs.writeFileSync(path.join(repo, 'bench', `MARQUEZ-${size}.md`), renderAll(figures));
  process.stdout.write(`bench/MARQUEZ-${size}.md rendered again from bench/marquez-${size}.json\n`);
}

function render(at: string, size: string, rounds: number, seq: number, results: Record<string, { seq: Phase[]; conc: Phase[] }>, queries: QueryFigures[], memory: Record<string, number>, readers: Readers): string {
  const m = results.Marquez!;
  const t = results.Tributary!;
  const med = (ps: Phase[], f: (p: Phase) => number | undefined) => median(ps.map((p) => f(p) ?? NaN));
  const row = (label: string, mv: number, tv: number, unit: string, extra = '') => `| ${label} | ${mv.toFixed(1)} ${unit} | ${tv.toFixed(1)} ${unit} | ${(tv / mv).toFixed(1)}× | ${extra} |`;
  // With several rounds, each round's figures too (the JVMs' age shows between them).
  const each = (ms: Phase[], ts: Phase[], f: (p: Phase) => number | undefined) =>
    rounds > 1 ? `rounds: Marquez ${ms.map((p) => p.evPerS.toFixed(1)).join(', ')}; Tributary ${ts.map((p) => (f(p) ?? NaN).toFixed(1)).join(', ')}` : '';
  const join = (...parts: string[]) => parts.filter(Boolean).join('; ');
  const shown = (n: number) => (Number.isNaN(n) ? '– (no answer)' : String(n));
  const total = SIZES[size]!.jobs * SIZES[size]!.runsPerJob * 2;
  const lines = [
    `# Tributary and Marquez 0.50.0, size ${size}`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${at}.`,
    `Stream: the ${size} stream of bench/generator.ts (${total} spec-valid events per round, a fresh stream each round); ${rounds} rounds, services interleaved; per round the first ${seq} events from 1 client, the other ${total - seq} from 16 clients, one event per HTTP request. Medians over rounds.`,
    'Tributary answers once an event is stored; "projected" is the rate until the graph showed every event of the phase.',
    '',
    '| path | Marquez | Tributary | ratio | notes |',
    '|---|---|---|---|---|',
    row('1 client, one event per request (acknowledged)', med(m.seq, (p) => p.evPerS), med(t.seq, (p) => p.evPerS), 'ev/s', join(`Marquez non-2xx: ${m.seq.map((p) => p.non2xx).join('/')}; Tributary: ${t.seq.map((p) => p.non2xx).join('/')}`, each(m.seq, t.seq, (p) => p.evPerS))),
    row('1 client, until projected', med(m.seq, (p) => p.evPerS), med(t.seq, (p) => p.projectedEvPerS), 'ev/s', join('Marquez answers after its writes', each(m.seq, t.seq, (p) => p.projectedEvPerS))),
    row('16 clients, one event per request (acknowledged)', med(m.conc, (p) => p.evPerS), med(t.conc, (p) => p.evPerS), 'ev/s', join(`Marquez non-2xx: ${m.conc.map((p) => p.non2xx).join('/')}; Tributary: ${t.conc.map((p) => p.non2xx).join('/')}`, each(m.conc, t.conc, (p) => p.evPerS))),
    row('16 clients, until projected', med(m.conc, (p) => p.evPerS), med(t.conc, (p) => p.projectedEvPerS), 'ev/s', each(m.conc, t.conc, (p) => p.projectedEvPerS)),
    ...queries.map((q) => {
      if (q.marquezMs.length === 0 && q.tributaryMs.length === 0) return `| ${q.case} | – | – | – | none of the starts had it (no request sent) |`;
      const mMs = median(q.marquezMs);
      const tMs = median(q.tributaryMs);
      return `| ${q.case}, p50 | ${mMs.toFixed(1)} ms | ${tMs.toFixed(1)} ms | ${(mMs / tMs).toFixed(0)}× faster | nodes (median) Marquez ${shown(median(q.marquezNodes))}, Tributary ${shown(median(q.tributaryNodes))}, Tributary's also in Marquez's ${shown(median(q.shared))}; Marquez errors ${q.marquezErrors} of ${q.marquezMs.length} |`;
    }),
    `| Tributary with 50 GraphQL clients reading (lineage depth 5, ${readers.reads} reads, p50 ${readers.p50.toFixed(0)} ms, ${readers.errors} errors): 1 client / 16 clients | – | ${readers.result.seq.evPerS.toFixed(1)} / ${readers.result.conc.evPerS.toFixed(1)} ev/s | ${(readers.result.seq.evPerS / med(t.seq, (p) => p.evPerS)).toFixed(2)} / ${(readers.result.conc.evPerS / med(t.conc, (p) => p.evPerS)).toFixed(2)} of the rate without readers | acknowledged |`,
    `| memory after the run (RSS) | ${memory.Marquez} MiB | ${memory.Tributary} MiB | ${(memory.Tributary! / memory.Marquez!).toFixed(2)}× | Marquez: JVM + PostgreSQL; Tributary: Node.js + embedded Neo4j (heap and page cache sized from the machine: README, The embedded default) |`,
    '',
  ];
  return lines.join('\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
