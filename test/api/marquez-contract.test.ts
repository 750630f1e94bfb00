import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runJavaClient, runPythonClient, type ClientPlan, type ClientReport } from '../../tools/marquez-clients/clients';
import type { RecordedResponse } from '../../tools/marquez-contract/capture';
import { brief, compareJson, mapStrings, type Diff } from '../../tools/marquez-contract/compare';
import { contractEvents, sample } from '../../tools/marquez-contract/events';
import { renderRequest, type NodeRef, type RequestSpec, type Rewrite } from '../../tools/marquez-contract/requests';
import { startService, type TestService } from '../support/app';
import { shapesColdAfterWarmUp } from '../support/warm-shapes';
import { repoRoot } from '../support/corpus';
import { isolate, isolatedRunId, uniquePrefix } from '../support/isolate';
import { collectFacts, contract, explain, fixtureDir, settleFacts, type Ctx } from '../support/marquez-differences';

/**
 * Replays what real Marquez 0.50.0 answered (test/fixtures/marquez-0.50/contract.json, captured by
 * tools/marquez-contract/capture.ts) against Tributary: the same accepted events, isolated under a
 * namespace prefix, then the same requests (prefix and isolated run ids put in). Tributary's answers
 * are normalised back (prefix removed from every string, isolated run ids mapped to the originals)
 * and compared with Marquez's field by field (tools/marquez-contract/compare.ts): same status, same
 * keys, same values, same items, same order. Every difference must belong to one of the explained
 * classes of ALLOWED (test/support/marquez-differences.ts; tools/marquez-contract/README.md lists
 * them with their counts); any other fails the test with path, Marquez's value and Tributary's value.
 *
 * Lists that span every namespace (namespaces, /jobs, events, search, tags, sources) hold other
 * tests' data in the shared database: Tributary's answer is read whole and cut down to this test's
 * prefix before it is compared (see `answer`), which is a property of the test, not a difference.
 */

let svc: TestService;
let p: string;
let rw: Rewrite;
/** Isolated run id → the original. */
const originalRun = new Map<string, string>();
const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Tributary's answer as Marquez would name things: prefix removed, run ids mapped back. */
function normalise(v: unknown): unknown {
  return mapStrings(v, (s) => s.split(p).join('').replace(UUID_G, (u) => originalRun.get(u.toLowerCase()) ?? u));
}

async function fetchJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(svc.baseUrl + url);
  const text = await res.text();
  let body: unknown = text === '' ? null : text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body };
}

const ours = (ns: unknown) => typeof ns === 'string' && ns.startsWith(p);

/**
 * Every item of a Marquez list across all pages of 1000 (Tributary's largest page), once each by
 * `identity`: other test files ingest while the pages are read, so an item can move to the next page
 * and be read twice (the events list is newest first).
 */
async function allPages(url: string, key: string, identity: (item: any) => string = (x) => JSON.stringify(x)): Promise<{ status: number; items: any[] }> {
  const seen = new Set<string>();
  const items: any[] = [];
  for (let offset = 0; ; offset += 1000) {
    const sep = url.includes('?') ? '&' : '?';
    const page = await fetchJson(`${url}${sep}limit=1000&offset=${offset}`);
    if (page.status !== 200) return { status: page.status, items };
    const got = (page.body?.[key] ?? []) as any[];
    for (const item of got) {
      const id = identity(item);
      if (!seen.has(id)) items.push(item);
      seen.add(id);
    }
    if (got.length < 1000) return { status: 200, items };
  }
}

/**
 * Tributary's answer to a recorded request. Requests within this test's namespaces are sent as they
 * are (prefix and run ids put in); lists across all namespaces are read whole and cut to this test's
 * namespaces, then paged as the request asked.
 */
