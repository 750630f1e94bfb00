import type http from 'node:http';
import { postJson } from './http-client';
import type { App } from '../src/app';
import type { WarmUpResult } from '../src/graph/warmup';
import type { Config } from '../src/config-types';
import { datasetId, fieldId } from '../src/ids';
import { Bucket, CoverageScope, CoverageService } from '../src/lineage/coverage-service';
import { DiffService } from '../src/lineage/diff-service';
import { ImpactService } from '../src/lineage/impact-service';
import { LineageService } from '../src/lineage/lineage-service';
import { PathService } from '../src/lineage/path-service';
import { TraceService } from '../src/lineage/trace-service';
import { Direction, Granularity } from '../src/lineage/types';
import type { Output } from './generator';

/**
 * The query phase of `npm run bench` (run.ts): the cases, each a GraphQL request over HTTP and,
 * where one exists, the same service call on the driver alone ("bare"), and their measurement
 * (p50, p95, p99 over many start nodes, each case's first call not measured).
 */

export interface QueryCase {
  name: string;
  /** One request for start `i`; resolves to the result's size. */
  run: (i: number) => Promise<number>;
  bare?: (i: number) => Promise<number>;
}

export interface QueryResult {
  name: string;
  n: number;
  /** Median result size: lineage nodes, trace hops, all impact items; for coverage, engines. */
  size: number;
  p50: number;
  p95: number;
  p99: number;
  bareP50: number | null;
}

/** What the cases start from: the service, and the outputs the generator made (names, layers, column lineage). */
export interface CaseInputs {
  app: App;
  config: Config;
  agent: http.Agent;
  port: number;
  outputs: Output[];
  /** The size's number of layers (the deepest outputs are in the last three). */
  layers: number;
  /** The lineage diff's start: the median event time. */
  diffFrom: string;
}

