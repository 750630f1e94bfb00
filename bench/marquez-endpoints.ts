import type http from 'node:http';
import { send } from './http-client';
import { cpuMs } from './processes';

/**
 * Marquez's own read API on both sides (issue 26): the same GET requests, byte for byte, to Marquez
 * 0.50 and to Tributary's Marquez-compatible API (src/marquez), one after the other per request,
 * timed as a client sees them. Cases: what the Marquez web UI and scripts send most (table lineage
 * at depth 20, column lineage, search, the namespace list, the dashboard's job list, a namespace's jobs and datasets, a
 * dataset). For lineage, the node sets are compared too: Marquez's should be within Tributary's
 * (Tributary starts a dataset's lineage from all its jobs, Marquez from one), unless Tributary's
 * node cap cut it (`Tributary-Truncated`), counted apart.
 *
 * Every case but table lineage (minutes per request on Marquez at M) is sent 1 + STEADY_PASSES
 * times: the first pass is what a request meets on code paths neither JVM (Marquez's, Neo4j's) nor
 * Node.js has compiled yet after ingestion, the others the steady state a user of the UI meets.
 * Both are reported; the steady state is the headline figure. Several steady passes because the
 * small requests take a few milliseconds on both sides, where 20 samples on a shared machine
 * decide little. Beside the latencies, each side's CPU time per request over the steady passes
 * (all its processes: Marquez's JVM and PostgreSQL, Tributary's Node.js and Neo4j), read from
 * /proc: the work a request costs, which noise from other tenants of the machine changes less
 * than it changes a latency of a few milliseconds.
 */
export interface Start {
  namespace: string;
  name: string;
  fields: string[];
  columnLineage: boolean;
}

export interface EndpointFigures {
  case: string;
  marquezMs: number[];
  tributaryMs: number[];
  marquezErrors: number;
  tributaryErrors: number;
  /** The first pass over the same URLs (absent for lineage, sent once). */
  first?: { marquezMs: number[]; tributaryMs: number[] };
  /**
   * CPU time per request (ms, every process of the side, any core) over the passes reported, less
   * what the side spent at the rate it used while idle just before the case (its background:
   * collectors, compiler threads, timers).
   */
  cpuMsPerRequest: { marquez: number; tributary: number };
  /** Each side's idle CPU rate (ms of CPU per s) measured before the case. */
  idleCpuMsPerS: { marquez: number; tributary: number };
  /** Lineage only: Marquez's node count, Tributary's, how many of Marquez's Tributary also has, answers Tributary cut. */
  nodes?: { marquez: number[]; tributary: number[]; marquezInTributary: number[]; truncated: number };
}

type Side = { port: number; pids: () => number[] };
type Answer = { status: number; text: string; headers: http.IncomingHttpHeaders; ms: number };
/** Marquez's answers already timed, by URL: sent again, a minutes-long request would only cost time. */
export type MarquezAnswers = Map<string, Answer>;

/**
 * `lineageStarts` are where table lineage starts (minutes each on Marquez at M); every other case
 * takes its requests from `starts`. `jobNamespaces`: namespaces that hold jobs (a namespace's job
 * list is asked of those, as the UI does).
 */
