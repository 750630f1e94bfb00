import fs from 'node:fs';
import path from 'node:path';
import { ensureJavaClient, ensurePythonClient, runJavaClient, runPythonClient, type ClientReport, type Log } from '../marquez-clients/clients';
import { findRepo, startMarquez, toolRun } from '../marquez-clients/baseline';
import { contractEvents, sample } from './events';
import { renderRequest, type NodeRef, type RequestSpec } from './requests';

/**
 * Captures what real Marquez 0.50.0 answers, as a fixture that test/api/marquez-contract.test.ts
 * replays against Tributary (see README.md beside this file):
 *
 *   npx tsc -p tsconfig.json && node dist/tools/marquez-contract/capture.js [--url URL] [--out-dir DIR]
 *
 * 1. starts Marquez (tools/marquez-clients/sample.ts startMarquez: ../shared/marquez-baseline/run.sh,
 *    FRESH=1, free ports) unless --url names a running, EMPTY one;
 * 2. posts the fixed event set (events.ts) one by one and records each status (Marquez answers 422
 *    to facets without _producer/_schemaURL; those events are left out of the replay);
 * 3. sends the GET requests Marquez's web UI and clients send (../shared/marquez-api/CONTRACT.md
 *    sections 2-3), each built from earlier answers, and records status and body;
 * 4. runs Marquez's Python and Java clients (tools/marquez-clients) on the client sample;
 * 5. writes test/fixtures/marquez-0.50/{contract,clients-python,clients-java}.json.
 */

export interface RecordedResponse {
  /** What the request is about (README's table counts them by group). */
  group: string;
  /** "GET /api/v1/..." as sent (path segments encoded like the web UI). */
  request: string;
  spec: RequestSpec;
  status: number;
  /** The parsed JSON body (a string when it is not JSON, null when empty or dropped). */
  body: unknown;
  /** Set when the body is the same as an earlier response's (the body is then null): that response's index. */
  sameBodyAs?: number;
  /** Set when the body was left out to keep the fixture small: its size in bytes. */
  droppedBytes?: number;
}

export interface ContractFixture {
  marquez: string;
  capturedAt: string;
  events: { file: string; index: number; status: number; error?: string }[];
  responses: RecordedResponse[];
  timings: Record<string, number>;
}

/** The fixture's largest bodies are dropped until it is under this size. */
const MAX_FIXTURE_BYTES = 3_000_000;

/** Jobs and datasets (besides every one of food_delivery) whose table lineage is captured: a few of each capture. */
const LINEAGE_PICKS: { type: 'job' | 'dataset'; ns: string; name: RegExp }[] = [
  { type: 'job', ns: 'debezium', name: /^pg\.0$/ },
  { type: 'dataset', ns: 'postgres://127.0.0.1:15432', name: /^shop\.shop\.orders$/ },
  { type: 'job', ns: 'flink-streaming', name: /enrich-orders$/ },
  { type: 'job', ns: 'flink-streaming', name: /orders-by-country$/ },
  { type: 'job', ns: 'spark-batch', name: /^orders_by_country$/ },
  { type: 'job', ns: 'spark-batch', name: /adaptive_spark_plan\.warehouse_revenue_by_country$/ },
  { type: 'job', ns: 'spark-batch', name: /overwrite_by_expression\.lake_shop_revenue_summary$/ },
  { type: 'job', ns: 'spark-batch', name: /atomic_replace_table_as_select\.default_region_performance$/ },
  { type: 'dataset', ns: 'file', name: /^\/tmp\/sparkcap\/warehouse\/revenue_by_country$/ },
  { type: 'dataset', ns: 'file', name: /\/warehouse\/shop\/revenue_summary$/ },
  { type: 'job', ns: 'clients_sample', name: /^etl\.order_summary$/ },
  { type: 'dataset', ns: 'clients_sample', name: /^public\.orders$/ },
];

