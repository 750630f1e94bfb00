import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDriver } from '../src/graph/driver';
import { startEmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { Query } from '../src/graph/queries';
import { datasetId, fieldId } from '../src/ids';
import { compactPlan } from '../src/ingest/compact';
import { emptyPlan, planEvent } from '../src/ingest/plan';
import { storedEventRow } from '../src/ingest/stored-event';
import { validateEvent } from '../src/ingest/validate';
import { LineageService } from '../src/lineage/lineage-service';
import { Direction, Granularity } from '../src/lineage/types';
import { createLogger } from '../src/log';
import { bareSchema, bareWrite } from './bare-loader';
import { generate, SIZES } from './generator';

/**
 * `npm run bench -- [S|M|L]`: generates a lineage stream of that size, then in one run measures
 *  - ingestion through the HTTP batch endpoint (4 concurrent clients), and the lower bound: the
 *    same graph written by a bare UNWIND loader (bare-loader.ts) with the same constraints, both
 *    after a warm-up on a disjoint stream;
 *  - queries over GraphQL/HTTP (p50, p95, p99 over many start nodes) and, for lineage, the same
 *    traversal through the bare Cypher (the service's expansion queries on the driver alone);
 *  - memory: this process's RSS and Neo4j's heap (JMX) and page cache setting.
 * Prints markdown tables and a one-line summary, and writes them to bench/REPORT-<size>.md.
 * Uses a throwaway embedded Neo4j (its own store, recreated) unless NEO4J_URI is set.
 */
async function main() {
  const size = (process.argv[2] ?? 'S').toUpperCase();
  const spec = SIZES[size];
  if (!spec) throw new Error(`size must be one of ${Object.keys(SIZES).join(', ')}`);
  let config = loadConfig();
  const log = createLogger('warn');
  const home = path.join(config.embedded.home, `bench-${size}`);
  fs.rmSync(home, { recursive: true, force: true });
  const neo4j = config.neo4j ? null : await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '4g', pageCache: '4g' }, log);
  if (neo4j) config = { ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } };
  const app = await createApp({ ...config, graphql: { maxDepth: 30, maxComplexity: 1_000_000 } }, log);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const lines: string[] = [];
  const out = (s = '') => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
  };

  const t0 = Date.now();
  const { events, outputs } = generate({ ...spec, seed: 42 });
  const bytes = JSON.stringify(events).length;
  out(`# Tributary benchmark, size ${size}`);
  out();
  out(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}; Neo4j 5.26 (embedded, heap 4g, page cache 4g); ${new Date().toISOString()}`);
  out(`Stream: ${spec.jobs} jobs, ${events.length} events, ${(bytes / 1e6).toFixed(1)} MB, generated in ${Date.now() - t0} ms (seed 42)`);
  out();

  // --- ingestion -----------------------------------------------------------------------------
  const post = async (body: unknown) => {
    const res = await fetch(`${url}/api/v1/lineage/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`batch: ${res.status} ${await res.text()}`);
  };
  const driver = createDriver(config.neo4j!);
  await bareSchema(driver);
  const viaHttp = (stream: Record<string, unknown>[]) => async () => {
    const chunks = batchesOf(stream, 100);
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < chunks.length) await post(chunks[next++]);
    }));
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
  // Warm-up, not measured: both paths on a stream sharing no names with the measured one (a tenth
  // of its size), so that neither pays alone for the JVM's JIT, Node's JIT or plan compilation.
  const warm = generate({ ...spec, jobs: Math.ceil(spec.jobs / 10), seed: 7, nameOffset: 10_000_000 }).events;
  await viaHttp(warm)();
  await viaBare(warm)();
  const ingestT = await timed(viaHttp(events));
  const bareT = await timed(viaBare(events));
  out('## Ingestion');
  out();
  out('| path | events | seconds | events/s | MB/s | ratio to lower bound |');
  out('|---|---|---|---|---|---|');
  out(`| Tributary, HTTP batch endpoint (100/request, 4 clients) | ${events.length} | ${s(ingestT)} | ${rate(events.length, ingestT)} | ${(bytes / 1e6 / ingestT).toFixed(2)} | ${(bareT / ingestT).toFixed(2)} |`);
  out(`| lower bound: bare UNWIND loader, same nodes, relationships, properties and raw events, same constraints (4 writers) | ${events.length} | ${s(bareT)} | ${rate(events.length, bareT)} | ${(bytes / 1e6 / bareT).toFixed(2)} | 1.00 |`);
  out();

  // --- queries -------------------------------------------------------------------------------
  const deep = outputs.filter((o) => o.layer >= spec.layers - 3).slice(0, 40);
  const shallow = outputs.filter((o) => o.layer === 0).slice(0, 40);
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
  };
  const LINEAGE = `query($id: ID!, $depth: Int, $g: Granularity) { lineage(nodeId: $id, direction: UPSTREAM, depth: $depth, granularity: $g) { truncated nodes { id distance } edges { fromId toId type } } }`;
  const bare = new LineageService(app.executor, config.lineage);
  const cases: { name: string; run: (i: number) => Promise<void>; bare?: (i: number) => Promise<void> }[] = [];
  for (const depth of [1, 5, 20]) {
    const id = (i: number) => datasetId(deep[i % deep.length]!.namespace, deep[i % deep.length]!.name);
    cases.push({
      name: `lineage DATASET upstream depth ${depth}`,
      run: (i) => gql(LINEAGE, { id: id(i), depth, g: 'DATASET' }),
      bare: async (i) => void (await bare.lineage(id(i), Direction.UPSTREAM, depth, { granularity: Granularity.DATASET })),
    });
    const fid = (i: number) => {
      const o = deep[i % deep.length]!;
      return fieldId(o.namespace, o.name, o.fields[0]!);
    };
    cases.push({
      name: `lineage FIELD upstream depth ${depth}`,
      run: (i) => gql(LINEAGE, { id: fid(i), depth, g: 'FIELD' }),
      bare: async (i) => void (await bare.lineage(fid(i), Direction.UPSTREAM, depth, { granularity: Granularity.FIELD })),
    });
  }
  cases.push({
    name: 'trace upstream (field, depth 20)',
    run: (i) => gql(`query($id: ID!) { trace(nodeId: $id, depth: 20) { hops { fromId } firstPrecisionLoss { distance } } }`, {
      id: fieldId(deep[i % deep.length]!.namespace, deep[i % deep.length]!.name, deep[i % deep.length]!.fields[0]!),
    }),
  });
  cases.push({
    name: 'blastRadius (source topic, depth 20, first 100)',
    run: (i) => gql(`query($id: ID!) { blastRadius(nodeId: $id, depth: 20, first: 100) { totals { items } items { id } } }`, {
      id: datasetId(shallow[i % shallow.length]!.namespace, shallow[i % shallow.length]!.name),
    }),
  });
  cases.push({ name: 'coverage ALL', run: () => gql(`{ coverage { overall { edges columnLevel } byEngine { key edges } } }`, {}) });
  out('## Queries (GraphQL over HTTP; bare = the same traversal on the driver, no HTTP/GraphQL)');
  out();
  out('| query | n | p50 ms | p95 ms | p99 ms | bare p50 ms | overhead ratio (p50) |');
  out('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const n = c.name.startsWith('coverage') ? 10 : 40;
    await c.run(0); // first call: plan and JIT warm-up, not measured
    const t = await samples(n, c.run);
    let bareCol = '| – | –';
    if (c.bare) {
      await c.bare(0);
      const b = await samples(n, c.bare);
      bareCol = `| ${b.p50.toFixed(1)} | ${(t.p50 / b.p50).toFixed(2)}`;
    }
    out(`| ${c.name} | ${n} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} | ${t.p99.toFixed(1)} ${bareCol} |`);
  }
  out();

  // --- memory --------------------------------------------------------------------------------
  const jmx = await app.executor.read(Query.SchemaApplied, { names: [] }).then(
    async () => {
      const sess = driver.session();
      try {
        const r = await sess.run("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties.used AS used");
        return Number(r.records[0]?.get('used') ?? 0);
      } catch {
        return 0;
      } finally {
        await sess.close();
      }
    },
  );
  out('## Memory');
  out();
  out(`Service (bench client in the same process) RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB; Neo4j heap used: ${(jmx / 2 ** 20).toFixed(0)} MiB of 4096; page cache: 4 GiB configured.`);
  out();
  out(`Summary: size ${size}, ${events.length} events ingested at ${rate(events.length, ingestT)} events/s (${(bareT / ingestT).toFixed(2)}× the bare-UNWIND lower bound); queries in the table above.`);
  fs.writeFileSync(path.join(__dirname, '..', '..', 'bench', `REPORT-${size}.md`), lines.join('\n') + '\n');
  await driver.close();
  await app.close();
  await neo4j?.stop();
}

function batchesOf<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

async function timed(work: () => Promise<void>): Promise<number> {
  const t = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

async function samples(n: number, run: (i: number) => Promise<void>) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

const s = (x: number) => x.toFixed(2);
const rate = (n: number, secs: number) => Math.round(n / secs);

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