async function answer(r: RecordedResponse): Promise<{ status: number; body: any; note?: string }> {
  const url = renderRequest(r.spec, rw);
  const q = new Map((r.spec.query ?? []).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const limit = Number(q.get('limit') ?? 100);
  switch (r.group) {
    case 'namespaces': {
      const all = await allPages('/api/v1/namespaces', 'namespaces', (n) => n?.name);
      return { status: all.status, body: { namespaces: all.items.filter((n) => ours(n.name)) } };
    }
    case 'jobs-all': {
      const all = await allPages('/api/v1/jobs', 'jobs', (j) => `${j?.namespace}:${j?.name}`);
      const mine = all.items.filter((j) => ours(j.namespace));
      return { status: all.status, body: { jobs: mine.slice(0, limit), totalCount: mine.length } };
    }
    case 'events': {
      const window = (r.spec.query ?? []).filter(([k]) => k !== 'limit' && k !== 'offset').map(([k, v]) => `${k}=${String(v)}`);
      const all = await allPages(`/api/v1/events/lineage${window.length ? `?${window.join('&')}` : ''}`, 'events');
      const mine = all.items.filter((e) => ours(e?.job?.namespace));
      return { status: all.status, body: { events: mine.slice(0, limit), totalCount: mine.length } };
    }
    case 'search': {
      const res = await fetchJson(url);
      if (res.status !== 200) return res;
      const results = (res.body.results as { namespace: string }[]).filter((x) => ours(x.namespace));
      // More hits than the page holds: other tests' names may push some of ours out of it.
      const crowded = (res.body.results as unknown[]).length >= limit;
      return { status: 200, body: { results, totalCount: results.length }, ...(crowded ? { note: 'crowded' } : {}) };
    }
    default:
      return fetchJson(url);
  }
}

before(async () => {
  // A refresher whose timer never fires: its record of the shapes run is what the last test reads.
  svc = await startService({ TRIBUTARY_PLAN_REFRESH_S: '3600' });
  p = uniquePrefix('mz-contract');
  rw = { ns: (n) => p + n, run: (r) => isolatedRunId(p, r) };
  const accepted = new Set(contract.events.filter((e) => e.status >= 200 && e.status < 300).map((e) => `${e.file}#${e.index}`));
  const events = contractEvents(repoRoot).filter((e) => accepted.has(`${e.file}#${e.index}`));
  assert.equal(events.length, accepted.size, 'the event set changed since the capture: run tools/marquez-contract/capture.ts again');
  for (const e of events) {
    collectFacts(e.event);
    for (const u of JSON.stringify(e.event).match(UUID_G) ?? []) originalRun.set(isolatedRunId(p, u), u.toLowerCase());
    const res = await svc.postEvent(isolate(e.event, p));
    assert.equal(res.status, 201, `${e.file}#${e.index}: ${JSON.stringify(res.body)}`);
  }
  settleFacts();
});
after(() => svc?.close());

const dump: { request: string; group: string; diffs: (Diff & { rule?: string })[] }[] = [];
after(() => {
  // For working on the allow-list: MARQUEZ_CONTRACT_DUMP=/tmp/x.json writes every diff with its class.
  if (process.env.MARQUEZ_CONTRACT_DUMP) fs.writeFileSync(process.env.MARQUEZ_CONTRACT_DUMP, JSON.stringify(dump, null, 1));
});

describe('Marquez 0.50 contract replay', () => {
  it('answers every recorded request like Marquez, up to the explained differences', async () => {
    const unexplained: string[] = [];
    for (const r of contract.responses) {
      const m = r.sameBodyAs !== undefined ? contract.responses[r.sameBodyAs]!.body : r.body;
      const got = await answer(r);
      const node = (r.spec.query ?? []).find(([k]) => k === 'nodeId')?.[1];
      const t = normalise(got.body);
      const c: Ctx = { r, m, t, start: node && typeof node !== 'string' ? node.node : null, note: got.note };
      const diffs: Diff[] = [];
      if (got.status !== r.status) diffs.push({ kind: 'value', path: '(status)', shape: '(status)', m: r.status, t: got.status });
      else if (r.droppedBytes === undefined) compareJson(m, t, '', '', diffs);
      const classified = diffs.map((d) => ({ ...d, rule: explain(d, c)?.id }));
      dump.push({ request: r.request, group: r.group, diffs: classified });
      for (const d of classified) if (!d.rule) unexplained.push(`${r.request}\n    ${d.kind} ${d.path}: marquez=${brief(d.m)} tributary=${brief(d.t)}`);
    }
    assert.equal(unexplained.length, 0, `${unexplained.length} unexplained differences from Marquez 0.50 (first 30):\n${unexplained.slice(0, 30).join('\n')}`);
  });
});


// ---------------------------------------------------------------------------------------------
// Marquez's own Python and Java clients (tools/marquez-clients) against Tributary, with the plan
// the capture ran against Marquez (tools/marquez-contract/events.ts sample()), moved into this
// test's prefix. Every call that succeeded against Marquez must succeed here, and its result must
// equal Marquez's after normalisation, up to the same explained classes.
// ---------------------------------------------------------------------------------------------

/** What each client call reads, as the request group of the contract (for the classes above) and the request it is about. */
function callContext(name: string, plan: ClientPlan): { group: string; spec: RequestSpec } {
  const ns = { ns: plan.namespace };
  const datasetPath: RequestSpec = { path: ['namespaces', ns, 'datasets', plan.dataset] };
  const depth: [string, string] = ['depth', String(plan.depth ?? 20)];
  const node = (n: NodeRef): [string, { node: NodeRef }] => ['nodeId', { node: n }];
  const n = name.toLowerCase().replace(/_/g, '');
  if (n.includes('columnlineage')) {
    const start: NodeRef = n.includes('byjob') || n.endsWith('job') ? { type: 'job', ns: plan.namespace, name: plan.job } : { type: 'dataset', ns: plan.namespace, name: plan.dataset };
    return { group: 'column-lineage', spec: { path: ['column-lineage'], query: [node(start), depth] } };
  }
  if (n.startsWith('getlineage')) {
    const start: NodeRef = n.endsWith('job') ? { type: 'job', ns: plan.namespace, name: plan.job } : { type: 'dataset', ns: plan.namespace, name: plan.dataset };
    return { group: 'lineage', spec: { path: ['lineage'], query: [node(start), depth] } };
  }
  if (n.includes('namespace')) return { group: 'namespaces', spec: { path: ['namespaces'] } };
  if (n.includes('source')) return { group: 'sources', spec: { path: ['sources'] } };
  if (n.includes('tags')) return { group: 'tags', spec: { path: ['tags'] } };
  if (n.includes('lineageevents')) return { group: 'events', spec: { path: ['events', 'lineage'] } };
  if (n.startsWith('search')) return { group: 'search', spec: { path: ['search'] } };
  if (n.includes('datasetversion')) return { group: 'versions', spec: { path: [...datasetPath.path, 'versions'] } };
  if (n === 'listdatasets') return { group: 'datasets', spec: { path: ['namespaces', ns, 'datasets'] } };
  if (n.includes('dataset')) return { group: 'dataset', spec: datasetPath };
  if (n.includes('jobversion')) return { group: 'job-versions', spec: { path: ['namespaces', ns, 'jobs', plan.job, 'versions'] } };
  if (n.includes('run')) return { group: 'runs', spec: { path: ['namespaces', ns, 'jobs', plan.job, 'runs'] } };
  if (n === 'listjobs') return { group: 'jobs', spec: { path: ['namespaces', ns, 'jobs'] } };
  return { group: 'job', spec: { path: ['namespaces', ns, 'jobs', plan.job] } };
}

/** A client's answer to a list across all namespaces, cut to this test's prefix; `crowded` when the page was full. */
function ownPart(group: string, result: unknown, limit: number): { result: unknown; crowded: boolean } {
  const keep = (x: any) => (group === 'events' ? ours(x?.job?.namespace) : group === 'namespaces' ? ours(x?.name) : ours(x?.namespace));
  const cut = (list: unknown[]) => ({ list: list.filter(keep), crowded: list.length >= limit });
  if (Array.isArray(result)) {
    const { list, crowded } = cut(result);
    return { result: list, crowded };
  }
  const r = result as Record<string, unknown>;
  const key = group === 'namespaces' ? 'namespaces' : group === 'search' ? 'results' : 'events';
  const { list, crowded } = cut((r?.[key] as unknown[]) ?? []);
  return { result: { ...r, [key]: list, ...('totalCount' in r ? { totalCount: list.length } : {}) }, crowded };
}

describe('Marquez 0.50 clients (Python and Java) against Tributary', () => {
  for (const lang of ['python', 'java'] as const) {
    it(`every ${lang} client call that worked against Marquez works here, with the same result up to the explained differences`, async () => {
      const recorded = JSON.parse(fs.readFileSync(path.join(fixtureDir, `clients-${lang}.json`), 'utf8')) as ClientReport;
      const { plan } = sample();
      const mine: ClientPlan = { ...plan, namespace: rw.ns(plan.namespace), runId: plan.runId ? rw.run(plan.runId) : undefined };
      const log = (line: string) => process.stdout.write(`# ${line}\n`);
      const report = lang === 'python' ? await runPythonClient(svc.baseUrl, mine, { log }) : await runJavaClient(svc.baseUrl, mine, { log });
      const problems: string[] = [];
      for (const [name, m] of Object.entries(recorded)) {
        if (!m.ok) continue;
        const got = report[name];
        if (!got?.ok) {
          problems.push(`${name}: failed here (${got?.status ?? '-'} ${got?.request ?? ''}): ${got?.error?.slice(0, 300) ?? 'not called'}`);
          continue;
        }
        const { group, spec } = callContext(name, plan);
        const limit = Number(/[?&]limit=(\d+)/.exec(m.request ?? '')?.[1] ?? 100);
        const global = ['namespaces', 'events', 'search'].includes(group) && !name.toLowerCase().startsWith('get');
        const own = global ? ownPart(group, got.result, limit) : { result: got.result, crowded: false };
        const t = normalise(own.result);
        const r: RecordedResponse = { group, request: `${lang} ${name}: ${m.request}`, spec, status: m.status ?? 200, body: m.result };
        const start = (spec.query ?? []).find(([k]) => k === 'nodeId')?.[1];
        const c: Ctx = { r, m: m.result, t, start: start && typeof start !== 'string' ? start.node : null, ...(own.crowded ? { note: 'crowded' } : {}) };
        // A versioned column-lineage request: both sides' ids carry `#<version>` (Marquez's random
        // version UUIDs, Tributary's derived ones), so they are compared without it, once it is
        // checked that Tributary writes them where Marquez does.
        let mResult = m.result;
        let tResult = t;
        const diffs: Diff[] = [];
        if (group === 'column-lineage' && /nodeId=[^&]*%23/.test(m.request ?? '')) {
          const strip = (v: unknown) => mapStrings(v, (x) => x.replace(/(^datasetField:.*)#[0-9a-f-]{36}$/i, '$1'));
          const versioned = (v: unknown) => JSON.stringify(strip(v)) !== JSON.stringify(v);
          if (versioned(m.result) && !versioned(t)) diffs.push({ kind: 'value', path: '(versioned ids)', shape: '(versioned ids)', m: '#<version> suffixes', t: 'none' });
          mResult = strip(m.result);
          tResult = strip(t);
        }
        c.m = mResult;
        c.t = tResult;
        diffs.push(...compareJson(mResult, tResult));
        const classified = diffs.map((d) => ({ ...d, rule: explain(d, c)?.id }));
        dump.push({ request: r.request, group, diffs: classified });
        for (const d of classified) if (!d.rule) problems.push(`${name} ${d.kind} ${d.path}: marquez=${brief(d.m)} tributary=${brief(d.t)}`);
      }
      assert.equal(problems.length, 0, `${problems.length} unexplained differences of the ${lang} client from Marquez 0.50 (first 30):\n${problems.slice(0, 30).join('\n')}`);
    });
  }
});

describe('the plans the Marquez API needs', () => {
  it('were all compiled by the default warm-up: every request and client call above ran only shapes it compiles', () => {
    const ran = new Set(svc.app.refresher!.shapes.list().map((s) => s.query).filter((q) => q.startsWith('marquez/')));
    assert.ok(ran.size >= 15, `marquez/ queries recorded: ${[...ran].join(', ')}`);
    assert.deepEqual(shapesColdAfterWarmUp(svc), []);
  });
});