const SEARCHES: { q: string; filter?: 'JOB' | 'DATASET'; sort?: string }[] = [
  { q: 'orders' },
  { q: 'orders', filter: 'JOB' },
  { q: 'orders', filter: 'DATASET' },
  { q: 'delivery' },
  { q: 'revenue' },
  { q: 'region', sort: 'UPDATE_AT' },
  { q: 'customer' },
  { q: 'enrich' },
  { q: 'summary', filter: 'DATASET' },
];

const EVENT_WINDOWS: [string, string][][] = [
  [['limit', '50']],
  [['limit', '50'], ['before', '2020-02-23T00:00:00.000Z'], ['after', '2020-02-22T00:00:00.000Z'], ['offset', '0'], ['sortDirection', 'desc']],
  [['limit', '50'], ['before', '2026-12-02T02:36:00.000Z'], ['after', '2026-12-02T02:34:00.000Z'], ['offset', '0'], ['sortDirection', 'asc']],
];

async function main(): Promise<void> {
  const { opt, log, timings, timed } = toolRun(process.argv.slice(2));
  const repo = findRepo();
  const outDir = opt('out-dir') ?? path.join(repo, 'test', 'fixtures', 'marquez-0.50');
  const cleanup: (() => void)[] = [];
  const t0 = Date.now();
  try {
    const url = opt('url') ?? (await timed('marquezStart', async () => (await startMarquez(repo, log, cleanup)).url));
    const all = contractEvents(repo);
    const events = await timed('ingest', () => ingest(url, all));
    const accepted = events.filter((e) => e.status >= 200 && e.status < 300).length;
    log(`${accepted}/${events.length} events accepted`);
    for (const e of events.filter((x) => x.status < 200 || x.status >= 300)) log(`  refused ${e.file}#${e.index}: ${e.status} ${e.error?.slice(0, 200) ?? ''}`);
    const responses = await timed('requests', () => capture(url, log));
    const { plan } = sample();
    await timed('ensureClients', async () => {
      await ensurePythonClient(log);
      await ensureJavaClient(log);
    });
    const clients: Record<string, ClientReport> = {};
    clients.python = await timed('pythonClient', () => runPythonClient(url, plan));
    clients.java = await timed('javaClient', () => runJavaClient(url, plan));
    timings.total = Math.round((Date.now() - t0) / 100) / 10;
    const fixture: ContractFixture = { marquez: '0.50.0', capturedAt: new Date().toISOString(), events, responses, timings };
    const dropped = shrink(fixture);
    for (const d of dropped) log(`  dropped the body of ${d.request} (${d.droppedBytes} bytes)`);
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, 'contract.json');
    fs.writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
    log(`${responses.length} responses -> ${file} (${fs.statSync(file).size} bytes)`);
    const groups = new Map<string, number>();
    for (const r of responses) groups.set(r.group, (groups.get(r.group) ?? 0) + 1);
    log(`by group: ${[...groups].map(([g, n]) => `${g} ${n}`).join(', ')}`);
    for (const [lang, report] of Object.entries(clients)) {
      const out = path.join(outDir, `clients-${lang}.json`);
      fs.writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
      const failed = Object.entries(report).filter(([, c]) => !c.ok);
      log(`${lang}: ${Object.keys(report).length - failed.length}/${Object.keys(report).length} ok -> ${out}`);
      for (const [name, c] of failed) log(`  ${name}: ${c.status ?? '-'} ${c.request ?? ''} ${c.error?.slice(0, 160) ?? ''}`);
    }
    log(`timings ${JSON.stringify(timings)}`);
  } finally {
    for (const c of cleanup.reverse()) c();
  }
}

/** Marquez's NamespaceName pattern (marquez.service.models.NamespaceName). */
const MARQUEZ_NAMESPACE = /^[a-zA-Z:;=/0-9_\-.@+]{1,1024}$/;

/** The namespaces of an event that Marquez cannot name (wherever isolate() would rewrite one: objects with a namespace and a name or field). */
export function unnameableNamespaces(event: unknown): string[] {
  const bad = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (typeof o.namespace === 'string' && ('name' in o || 'field' in o) && !MARQUEZ_NAMESPACE.test(o.namespace)) bad.add(o.namespace);
    Object.values(o).forEach(walk);
  };
  walk(event);
  return [...bad];
}

