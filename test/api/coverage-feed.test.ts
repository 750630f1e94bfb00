import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newToken } from '../../src/http/auth';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Coverage outside GraphQL (src/http/coverage-routes.ts): the REST feed equals the GraphQL answer,
 * the badge and the widget show the same figure, and every parameter is checked. Data: a namespace
 * with two column-level and two dataset-level-only job → output edges.
 */
let svc: TestService;
let guarded: TestService;
let open: TestService;
let ns: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'feed-tokens-'));
const reader = newToken('dashboards', ['read']);
const schema = (...names: string[]) => ({ schema: { _producer: 't', _schemaURL: 't', fields: names.map((name) => ({ name, type: 'string' })) } });

before(async () => {
  fs.writeFileSync(path.join(dir, 'tokens.yaml'), `tokens:\n${reader.line}\n`);
  [svc, guarded, open] = await Promise.all([
    startService({ TRIBUTARY_BADGE_THRESHOLDS: '40,90', TRIBUTARY_EMBED_FRAME_ANCESTORS: 'https://grafana.example.com' }),
    startService({ TRIBUTARY_TOKENS_FILE: path.join(dir, 'tokens.yaml') }),
    startService({ TRIBUTARY_TOKENS_FILE: path.join(dir, 'tokens.yaml'), TRIBUTARY_EMBED_PUBLIC: 'true' }),
  ]);
  ns = uniquePrefix('feed');
  const events = [
    runEvent(ns, { job: 'spark1', eventTime: '2024-01-01T10:00:00Z', inputs: ['src'], outputs: ['A'], datasetFacets: { A: schema('a1', 'a2') }, columns: { A: { a1: ['src.x'] } } }),
    runEvent(ns, { job: 'dbt1', eventTime: '2024-01-08T10:00:00Z', inputs: ['src'], outputs: ['C'], datasetFacets: { C: schema('c1') }, columns: { C: { c1: ['src.x'] } } }),
    runEvent(ns, { job: 'flink1', eventTime: '2024-01-09T10:00:00Z', inputs: ['src'], outputs: ['B'], datasetFacets: { B: schema('b1') } }),
    runEvent(ns, { job: 'x', eventTime: '2024-01-10T10:00:00Z', inputs: ['B'], outputs: ['D'] }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(async () => {
  await Promise.all([svc?.close(), guarded?.close(), open?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const FIG = 'key edges columnLevel datasetLevelOnly columnLevelShare outputFields fieldsWithInputs fieldShare noInputEdges collectedEdges declaredEdges';

describe('the coverage feed', () => {
  it('GET /api/v1/coverage equals the GraphQL coverage, field for field', async () => {
    const params = { scope: 'NAMESPACE', value: ns, bucket: 'WEEK' };
    const res = await fetch(`${svc.baseUrl}/api/v1/coverage?${q(params)}`);
    assert.equal(res.status, 200);
    const rest = (await res.json()) as Record<string, unknown>;
    const gql = await svc.graphql(
      `query($ns: String) { coverage(scope: NAMESPACE, value: $ns, bucket: WEEK) { scope value truncated overall { ${FIG} } byEngine { ${FIG} } byNamespace { ${FIG} } byJob { ${FIG} } trend { start end edges columnLevel columnLevelShare } } }`,
      { ns },
    );
    assert.equal(gql.errors, undefined);
    const { generatedAt, ...figures } = rest;
    assert.ok(!Number.isNaN(Date.parse(generatedAt as string)));
    assert.deepEqual(figures, gql.data.coverage);
    assert.equal((figures.overall as { edges: number }).edges, 4);
  });

  it('GET /api/v1/coverage/gaps equals coverageGaps', async () => {
    const rest = (await (await fetch(`${svc.baseUrl}/api/v1/coverage/gaps?${q({ scope: 'NAMESPACE', value: ns, first: '5' })}`)).json()) as Record<string, unknown>;
    const gql = await svc.graphql(`query($ns: String) { coverageGaps(scope: NAMESPACE, value: $ns, first: 5) { totalGaps truncated gaps { jobId datasetId engine namespace downstreamDatasets downstreamJobs impactTruncated } } }`, { ns });
    assert.deepEqual({ totalGaps: rest.totalGaps, truncated: rest.truncated, gaps: rest.gaps }, gql.data.coverageGaps);
    assert.equal(rest.totalGaps, 2);
  });

  it('refuses bad parameters with 400 and the reason', async () => {
    for (const [path, pattern] of [
      [`/api/v1/coverage?scope=GALAXY`, /scope/],
      [`/api/v1/coverage?scope=NAMESPACE`, /value/],
      [`/api/v1/coverage?bucket=YEAR`, /bucket/],
      [`/api/v1/coverage?from=yesterday`, /from/],
      [`/api/v1/coverage/gaps?first=0`, /first/],
      [`/api/v1/coverage/gaps?first=abc`, /first/],
      [`/api/v1/coverage?value=${'x'.repeat(3000)}&scope=JOB`, /value/],
      [`/embed/coverage.svg?label=${'x'.repeat(41)}`, /label/],
    ] as [string, RegExp][]) {
      const res = await fetch(svc.baseUrl + path);
      assert.equal(res.status, 400, path.slice(0, 80));
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'BAD_INPUT');
      assert.match(body.error.message, pattern, path.slice(0, 80));
    }
  });

  it('serves its OpenAPI document', async () => {
    const doc = (await (await fetch(`${svc.baseUrl}/api/v1/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/api/v1/coverage', '/api/v1/coverage/gaps', '/api/v1/lineage/diff', '/embed/coverage', '/embed/coverage.svg']);
  });
});

describe('the coverage feed under load', () => {
  it('concurrent and repeated requests give one answer; clients that give up while queued leak no slot', async () => {
    const single = await startService({ TRIBUTARY_GRAPHQL_CONCURRENCY: '1' });
    try {
      const url = `${single.baseUrl}/embed/coverage.svg?${q({ scope: 'NAMESPACE', value: ns })}`;
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(url).then(async (r) => [r.status, r.headers.get('etag'), await r.text()] as const)));
      assert.ok(answers.every(([status]) => status === 200));
      assert.equal(new Set(answers.map(([, etag, body]) => `${etag}${body}`)).size, 1, 'one answer');
      // Ten clients that hang up while queued behind the one slot.
      const aborts = Array.from({ length: 10 }, () => {
        const ctl = new AbortController();
        const p = fetch(`${single.baseUrl}/api/v1/coverage?${q({ scope: 'NAMESPACE', value: ns })}`, { signal: ctl.signal }).catch(() => null);
        setTimeout(() => ctl.abort(), 5);
        return p;
      });
      await Promise.all(aborts);
      await new Promise((r) => setTimeout(r, 500));
      const after = await fetch(`${single.baseUrl}/api/v1/coverage?${q({ scope: 'NAMESPACE', value: ns })}`, { signal: AbortSignal.timeout(20_000) });
      assert.equal(after.status, 200, 'the slot came back');
    } finally {
      await single.close();
    }
  });
});

describe('the coverage embeds', () => {
  it('the badge: SVG with the share, coloured by the configured thresholds, ETag and 304', async () => {
    const url = `${svc.baseUrl}/embed/coverage.svg?${q({ scope: 'NAMESPACE', value: ns, label: 'orders <domain>' })}`;
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^image\/svg\+xml/);
    assert.match(res.headers.get('cache-control')!, /max-age=300/);
    const svg = await res.text();
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /class="value">50\.0%</);
    assert.match(svg, /orders &lt;domain&gt;/, 'the label is escaped');
    assert.match(svg, /fill="#dfb317"/, '50% is between the thresholds 40 and 90: yellow');
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);
    const empty = await (await fetch(`${svc.baseUrl}/embed/coverage.svg?${q({ scope: 'NAMESPACE', value: `${ns}none` })}`)).text();
    assert.match(empty, /no edges/);
    assert.match(empty, /fill="#9f9f9f"/);
  });

  it('the widget: the same share, the top gaps, a link back, frame-ancestors from config, no script', async () => {
    const res = await fetch(`${svc.baseUrl}/embed/coverage?${q({ scope: 'NAMESPACE', value: ns })}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors https:\/\/grafana\.example\.com/);
    const html = await res.text();
    assert.match(html, /data-share="0.5">50\.0%</);
    assert.match(html, /flink1/);
    assert.match(html, new RegExp(`href="/coverage\\?scope=NAMESPACE&amp;value=${encodeURIComponent(ns).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
    assert.ok(!/<script/i.test(html));
  });

  it('under a tokens file: the feed and embeds need a read token, unless TRIBUTARY_EMBED_PUBLIC opens the embeds', async () => {
    assert.equal((await fetch(`${guarded.baseUrl}/api/v1/coverage`)).status, 401);
    assert.equal((await fetch(`${guarded.baseUrl}/embed/coverage.svg`)).status, 401);
    assert.equal((await fetch(`${guarded.baseUrl}/api/v1/coverage`, { headers: { authorization: `Bearer ${reader.token}` } })).status, 200);
    assert.equal((await fetch(`${open.baseUrl}/embed/coverage.svg`)).status, 200);
    assert.equal((await fetch(`${open.baseUrl}/embed/coverage`)).status, 200);
    assert.equal((await fetch(`${open.baseUrl}/api/v1/coverage`)).status, 401, 'the feed stays guarded');
  });
});
