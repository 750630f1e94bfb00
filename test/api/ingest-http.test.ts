import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { docsOf, manifest } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolate, uniquePrefix } from '../support/isolate';
import { COMPLETE_REJECTIONS } from '../support/policy';

let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_MAX_EVENT_BYTES: '256k' });
});
after(() => svc.close());

describe('POST /api/v1/lineage (OpenLineage HTTP transport)', () => {
  it('answers 201 once the event is committed, and 201 with duplicate=true for a re-send', async () => {
    const event = runEvent(uniquePrefix('http'), { job: 'j', outputs: ['d'] });
    const first = await svc.postEvent(event);
    assert.equal(first.status, 201);
    assert.match(first.body.eventId, /^event:[0-9a-f]{64}$/);
    assert.equal(first.body.duplicate, false);
    const again = await svc.postEvent(event);
    assert.deepEqual(again, { status: 201, body: { eventId: first.body.eventId, duplicate: true, projected: true } });
  });

  it('accepts a gzip-encoded body', async () => {
    const ns = uniquePrefix('gzip');
    const res = await svc.post('/api/v1/lineage', gzipSync(JSON.stringify(runEvent(ns, { job: 'zipped', outputs: ['out'] }))), {
      'content-encoding': 'gzip',
    });
    assert.equal(res.status, 201);
    const q = await svc.graphql(`query($id: ID!) { job(id: $id) { name outputs { name } } }`, { id: `job:${ns}:zipped` });
    assert.deepEqual(q.data, { job: { name: 'zipped', outputs: [{ name: 'out' }] } });
  });

  it('answers 400 naming each offending field path', async () => {
    const res = await svc.postEvent({ eventTime: 'noon', producer: 'p', run: { runId: 'x' }, job: { namespace: 'n' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'BAD_INPUT');
    assert.deepEqual(res.body.error.details.map((d: { path: string }) => d.path).sort(), ['eventTime', 'job.name', 'run.runId']);
  });

  it('answers 413 over the size limit, also when the limit is only exceeded after gunzip', async () => {
    const big = runEvent(uniquePrefix('big'), { job: 'j', outputs: ['d'] }) as Record<string, unknown>;
    big.padding = 'x'.repeat(300 * 1024);
    const plain = await svc.post('/api/v1/lineage', JSON.stringify(big));
    assert.equal(plain.status, 413);
    assert.equal(plain.body.error.code, 'LIMIT_EXCEEDED');
    const zipped = gzipSync(JSON.stringify(big));
    assert.ok(zipped.length < 256 * 1024);
    const bomb = await svc.post('/api/v1/lineage', zipped, { 'content-encoding': 'gzip' });
    assert.equal(bomb.status, 413);
  });

  it('answers 415 for non-JSON content types, bodies that are not JSON, and unknown encodings', async () => {
    const wrongType = await svc.post('/api/v1/lineage', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(wrongType.status, 415);
    assert.equal(wrongType.body.error.code, 'BAD_INPUT');
    const notJson = await svc.post('/api/v1/lineage', '{"eventTime": ');
    assert.equal(notJson.status, 415);
    assert.match(notJson.body.error.message, /not valid JSON/);
    const br = await svc.post('/api/v1/lineage', '{}', { 'content-encoding': 'br' });
    assert.equal(br.status, 415);
    const badGzip = await svc.post('/api/v1/lineage', 'not gzip', { 'content-encoding': 'gzip' });
    assert.equal(badGzip.status, 415);
  });

  it('enforces Authorization: Bearer <key> when an ingest key is configured', async () => {
    const secured = await startService({ TRIBUTARY_INGEST_KEY: 's3cret' });
    try {
      const event = JSON.stringify(runEvent(uniquePrefix('auth'), { job: 'j' }));
      assert.equal((await secured.post('/api/v1/lineage', event)).status, 401);
      assert.equal((await secured.post('/api/v1/lineage', event, { authorization: 'Bearer wrong' })).status, 401);
      const ok = await secured.post('/api/v1/lineage', event, { authorization: 'Bearer s3cret' });
      assert.equal(ok.status, 201);
      // GraphQL is not behind the ingest key.
      assert.ok((await secured.graphql('{ __typename }')).data);
    } finally {
      await secured.close();
    }
  });

  it('ingests every complete corpus event with the documented outcome', async () => {
    const prefix = uniquePrefix('corpus-http');
    for (const row of manifest().filter((r) => r.complete)) {
      for (const doc of docsOf(row.file)) {
        const res = await svc.postEvent(isolate(doc.value, prefix));
        const expected = COMPLETE_REJECTIONS[row.file];
        if (expected) {
          assert.equal(res.status, 400, row.file);
          assert.deepEqual(res.body.error.details.map((d: { path: string }) => d.path), [expected], row.file);
        } else {
          assert.equal(res.status, 201, `${row.file}: ${JSON.stringify(res.body)}`);
        }
      }
    }
  });
});

describe('metrics', () => {
  it('GET /metrics exposes ingestion counts and latencies in Prometheus text format', async () => {
    await svc.postEvent(runEvent(uniquePrefix('metrics'), { job: 'm', outputs: ['x'] }));
    const res = await fetch(`${svc.baseUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    const text = await res.text();
    assert.match(text, /tributary_ingest_events_total\{transport="http",outcome="stored"\} [1-9]/);
    assert.match(text, /tributary_http_ingest_seconds_count\{route="\/api\/v1\/lineage",status="201"\} [1-9]/);
    assert.match(text, /tributary_projection_seconds_count [1-9]/);
  });
});

describe('health', () => {
  it('/healthz answers while the process runs; /readyz once Neo4j answers and the schema is applied', async () => {
    const h = await fetch(`${svc.baseUrl}/healthz`);
    assert.equal(h.status, 200);
    const r = await fetch(`${svc.baseUrl}/readyz`);
    const body = (await r.json()) as { status: string; projectionLagMs: number };
    assert.deepEqual([r.status, body.status, typeof body.projectionLagMs], [200, 'ready', 'number']);
  });
});