async function ingest(url: string, all: ReturnType<typeof contractEvents>): Promise<ContractFixture['events']> {
  const out: ContractFixture['events'] = [];
  for (const { file, index, event } of all) {
    // Marquez 0.50 writes such a namespace's row before it validates the name, then answers 400 (or
    // even 201) and from then on answers 500 to GET /api/v1/namespaces, /jobs, /sources and /search
    // (every read that lists namespaces). Those events are not sent: status 0, with the reason.
    const bad = unnameableNamespaces(event);
    if (bad.length) {
      out.push({ file, index, status: 0, error: `not sent: namespace ${bad.map((b) => JSON.stringify(b)).join(', ')} is outside Marquez's NamespaceName pattern (sending it breaks Marquez's namespace lists)` });
      continue;
    }
    const res = await fetch(`${url}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    const text = await res.text();
    out.push({ file, index, status: res.status, ...(res.ok ? {} : { error: text.slice(0, 300) }) });
  }
  return out;
}

interface Job {
  namespace: string;
  name: string;
}
interface Dataset {
  namespace: string;
  name: string;
  columnLineage: unknown[] | null;
}

async function capture(url: string, log: Log): Promise<RecordedResponse[]> {
  const out: RecordedResponse[] = [];
  const get = async (group: string, spec: RequestSpec): Promise<any> => {
    const request = renderRequest(spec);
    const res = await fetch(url + request);
    const text = await res.text();
    let body: unknown = text === '' ? null : text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    out.push({ group, request: `GET ${request}`, spec, status: res.status, body });
    if (res.status >= 500) log(`  ${res.status} GET ${request}: ${text.slice(0, 200)}`);
    return res.ok ? body : null;
  };

  const namespaces = ((await get('namespaces', { path: ['namespaces'] }))?.namespaces ?? []).map((n: { name: string }) => n.name) as string[];
  await get('tags', { path: ['tags'] });
  await get('sources', { path: ['sources'] });
  await get('jobs-all', { path: ['jobs'], query: [['limit', '10'], ['offset', '0']] });

  const jobs: Job[] = [];
  const datasets: Dataset[] = [];
  for (const ns of namespaces) {
    for (let offset = 0; ; offset += 20) {
      const page = await get('jobs', { path: ['namespaces', { ns }, 'jobs'], query: [['limit', '20'], ['offset', String(offset)]] });
      jobs.push(...((page?.jobs ?? []) as Job[]).map((j) => ({ namespace: j.namespace, name: j.name })));
      if (!page || offset + 20 >= page.totalCount) break;
    }
    for (let offset = 0; ; offset += 20) {
      const page = await get('datasets', { path: ['namespaces', { ns }, 'datasets'], query: [['limit', '20'], ['offset', String(offset)]] });
      if (!page || offset + 20 >= page.totalCount) break;
    }
  }
  for (const j of jobs) {
    await get('job', { path: ['namespaces', { ns: j.namespace }, 'jobs', j.name] });
    const runs = await get('runs', { path: ['namespaces', { ns: j.namespace }, 'jobs', j.name, 'runs'], query: [['limit', '14'], ['offset', '0']] });
    for (const r of (runs?.runs ?? []) as { id: string }[]) {
      for (const type of ['job', 'run']) await get('run-facets', { path: ['jobs', 'runs', { run: r.id }, 'facets'], query: [['type', type]] });
    }
  }
  for (const ns of namespaces) {
    // The listing again with a page large enough for every dataset of the namespace (the rows are read from it).
    const all = await fetch(url + renderRequest({ path: ['namespaces', { ns }, 'datasets'], query: [['limit', '1000']] })).then((r) => (r.ok ? (r.json() as Promise<{ datasets: Dataset[] }>) : { datasets: [] }));
    for (const d of all.datasets) {
      const full = (await get('dataset', { path: ['namespaces', { ns }, 'datasets', d.name] })) as Dataset | null;
      if (full) datasets.push(full);
      await get('versions', { path: ['namespaces', { ns }, 'datasets', d.name, 'versions'], query: [['limit', '10'], ['offset', '0']] });
    }
  }

  const lineageNodes: NodeRef[] = [
    ...jobs.filter((j) => j.namespace === 'food_delivery').map((j): NodeRef => ({ type: 'job', ns: j.namespace, name: j.name })),
    ...datasets.filter((d) => d.namespace === 'food_delivery').map((d): NodeRef => ({ type: 'dataset', ns: d.namespace, name: d.name })),
  ];
  for (const pick of LINEAGE_PICKS) {
    const found = (pick.type === 'job' ? jobs : datasets).find((x) => x.namespace === pick.ns && pick.name.test(x.name));
    if (found) lineageNodes.push({ type: pick.type, ns: found.namespace, name: found.name });
    else log(`  no ${pick.type} ${pick.ns} ${pick.name} in Marquez's answers`);
  }
  for (const node of lineageNodes) {
    for (const depth of ['2', '20']) await get('lineage', { path: ['lineage'], query: [['nodeId', { node }], ['depth', depth]] });
  }
  for (const d of datasets.filter((x) => x.columnLineage !== null)) {
    await get('column-lineage', { path: ['column-lineage'], query: [['nodeId', { node: { type: 'dataset', ns: d.namespace, name: d.name } }], ['depth', '2'], ['withDownstream', 'true']] });
  }
  for (const s of SEARCHES) {
    await get('search', { path: ['search'], query: [['q', s.q], ...(s.filter ? [['filter', s.filter] as [string, string]] : []), ['sort', s.sort ?? 'NAME'], ['limit', '100']] });
  }
  for (const query of EVENT_WINDOWS) await get('events', { path: ['events', 'lineage'], query });

  // A few misses, as the UI meets them.
  await get('errors', { path: ['namespaces', { ns: 'food_delivery' }, 'jobs', 'no_such_job'] });
  await get('errors', { path: ['namespaces', { ns: 'food_delivery' }, 'datasets', 'public.no_such_table'] });
  await get('errors', { path: ['namespaces', { ns: 'no_such_namespace' }, 'datasets'], query: [['limit', '20'], ['offset', '0']] });
  await get('errors', { path: ['lineage'], query: [['nodeId', { node: { type: 'dataset', ns: 'food_delivery', name: 'public.no_such_table' } }], ['depth', '2']] });
  await get('errors', { path: ['column-lineage'], query: [['nodeId', { node: { type: 'dataset', ns: 'food_delivery', name: 'public.categories' } }], ['depth', '2'], ['withDownstream', 'true']] });
  return out;
}

/**
 * Writes a body that repeats an earlier one as a reference to it (the depth-2 and depth-20 lineage
 * of a connected graph are often the same), then drops the largest bodies until the fixture is under
 * MAX_FIXTURE_BYTES; returns the responses dropped.
 */
function shrink(fixture: ContractFixture): RecordedResponse[] {
  const seen = new Map<string, number>();
  fixture.responses.forEach((r, i) => {
    if (r.body === null || typeof r.body !== 'object') return;
    const text = JSON.stringify(r.body);
    const first = seen.get(text);
    if (first === undefined) seen.set(text, i);
    else {
      r.body = null;
      r.sameBodyAs = first;
    }
  });
  const dropped: RecordedResponse[] = [];
  const size = () => Buffer.byteLength(JSON.stringify(fixture, null, 1));
  let total = size();
  while (total > MAX_FIXTURE_BYTES) {
    const sizes = fixture.responses.filter((r) => r.droppedBytes === undefined && r.sameBodyAs === undefined && !fixture.responses.some((o) => o.sameBodyAs !== undefined && fixture.responses[o.sameBodyAs] === r)).map((r) => ({ r, n: Buffer.byteLength(JSON.stringify(r.body, null, 1)) }));
    const largest = sizes.sort((a, b) => b.n - a.n)[0];
    if (!largest) break;
    largest.r.body = null;
    largest.r.droppedBytes = largest.n;
    dropped.push(largest.r);
    total -= largest.n;
  }
  return dropped;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
