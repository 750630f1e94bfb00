import http from 'node:http';
import { spawn } from 'node:child_process';
import { send } from './http-client';
import { datasetId } from '../src/ids';
import { processCpuMs } from '../src/graph/embedded/cpu';
import { cpuMs, jvmThreadCpuMs, jvmUnder, type JvmThreadGroup } from './processes';

/**
 * bench:marquez's ingestion phases (marquez.ts): events one per request from N clients to one side,
 * the same while GraphQL clients read, and the same again with a competing load on one core
 * (issue 28: what a user feels on a machine that does other work too).
 */

export type Side = { name: 'Marquez' | 'Tributary'; port: number; pids: () => number[] };
/**
 * `cpu`: CPU seconds per 1000 events over the phase (until projected, for Tributary): the side's
 * first process (Tributary's Node.js, Marquez's JVM), the rest of its processes (Neo4j; PostgreSQL),
 * and this bench process (the clients).
 */
export type Phase = {
  evPerS: number;
  non2xx: number;
  seconds: number;
  projectedEvPerS?: number;
  /** Also, for Tributary, Neo4j's by thread (processes.ts jvmThreadCpuMs), per 1000 events. */
  cpu?: { service: number; database: number; client: number; neo4j?: Record<JvmThreadGroup, number> };
  /** The other sides' CPU meanwhile (all their processes), ms per s of the phase: what competed with it. */
  others?: Record<string, number>;
};

/** The median (of an even count, the mean of the two middle values); NaN for none. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Sends every text, one per request, from `clients` clients; Tributary's phase also waits until the
 * graph shows them (projectedEvPerS). `others`: the sides not measured, whose CPU meanwhile is read.
 */