export async function compareEndpoints(agent: http.Agent, marquez: Side, tributary: Side, lineageStarts: Start[], starts: Start[], jobNamespaces: string[], log: (l: string) => void, known: MarquezAnswers = new Map()): Promise<EndpointFigures[]> {
  const enc = encodeURIComponent;
  const namespaces = [...new Set(starts.map((s) => s.namespace))];
  const word = (s: Start) => s.name.split(/[^A-Za-z0-9]+/).filter(Boolean).at(-1) ?? s.name;
  const cases: { name: string; urls: string[]; lineage?: boolean }[] = [
    { name: 'GET /api/v1/lineage depth 20 (dataset)', urls: lineageStarts.map((s) => `/api/v1/lineage?nodeId=${enc(`dataset:${s.namespace}:${s.name}`)}&depth=20`), lineage: true },
    {
      name: 'GET /api/v1/column-lineage depth 20 (field, upstream)',
      urls: starts.filter((s) => s.columnLineage).map((s) => `/api/v1/column-lineage?nodeId=${enc(`datasetField:${s.namespace}:${s.name}:${s.fields[0]}`)}&depth=20`),
    },
    {
      name: 'GET /api/v1/column-lineage depth 2 withDownstream (dataset, the UI’s page)',
      urls: starts.filter((s) => s.columnLineage).map((s) => `/api/v1/column-lineage?nodeId=${enc(`dataset:${s.namespace}:${s.name}`)}&depth=2&withDownstream=true`),
    },
    { name: 'GET /api/v1/search?q=…&limit=100', urls: starts.map((s) => `/api/v1/search?q=${enc(word(s))}&sort=NAME&limit=100`) },
    { name: 'GET /api/v1/namespaces (every page of the UI)', urls: starts.map(() => '/api/v1/namespaces') },
    { name: 'GET /api/v1/jobs?limit=10 (dashboard)', urls: starts.map(() => '/api/v1/jobs?limit=10&offset=0') },
    { name: 'GET /api/v1/namespaces/{ns}/jobs?limit=20', urls: starts.map((_, i) => `/api/v1/namespaces/${enc(jobNamespaces[i % jobNamespaces.length]!)}/jobs?limit=20&offset=0`) },
    { name: 'GET /api/v1/namespaces/{ns}/datasets?limit=20', urls: starts.map((_, i) => `/api/v1/namespaces/${enc(namespaces[i % namespaces.length]!)}/datasets?limit=20&offset=0`) },
    { name: 'GET /api/v1/namespaces/{ns}/datasets/{ds}', urls: starts.map((s) => `/api/v1/namespaces/${enc(s.namespace)}/datasets/${enc(s.name)}`) },
  ];
  const out: EndpointFigures[] = [];
  for (const c of cases) {
    if (c.urls.length === 0) continue;
    const fig: EndpointFigures = {
      case: c.name,
      marquezMs: [],
      tributaryMs: [],
      marquezErrors: 0,
      tributaryErrors: 0,
      cpuMsPerRequest: { marquez: NaN, tributary: NaN },
      idleCpuMsPerS: { marquez: NaN, tributary: NaN },
      ...(c.lineage ? { nodes: { marquez: [], tributary: [], marquezInTributary: [], truncated: 0 } } : { first: { marquezMs: [], tributaryMs: [] } }),
    };
    const passes = c.lineage ? [c.urls.entries()] : Array.from({ length: 1 + STEADY_PASSES }, () => c.urls.entries());
    const reported = c.lineage ? 0 : 1;
    let cpuFrom = { m: 0, t: 0, at: 0 };
    for (const [pass, entries] of passes.entries()) for (const [i, url] of entries) {
      if (pass === reported && i === 0) {
        // Both sides idle for IDLE_MS: the background rate to take out of the requests' CPU.
        const idleFrom = { m: cpuMs(marquez.pids()), t: cpuMs(tributary.pids()), at: performance.now() };
        await new Promise((r) => setTimeout(r, IDLE_MS));
        cpuFrom = { m: cpuMs(marquez.pids()), t: cpuMs(tributary.pids()), at: performance.now() };
        const s = (cpuFrom.at - idleFrom.at) / 1000;
        fig.idleCpuMsPerS = { marquez: (cpuFrom.m - idleFrom.m) / s, tributary: (cpuFrom.t - idleFrom.t) / s };
      }
      // Alternate which side goes first, so neither always meets the other's warm caches.
      const order = i % 2 === 0 ? (['m', 't'] as const) : (['t', 'm'] as const);
      const answers: Record<'m' | 't', Answer> = {} as never;
      for (const side of order) {
        const reuse = side === 'm' ? known.get(url) : undefined;
        if (reuse) {
          answers.m = reuse;
          continue;
        }
        const t0 = performance.now();
        const res = await send(agent, side === 'm' ? marquez.port : tributary.port, 'GET', url);
        answers[side] = { ...res, ms: performance.now() - t0 };
      }
      if (fig.first && pass === 0) {
        fig.first.marquezMs.push(answers.m.ms);
        fig.first.tributaryMs.push(answers.t.ms);
        continue;
      }
      fig.marquezMs.push(answers.m.ms);
      fig.tributaryMs.push(answers.t.ms);
      if (answers.m.status !== 200) fig.marquezErrors++;
      if (answers.t.status !== 200) fig.tributaryErrors++;
      if (fig.nodes && answers.t.status === 200) {
        // Marquez names a job with a parent facet `<parent>.<name>` (simpleName: the name sent).
        type Node = { id: string; type: string; data?: { namespace?: string; simpleName?: string } };
        const ids = (text: string) =>
          new Set(((JSON.parse(text) as { graph?: Node[] }).graph ?? []).map((n) => (n.type === 'JOB' && n.data?.simpleName ? `job:${n.data.namespace}:${n.data.simpleName}` : n.id)));
        const t = ids(answers.t.text);
        fig.nodes.tributary.push(t.size);
        if (answers.t.headers['tributary-truncated']) fig.nodes.truncated++;
        // Compared only where Marquez answered too (a request its statement timeout cut has no graph).
        if (answers.m.status === 200) {
          const m = ids(answers.m.text);
          fig.nodes.marquez.push(m.size);
          fig.nodes.marquezInTributary.push([...m].filter((id) => t.has(id)).length);
        }
      }
    }
    // Marquez answers reused (table lineage) cost Marquez nothing here: its CPU is per request sent.
    const sent = { m: fig.marquezMs.length - (c.lineage ? c.urls.filter((u) => known.has(u)).length : 0), t: fig.tributaryMs.length };
    const caseS = (performance.now() - cpuFrom.at) / 1000;
    const net = (now: number, from: number, idle: number, n: number) => (now - from - idle * caseS) / n;
    fig.cpuMsPerRequest = {
      marquez: sent.m > 0 ? net(cpuMs(marquez.pids()), cpuFrom.m, fig.idleCpuMsPerS.marquez, sent.m) : NaN,
      tributary: net(cpuMs(tributary.pids()), cpuFrom.t, fig.idleCpuMsPerS.tributary, sent.t),
    };
    const firstPass = fig.first ? `; first pass ${pct(fig.first.marquezMs, 50).toFixed(1)} / ${pct(fig.first.tributaryMs, 50).toFixed(1)} ms` : '';
    log(`${c.name}: Marquez p50 ${pct(fig.marquezMs, 50).toFixed(1)} ms, Tributary p50 ${pct(fig.tributaryMs, 50).toFixed(1)} ms; CPU per request ${fig.cpuMsPerRequest.marquez.toFixed(1)} / ${fig.cpuMsPerRequest.tributary.toFixed(1)} ms (${c.urls.length} requests${firstPass})`);
    out.push(fig);
  }
  return out;
}