export async function queryCases({ app, config, agent, port, outputs, layers, diffFrom }: CaseInputs): Promise<QueryCase[]> {
  const deep = outputs.filter((o) => o.layer >= layers - 3).slice(0, 40);
  // Field lineage starts at outputs of jobs that report column lineage (elsewhere it is empty).
  const deepCll = outputs.filter((o) => o.layer >= layers - 3 && o.columnLineage).slice(0, 40);
  const shallow = outputs.filter((o) => o.layer === 0).slice(0, 40);
  const gql = async (query: string, variables: Record<string, unknown>, size: (data: Record<string, unknown>) => number = resultSize) => {
    const res = await postJson(agent, port, '/graphql', { query, variables });
    const body = JSON.parse(res.text) as { errors?: unknown[]; data?: Record<string, unknown> };
    if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
    return size(body.data ?? {});
  };
  const LINEAGE = `query($id: ID!, $depth: Int, $g: Granularity) { lineage(nodeId: $id, direction: UPSTREAM, depth: $depth, granularity: $g) { truncated nodes { id distance } edges { fromId toId type } } }`;
  const bare = new LineageService(app.executor, config.lineage);
  const traces = new TraceService(app.executor, config.lineage);
  const impact = new ImpactService(app.executor, traces, { ...config.lineage, maxPage: 500 });
  const coverage = new CoverageService(app.executor, config.lineage);
  const traceId = (i: number) => fieldId(deepCll[i % deepCll.length]!.namespace, deepCll[i % deepCll.length]!.name, deepCll[i % deepCll.length]!.fields[0]!);
  const sourceId = (i: number) => datasetId(shallow[i % shallow.length]!.namespace, shallow[i % shallow.length]!.name);
  const cases: QueryCase[] = [];
  for (const depth of [1, 5, 20]) {
    const id = (i: number) => datasetId(deep[i % deep.length]!.namespace, deep[i % deep.length]!.name);
    cases.push({
      name: `lineage DATASET upstream depth ${depth}`,
      run: (i) => gql(LINEAGE, { id: id(i), depth, g: 'DATASET' }),
      bare: async (i) => (await bare.lineage(id(i), Direction.UPSTREAM, depth, { granularity: Granularity.DATASET })).nodes.length,
    });
    const fid = (i: number) => {
      const o = deepCll[i % deepCll.length]!;
      return fieldId(o.namespace, o.name, o.fields[0]!);
    };
    cases.push({
      name: `lineage FIELD upstream depth ${depth}`,
      run: (i) => gql(LINEAGE, { id: fid(i), depth, g: 'FIELD' }),
      bare: async (i) => (await bare.lineage(fid(i), Direction.UPSTREAM, depth, { granularity: Granularity.FIELD })).nodes.length,
    });
  }
  cases.push({
    name: 'trace upstream (field, depth 20)',
    run: (i) => gql(`query($id: ID!) { trace(nodeId: $id, depth: 20) { hops { fromId } firstPrecisionLoss { distance } } }`, { id: traceId(i) }),
    bare: async (i) => (await traces.trace(traceId(i), Direction.UPSTREAM, 20, null)).hops.length,
  });
  cases.push({
    name: 'blastRadius (source topic, depth 20, first 100)',
    // Size: every item the walk reached (totals.items), not the page of 100.
    run: (i) =>
      gql(`query($id: ID!) { blastRadius(nodeId: $id, depth: 20, first: 100) { totals { items } items { id } } }`, { id: sourceId(i) }, (d) =>
        Number((d.blastRadius as { totals: { items: number } }).totals.items),
      ),
    bare: async (i) => (await impact.blastRadius({ nodeId: sourceId(i), depth: 20, first: 100, offset: 0 })).total,
  });
  // A path from the most distant dataset upstream of each deep output (found before timing) to it.
  const paths = new PathService(app.executor, config.lineage);
  const pathPairs: { from: string; to: string }[] = [];
  for (const o of deep.slice(0, 20)) {
    const to = datasetId(o.namespace, o.name);
    const up = await bare.lineage(to, Direction.UPSTREAM, 20, { granularity: Granularity.DATASET });
    // The most distant that a path reaches (paths follow current edges and do not cross symlinks).
    const far = up.nodes.filter((n) => n.kind === 'DATASET' && n.id !== to).sort((a, b) => b.distance - a.distance).slice(0, 5);
    for (const f of far) {
      if (!(await paths.paths(f.id, to, Granularity.DATASET, 20, 1)).found) continue;
      pathPairs.push({ from: f.id, to });
      break;
    }
  }
  if (pathPairs.length > 0) {
    const pair = (i: number) => pathPairs[i % pathPairs.length]!;
    cases.push({
      name: 'path (most distant upstream dataset → deep output, shortest)',
      run: (i) =>
        gql(`query($a: ID!, $b: ID!) { path(fromId: $a, toId: $b, maxLength: 20) { found paths { length } } }`, { a: pair(i).from, b: pair(i).to }, (d) =>
          Number((d.path as { paths: { length: number }[] }).paths[0]?.length ?? 0),
        ),
      bare: async (i) => (await paths.paths(pair(i).from, pair(i).to, Granularity.DATASET, 20, 1)).paths[0]?.length ?? 0,
    });
  }
  // Search: a table's own name (a few hits), and a word every Spark table's name has (thousands).
  const SEARCH = `query($t: String!) { search(text: $t, first: 20) { total hits { id } } }`;
  const searchTotal = (d: Record<string, unknown>) => Number((d.search as { total: number }).total);
  cases.push({ name: 'search a table name (first 20)', run: (i) => gql(SEARCH, { t: deep[i % deep.length]!.name }, searchTotal) });
  cases.push({ name: 'search "table" (first 20 of thousands)', run: () => gql(SEARCH, { t: 'table' }, searchTotal) });
  cases.push({
    name: 'coverage ALL',
    run: () => gql(`{ coverage { overall { edges columnLevel } byEngine { key edges } } }`, {}),
    bare: async () => (await coverage.coverage(CoverageScope.ALL, null, Bucket.WEEK)).byEngine.length,
  });
  cases.push({
    name: 'coverageGaps ALL (first 20)',
    run: () => gql(`{ coverageGaps(first: 20) { totalGaps gaps { jobId downstreamDatasets } } }`, {}, (d) => Number((d.coverageGaps as { totalGaps: number }).totalGaps)),
    bare: async () => (await coverage.gaps(CoverageScope.ALL, null, 20)).totalGaps,
  });
  // Lineage diff from the median event time to now; the alert check's read is one current snapshot of every job.
  const diffs = new DiffService(app.executor, config.lineage);
  const diffRequest = { scope: CoverageScope.ALL, value: null, from: diffFrom, to: null, kinds: null, first: 100, offset: 0 };
  cases.push({
    name: 'lineageDiff ALL (median event time → now, first 100)',
    run: () =>
      gql(`query($from: String!) { lineageDiff(from: $from, first: 100) { changes { total items { kind jobId datasetId } } coverageFrom { edges } coverageTo { edges } } }`, { from: diffFrom }, (d) =>
        Number((d.lineageDiff as { changes: { total: number } }).changes.total),
      ),
    bare: async () => (await diffs.diff(diffRequest)).total,
  });
  cases.push({
    name: 'alert check read (current snapshot ALL)',
    run: async () => (await diffs.snapshot(CoverageScope.ALL, null, null)).edges.size,
  });
  cases.push({
    name: 'lineageBreaks ALL',
    run: () =>
      gql(`{ lineageBreaks { truncated sources { id } probableMatches { sourceId writtenId strength } } }`, {}, (d) =>
        Number((d.lineageBreaks as { probableMatches: unknown[] }).probableMatches.length),
      ),
  });
  cases.push({
    name: 'identity (dataset)',
    run: (i) => gql(`query($id: ID!) { identity(id: $id) { names { id source } } }`, { id: sourceId(i) }, (d) => (d.identity as { names: unknown[] }).names.length),
  });
  return cases;
}