export async function ingest(agent: http.Agent, side: Side, texts: string[], clients: number, others: Side[] = []): Promise<Phase> {
  let next = 0;
  let non2xx = 0;
  const ids: string[] = [];
  const jvm = side.name === 'Tributary' ? jvmUnder(side.pids()[0]!) : null;
  const cpu0 = { all: cpuMs(side.pids()), service: processCpuMs(side.pids()[0]!) ?? 0, client: process.cpuUsage(), threads: jvm ? jvmThreadCpuMs(jvm) : null };
  const others0 = others.map((o) => cpuMs(o.pids()));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < texts.length; i = next++) {
        const res = await send(agent, side.port, 'POST', '/api/v1/lineage', texts[i]!);
        if (res.status < 200 || res.status >= 300) non2xx++;
        else if (side.name === 'Tributary') ids.push((JSON.parse(res.text) as { eventId: string }).eventId);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const phase: Phase = { evPerS: texts.length / seconds, non2xx, seconds };
  if (side.name === 'Tributary') {
    for (;;) {
      const ready = JSON.parse((await send(agent, side.port, 'GET', '/readyz')).text) as { projectionLagMs?: number };
      if (ready.projectionLagMs === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    phase.projectedEvPerS = texts.length / ((performance.now() - t0) / 1000);
  }
  const elapsedS = (performance.now() - t0) / 1000;
  if (others.length > 0) phase.others = Object.fromEntries(others.map((o, i) => [o.name, (cpuMs(o.pids()) - others0[i]!) / elapsedS]));
  const service = (processCpuMs(side.pids()[0]!) ?? 0) - cpu0.service;
  const client = process.cpuUsage(cpu0.client);
  /** Milliseconds per event are seconds per 1000 events. */
  const per1000 = (ms: number) => ms / texts.length;
  phase.cpu = { service: per1000(service), database: per1000(cpuMs(side.pids()) - cpu0.all - service), client: per1000((client.user + client.system) / 1000) };
  if (jvm && cpu0.threads) {
    const now = jvmThreadCpuMs(jvm);
    phase.cpu.neo4j = { queries: per1000(now.queries - cpu0.threads.queries), jit: per1000(now.jit - cpu0.threads.jit), gc: per1000(now.gc - cpu0.threads.gc), other: per1000(now.other - cpu0.threads.other) };
  }
  return phase;
}

export type Readers = { result: { seq: Phase; conc: Phase }; reads: number; errors: number; p50: number };

/** Runs `work` while `clients` GraphQL clients ask upstream lineage (depth 5) of the given datasets in a loop. */
export async function withReaders(agent: http.Agent, side: Side, datasets: { namespace: string; name: string }[], clients: number, work: () => Promise<Readers['result']>): Promise<Readers> {
  return summarize(await readLoop(agent, side, datasets, clients, work));
}

function summarize({ result, errors, latencies }: Awaited<ReturnType<typeof readLoop>>): Readers {
  return { result, reads: latencies.length, errors, p50: median(latencies.map((l) => l.ms)) };
}

/** withReaders' loop: each read's start (performance.now()) and duration, not kept in the figures. */
async function readLoop(agent: http.Agent, side: Side, datasets: { namespace: string; name: string }[], clients: number, work: () => Promise<Readers['result']>) {
  let done = false;
  let errors = 0;
  const latencies: { at: number; ms: number }[] = [];
  const query = `query($id: ID!) { lineage(nodeId: $id, depth: 5, direction: UPSTREAM) { nodes { id } truncated } }`;
  const readers = Array.from({ length: clients }, async (_, c) => {
    for (let i = c; !done; i += clients) {
      const d = datasets[i % datasets.length]!;
      const t = performance.now();
      const res = await send(agent, side.port, 'POST', '/graphql', JSON.stringify({ query, variables: { id: datasetId(d.namespace, d.name) } }));
      latencies.push({ at: t, ms: performance.now() - t });
      if (res.status !== 200 || res.text.includes('"errors"')) errors++;
    }
  });
  const result = await work();
  done = true;
  await Promise.all(readers);
  return { result, errors, latencies };
}


/** One side's 1-client and 16-client phases with a competing load. */
export type Loaded = { seq: Phase; conc: Phase };

/**
 * The same events to each side, one client for the first `seq`, then 16 clients, while a fixed busy
 * loop (a second Node.js process spinning) holds one of the cores; the loop is stopped afterwards.
 */
export async function underLoad(agent: http.Agent, sides: Side[], texts: string[], seq: number): Promise<Record<string, Loaded>> {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    const out: Record<string, Loaded> = {};
    for (const side of sides) out[side.name] = { seq: await ingest(agent, side, texts.slice(0, seq), 1), conc: await ingest(agent, side, texts.slice(seq), 16) };
    return out;
  } finally {
    busy.kill('SIGKILL');
  }
}

/** One reader's depth-5 upstream lineage p50: alone for `idleMs`, then while 16 clients ingest `texts`. */
export async function readsDuringIngest(agent: http.Agent, readerAgent: http.Agent, side: Side, datasets: { namespace: string; name: string }[], texts: string[], idleMs = 15_000) {
  const idle = await withReaders(readerAgent, side, datasets, 1, async () => {
    await new Promise((r) => setTimeout(r, idleMs));
    return { seq: { evPerS: 0, non2xx: 0, seconds: 0 }, conc: { evPerS: 0, non2xx: 0, seconds: 0 } };
  });
  let t0 = 0;
  const loop = await readLoop(readerAgent, side, datasets, 1, async () => {
    t0 = performance.now();
    const conc = await ingest(agent, side, texts, 16);
    return { seq: conc, conc };
  });
  const busy = summarize(loop);
  // The phase runs until the graph shows every event: reads after the clients' last acknowledgement
  // meet the projection alone. Those started while the clients were sending are reported apart.
  const sendingUntil = t0 + busy.result.conc.seconds * 1000;
  const sending = loop.latencies.filter((l) => l.at < sendingUntil).map((l) => l.ms);
  return { idle, busy, sending: { reads: sending.length, p50: median(sending) } };
}

export function renderLoad(loaded: Record<string, Loaded>, reads: Awaited<ReturnType<typeof readsDuringIngest>> | null, events?: number): string[] {
  const m = loaded.Marquez;
  const t = loaded.Tributary!;
  const row = (label: string, mv: number | undefined, tv: number | undefined) =>
    `| ${label} | ${mv === undefined ? '–' : `${mv.toFixed(1)} ev/s`} | ${tv === undefined ? '–' : `${tv.toFixed(1)} ev/s`} | ${mv && tv ? `${(tv / mv).toFixed(1)}×` : '–'} |`;
  const lines = [
    '',
    '### With a competing load on one core',
    '',
    `One more round per side (a fresh stream${events === undefined ? '' : ` of ${events} events`}, the same to both) while a fixed busy loop, a second Node.js process spinning, holds one of the two cores; it is stopped afterwards.`,
    '',
    '| path | Marquez | Tributary | ratio |',
    '|---|---|---|---|',
    row('1 client, one event per request (acknowledged)', m?.seq.evPerS, t.seq.evPerS),
    row('1 client, until projected', m?.seq.evPerS, t.seq.projectedEvPerS),
    row('16 clients, one event per request (acknowledged)', m?.conc.evPerS, t.conc.evPerS),
    row('16 clients, until projected', m?.conc.evPerS, t.conc.projectedEvPerS),
    '',
    `Non-2xx answers: Marquez ${m ? m.seq.non2xx + m.conc.non2xx : '–'}, Tributary ${t.seq.non2xx + t.conc.non2xx}.`,
  ];
  if (reads) {
    lines.push(
      '',
      `Reads during ingestion (Tributary, no competing load): one GraphQL client asking depth-5 upstream lineage in a loop, p50 ${reads.idle.p50.toFixed(1)} ms alone (${reads.idle.reads} reads) and ${reads.busy.p50.toFixed(1)} ms while 16 clients ingested (${reads.busy.reads} reads, ${reads.busy.result.conc.evPerS.toFixed(1)} ev/s acknowledged): ${(reads.busy.p50 / reads.idle.p50).toFixed(2)}× its idle p50; errors ${reads.idle.errors + reads.busy.errors}.` +
        (reads.sending ? ` Of them, the ${reads.sending.reads} started while the clients were sending (not yet waiting for the projection alone): p50 ${reads.sending.p50.toFixed(1)} ms, ${(reads.sending.p50 / reads.idle.p50).toFixed(2)}×.` : ''),
    );
  }
  return lines;
}

/** A phase's CPU per 1000 events, each process named for its side. */
export function describeCpu(side: Side['name'], phase: Phase): string {
  if (!phase.cpu) return 'not measured';
  const [service, database] = side === 'Tributary' ? ['Node.js', 'Neo4j'] : ['Marquez', 'PostgreSQL'];
  const { cpu } = phase;
  const threads = cpu.neo4j ? ` (queries ${cpu.neo4j.queries.toFixed(2)}, JIT ${cpu.neo4j.jit.toFixed(2)}, GC ${cpu.neo4j.gc.toFixed(2)}, other ${cpu.neo4j.other.toFixed(2)})` : '';
  return `${service} ${cpu.service.toFixed(2)}, ${database} ${cpu.database.toFixed(2)}${threads}, the clients ${cpu.client.toFixed(2)}`;
}
