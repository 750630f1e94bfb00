import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { newToken } from '../../src/http/auth';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Admission lanes and per-client turns (src/http/lanes.ts, src/http/read-slots.ts) against the
 * starvation runs of issue 23: six clients, each looping twenty aliases of `blastRadius(first: 1)`, twenty
 * concurrent REST diffs, anonymous embeds (TRIBUTARY_EMBED_PUBLIC=true), each while a token holder
 * looks up one dataset again and again. Asserted: every lookup answers 200 while the flood goes on,
 * lookups never wait for a slot while the flood does (tributary_read_requests on /metrics), and a
 * client over its own queue cap gets 503 at once, not the others. Timings are printed, not asserted.
 * Data: a layered namespace (8 layers of 12 datasets, each job reading two of a layer and writing
 * one of the next), so that a blast radius from the first layer walks about 180 nodes.
 */
const LAYERS = 8;
const WIDTH = 12;
const PHASE_MS = 6_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admission-tokens-'));
const tokens = {
  normal: newToken('normal-reader', ['read']),
  differ: newToken('diff-dashboard', ['read']),
  admin: newToken('ops', ['admin']),
  ingest: newToken('loader', ['ingest']),
  floods: Array.from({ length: 6 }, (_, i) => newToken(`flood-${i}`, ['read'])),
};
let svc: TestService;
let ns: string;

before(async () => {
  const lines = [tokens.normal, tokens.differ, tokens.admin, tokens.ingest, ...tokens.floods].map((t) => t.line);
  fs.writeFileSync(path.join(dir, 'tokens.yaml'), `tokens:\n${lines.join('\n')}\n`);
  svc = await startService({ TRIBUTARY_TOKENS_FILE: path.join(dir, 'tokens.yaml'), TRIBUTARY_EMBED_PUBLIC: 'true' });
  ns = uniquePrefix('admission');
  const d = (layer: number, k: number) => `l${layer}_d${(k + WIDTH) % WIDTH}`;
  const events = [];
  for (let layer = 0; layer < LAYERS - 1; layer++) {
    for (let k = 0; k < WIDTH; k++) {
      const day = String(1 + ((layer * WIDTH + k) % 28)).padStart(2, '0');
      events.push(runEvent(ns, { job: `j${layer}_${k}`, eventTime: `2024-02-${day}T10:00:00Z`, inputs: [d(layer, k), d(layer, k + 1)], outputs: [d(layer + 1, k)] }));
    }
  }
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events), { authorization: `Bearer ${tokens.ingest.token}` });
  assert.ok(res.status === 200 || res.status === 202, JSON.stringify(res.body).slice(0, 300));
  // 202: stored, projection still under way (a busy machine); wait until the last layer is there.
  const last = `dataset:${ns}:${d(LAYERS - 1, WIDTH - 1)}`;
  for (let i = 0; i < 240; i++) {
    const r = (await (await gql(tokens.normal, 'query($id: ID!) { dataset(id: $id) { id } }', { id: last })).json()) as { data?: { dataset: unknown } };
    if (r.data?.dataset) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.fail('the seed events were not projected within 2 minutes');
});
after(async () => {
  await svc?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });
const gql = (token: { token: string }, query: string, variables?: Record<string, unknown>) =>
  fetch(`${svc.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(120_000),
  });

interface Tally {
  statuses: Map<number, number>;
  ms: number[];
}
const tally = (): Tally => ({ statuses: new Map(), ms: [] });
const count = (t: Tally, status: number) => t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
const pct = (ms: number[], p: number) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? NaN;
const fmt = (t: Tally) => `${[...t.statuses].map(([s, n]) => `${n}×${s}`).join(' ')}, p50 ${Math.round(pct(t.ms, 0.5))} ms, max ${Math.round(Math.max(...t.ms))} ms`;

/** `loops` concurrent loops of `send` until `deadline` (at most 200 requests each); statuses and latencies. */
async function flood(loops: number, deadline: number, send: () => Promise<Response>, inFlight: { n: number }): Promise<Tally> {
  const t = tally();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      for (let i = 0; i < 200 && Date.now() < deadline; i++) {
        const started = Date.now();
        inFlight.n++;
        try {
          const res = await send();
          await res.arrayBuffer();
          // A refusal must say when to retry (counted as -503 otherwise); the loop retries at once, the harder case.
          count(t, res.status === 503 && !res.headers.get('retry-after') ? -503 : res.status);
        } catch {
          count(t, 0);
        } finally {
          inFlight.n--;
          t.ms.push(Date.now() - started);
        }
      }
    }),
  );
  return t;
}

/**
 * The token holder's lookups while `start` floods: one at a time, until a second before the flood
 * stops; each answered 200 with the dataset while flood requests are still in flight; the lookup
 * lane never has a request waiting, the flooded lane does.
 */
async function lookupsDuring(label: string, floodedLane: 'heavy' | 'embed', start: (deadline: number, inFlight: { n: number }) => Promise<Tally[]>) {
  const deadline = Date.now() + PHASE_MS;
  const inFlight = { n: 0 };
  // The service runs in this process: its event loop's delays are the lookups' too.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const flooding = start(deadline, inFlight);
  const waiting = { lookup: 0, heavy: 0, embed: 0 };
  const sampling = (async () => {
    while (Date.now() < deadline) {
      const text = await (await fetch(`${svc.baseUrl}/metrics`, { headers: bearer(tokens.admin) })).text();
      for (const m of text.matchAll(/^tributary_read_requests\{lane="(\w+)",state="waiting"\} (\d+)$/gm)) {
        const lane = m[1] as keyof typeof waiting;
        waiting[lane] = Math.max(waiting[lane], Number(m[2]));
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  await new Promise((r) => setTimeout(r, 500));
  const normal = tally();
  const id = `dataset:${ns}:l3_d5`;
  for (let i = 0; i < 100 && Date.now() < deadline - 1_000; i++) {
    const started = Date.now();
    const res = await gql(tokens.normal, 'query($id: ID!) { dataset(id: $id) { id name namespace } }', { id });
    const body = (await res.json()) as { data?: { dataset: { id: string } | null } };
    normal.ms.push(Date.now() - started);
    count(normal, res.status);
    assert.equal(res.status, 200, `${label}: lookup ${i} answered ${res.status}`);
    assert.equal(body.data?.dataset?.id, id);
    assert.ok(inFlight.n > 0, `${label}: lookup ${i} answered while the flood still had requests in flight`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const floods = await flooding;
  await sampling;
  loop.disable();
  for (const f of floods) for (const status of f.statuses.keys()) assert.ok(status === 200 || status === 503, `${label}: a flood request answered ${status}`);
  console.log(`# ${label}: normal dataset(id) ${fmt(normal)}; flood ${floods.map(fmt).join('; ')}; most waiting ${JSON.stringify(waiting)}; event loop delay p99 ${Math.round(loop.percentile(99) / 1e6)} ms, max ${Math.round(loop.max / 1e6)} ms`);
  assert.ok(normal.ms.length >= 3, `${label}: lookups answered during the flood`);
  assert.equal(waiting.lookup, 0, `${label}: no lookup waited for a slot`);
  assert.ok(waiting[floodedLane] > 0, `${label}: the flood waited in its lane`);
  return { normal, floods };
}