/** Measures each case (40 samples, 10 for coverage, 3 for the whole-graph reads) and prints its row. */
export async function measureCases(cases: QueryCase[], warmed: WarmUpResult, out: (line?: string) => void): Promise<QueryResult[]> {
  out('## Queries (GraphQL over HTTP; bare = the same service call on the driver, no HTTP/GraphQL)');
  out();
  out(`After ingestion: db.prepareForReplanning(), then the service's plan warm-up (${warmed.plans} parameter shapes EXPLAINed in ${(warmed.ms / 1000).toFixed(0)} s, ${warmed.compiled ?? '?'} plans compiled). Each case's first call is not measured.`);
  out();
  out('| query | n | result size (median) | p50 ms | p95 ms | p99 ms | bare p50 ms | overhead ratio (p50) |');
  out('|---|---|---|---|---|---|---|---|');
  const results: QueryResult[] = [];
  for (const c of cases) {
    const n = /^(coverageGaps|lineageBreaks|lineageDiff|alert check)/.test(c.name) ? 3 : c.name.startsWith('coverage') ? 10 : 40;
    let t: Awaited<ReturnType<typeof samples>>;
    try {
      await c.run(0); // first call: plan and JIT warm-up, not measured
      t = await samples(n, c.run);
    } catch (err) {
      // A case the service refuses (XL's lineageDiff past TRIBUTARY_QUERY_TIMEOUT_MS on a cold page cache) is a row, not the end of the run.
      out(`| ${c.name} | ${n} | – | failed: ${String((err as Error).message).slice(0, 160).replace(/\|/g, '/')} | | | | |`);
      continue;
    }
    let bareCol = '| – | –';
    let bareP50: number | null = null;
    if (c.bare) {
      await c.bare(0);
      bareP50 = (await samples(n, c.bare)).p50;
      bareCol = `| ${bareP50.toFixed(1)} | ${(t.p50 / bareP50).toFixed(2)}`;
    }
    results.push({ name: c.name, n, size: t.size, p50: t.p50, p95: t.p95, p99: t.p99, bareP50 });
    out(`| ${c.name} | ${n} | ${t.size} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} | ${t.p99.toFixed(1)} ${bareCol} |`);
  }
  return results;
}

async function samples(n: number, run: (i: number) => Promise<number>) {
  const ms: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    sizes.push(await run(i));
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99), size: sizes[Math.floor(n / 2)]! };
}

/** The size of a GraphQL result: the length of the longest list in it. */
function resultSize(data: unknown): number {
  if (Array.isArray(data)) return Math.max(data.length, ...data.map(resultSize));
  if (data !== null && typeof data === 'object') return Math.max(0, ...Object.values(data).map(resultSize));
  return 0;
}