/** How long both sides are left idle before a case's reported passes, to measure their background CPU. */
const IDLE_MS = 3_000;

/** Steady-state passes of every case but table lineage, after the first. */
const STEADY_PASSES = 3;

export const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The rows of the report's Marquez-API table. */
export function renderEndpoints(figs: EndpointFigures[]): string[] {
  const med = (xs: number[]) => pct(xs, 50);
  return [
    '',
    '### Marquez’s read API, the same requests on both sides',
    '',
    `Every case but table lineage is sent ${1 + STEADY_PASSES} times; the figures are the last ${STEADY_PASSES} passes (the steady state), the first pass (code paths not yet compiled after ingestion) is in its own column.`,
    '',
    `CPU per request: what all of a side\'s processes spent (user + system, any core) over those passes, less the side\'s background (its CPU rate while both sides sat idle for ${IDLE_MS / 1000} s just before, times the passes\' duration; in the notes), divided by the requests sent (table lineage: Marquez\'s answers are reused from the comparison above, so only Tributary\'s is measured here). /proc counts in 10 ms ticks, so a figure of a few ms is an average over many requests, not a measurement of one.`,
    '',
    '| request | Marquez p50 / p95 | Tributary p50 / p95 | Tributary faster (p50) | CPU per request: Marquez / Tributary (less) | first pass p50: Marquez / Tributary (faster) | notes |',
    '|---|---|---|---|---|---|---|',
    ...figs.map((f) => {
      const idle = f.idleCpuMsPerS;
      const notes = [`${f.marquezMs.length} requests`, `non-200: Marquez ${f.marquezErrors}, Tributary ${f.tributaryErrors}`, `idle CPU before: Marquez ${idle.marquez.toFixed(0)}, Tributary ${idle.tributary.toFixed(0)} ms/s`];
      if (f.nodes) {
        const count = (xs: number[]) => (xs.length ? String(med(xs)) : '– (no answer)');
        notes.push(`nodes (median) Marquez ${count(f.nodes.marquez)}, Tributary ${count(f.nodes.tributary)}, Marquez's also in Tributary's ${count(f.nodes.marquezInTributary)}; cut by Tributary's node cap ${f.nodes.truncated}`);
      }
      const m = `${med(f.marquezMs).toFixed(1)} / ${pct(f.marquezMs, 95).toFixed(1)} ms`;
      const t = `${med(f.tributaryMs).toFixed(1)} / ${pct(f.tributaryMs, 95).toFixed(1)} ms`;
      const first = f.first ? `${med(f.first.marquezMs).toFixed(1)} / ${med(f.first.tributaryMs).toFixed(1)} ms (${(med(f.first.marquezMs) / med(f.first.tributaryMs)).toFixed(1)}×)` : '– (sent once)';
      const cpu = f.cpuMsPerRequest;
      // CPU per request is the case's CPU less the side's idle rate (a 3 s sample before it) over the
      // case's time. A figure below 0 means that sample caught background work (a refresh, a
      // declarer round) heavier than the case's average: no figure is given for that side.
      const measured = (x: number) => Number.isFinite(x) && x >= 0;
      const cpuOf = (x: number) => (measured(x) ? `${x.toFixed(1)} ms` : Number.isFinite(x) ? '– (under its background)' : '–');
      const cpuCell = measured(cpu.marquez) && measured(cpu.tributary) ? `${cpu.marquez.toFixed(1)} / ${cpu.tributary.toFixed(1)} ms (${(cpu.marquez / cpu.tributary).toFixed(1)}×)` : `${cpuOf(cpu.marquez)} / ${cpuOf(cpu.tributary)}`;
      return `| ${f.case} | ${m} | ${t} | ${(med(f.marquezMs) / med(f.tributaryMs)).toFixed(1)}× | ${cpuCell} | ${first} | ${notes.join('; ')} |`;
    }),
    '',
  ];
}