const ALIASES = Array.from({ length: 20 }, (_, i) => `b${i}: blastRadius(nodeId: $id, first: 1) { totals { items } items { id } }`).join(' ');
const blastFlood = (deadline: number, inFlight: { n: number }) =>
  Promise.all(
    tokens.floods.map((t) =>
      flood(1, deadline, () => gql(t, `query($id: ID!) { ${ALIASES} }`, { id: `dataset:${ns}:l0_d0` }), inFlight),
    ),
  ).then((ts) => [merge(ts)]);
const diffUrl = () => `${svc.baseUrl}/api/v1/lineage/diff?${new URLSearchParams({ scope: 'NAMESPACE', value: ns, from: '2024-02-10T00:00:00Z', first: '50' })}`;
const diffFlood = (deadline: number, inFlight: { n: number }) =>
  flood(20, deadline, () => fetch(diffUrl(), { headers: bearer(tokens.differ), signal: AbortSignal.timeout(120_000) }), inFlight).then((t) => [t]);
const embedUrl = () => `${svc.baseUrl}/embed/coverage?${new URLSearchParams({ scope: 'NAMESPACE', value: ns })}`;
const embedFlood = (deadline: number, inFlight: { n: number }) =>
  flood(20, deadline, () => fetch(embedUrl(), { signal: AbortSignal.timeout(120_000) }), inFlight).then((t) => [t]);

function merge(ts: Tally[]): Tally {
  const m = tally();
  for (const t of ts) {
    for (const [s, n] of t.statuses) m.statuses.set(s, (m.statuses.get(s) ?? 0) + n);
    m.ms.push(...t.ms);
  }
  return m;
}

describe('admission under starvation floods', () => {
  it('six clients looping twenty aliases of blastRadius(first: 1): the lookups go on', async () => {
    const { floods } = await lookupsDuring('blastRadius flood', 'heavy', blastFlood);
    assert.ok((floods[0]!.statuses.get(200) ?? 0) > 0, 'the flood is served too');
  });

  it('twenty concurrent REST diffs: the lookups go on', async () => {
    await lookupsDuring('REST diff flood', 'heavy', diffFlood);
  });

  it('anonymous embeds with TRIBUTARY_EMBED_PUBLIC=true: the lookups go on', async () => {
    await lookupsDuring('anonymous embed flood', 'embed', embedFlood);
  });

  it('all three at once: the lookups go on', async () => {
    await lookupsDuring('all floods at once', 'heavy', async (deadline, inFlight) =>
      (await Promise.all([blastFlood(deadline, inFlight), diffFlood(deadline, inFlight), embedFlood(deadline, inFlight)])).flat(),
    );
  });

  it("a client past its own queue cap gets 503 at once, naming the limit; another client's diff is admitted", async () => {
    // While the blast radius flood keeps the heavy lane's slots busy, one token sends 60 diffs at once.
    const deadline = Date.now() + 3_000;
    const busy = blastFlood(deadline, { n: 0 });
    await new Promise((r) => setTimeout(r, 500));
    const burst = Array.from({ length: 60 }, () => fetch(diffUrl(), { headers: bearer(tokens.differ), signal: AbortSignal.timeout(120_000) }));
    const other = fetch(diffUrl(), { headers: bearer(tokens.normal), signal: AbortSignal.timeout(120_000) });
    const answers = await Promise.all(burst.map(async (p) => { const r = await p; return { status: r.status, retry: r.headers.get('retry-after'), body: await r.text() }; }));
    const refused = answers.filter((a) => a.status === 503);
    console.log(`# burst of 60 diffs from one token (cap ${svc.config.graphql.clientQueue}) during the blastRadius flood: ${answers.length - refused.length} answered 200, ${refused.length} refused 503`);
    assert.ok(refused.length > 0, 'some of the burst refused');
    assert.ok(answers.every((a) => a.status === 200 || a.status === 503));
    for (const r of refused) {
      assert.equal(r.retry, '5');
      assert.match(r.body, /TRIBUTARY_GRAPHQL_CLIENT_QUEUE/);
    }
    assert.equal((await other).status, 200, "the other client's diff");
    await busy;
  });
});
