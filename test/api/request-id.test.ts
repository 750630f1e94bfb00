import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/log';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Request ids (src/log.ts, src/http/server.ts): every response says its X-Request-Id, a client's own
 * plain id is kept and anything else replaced, and the service's log lines written for a request
 * (its Cypher queries at debug level, its errors) carry that id, through the real pino logger.
 */
const lines: Record<string, unknown>[] = [];
let svc: TestService;

before(async () => {
  const log = createLogger('debug', 'tributary', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  svc = await startService({ TRIBUTARY_LOG_LEVEL: 'debug' }, log);
});
after(() => svc.close());

const ask = (headers: Record<string, string> = {}) =>
  fetch(`${svc.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ dataset(id: "dataset:request-id-test:nowhere") { id } }' }),
  });

describe('request ids', () => {
  it('keeps a client X-Request-Id and carries it into the Cypher query lines of that request', async () => {
    lines.length = 0;
    const res = await ask({ 'x-request-id': 'trace-4f2a.1:b_c-9' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'trace-4f2a.1:b_c-9');
    const queries = lines.filter((l) => l.msg === 'query' && l.reqId === 'trace-4f2a.1:b_c-9');
    assert.ok(queries.length > 0, `the request's queries are logged with its id: ${JSON.stringify(lines.slice(0, 5))}`);
    assert.equal(queries[0]!.level, 'debug');
    assert.equal(typeof queries[0]!.time, 'string');
    assert.equal(queries[0]!.name, 'tributary');
  });

  it('gives a new id to a request without one, or with one that is too long, empty or not a plain token', async () => {
    const seen = new Set<string>();
    for (const header of [undefined, 'x'.repeat(129), '', 'has space', 'new\u00e9line', '<script>']) {
      const res = await ask(header === undefined ? {} : { 'x-request-id': header });
      assert.equal(res.status, 200);
      const id = res.headers.get('x-request-id')!;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `replaced: ${JSON.stringify(header)}`);
      seen.add(id);
    }
    assert.equal(seen.size, 6, 'each request its own id');
  });

  it('keeps concurrent requests apart: each query line has the id of the request that ran it', async () => {
    lines.length = 0;
    const ids = Array.from({ length: 20 }, (_, i) => `concurrent-${i}`);
    await Promise.all(ids.map((id) => ask({ 'x-request-id': id })));
    const byRequest = new Map(ids.map((id) => [id, lines.filter((l) => l.msg === 'query' && l.reqId === id).length]));
    for (const [id, n] of byRequest) assert.ok(n > 0, `${id} has its query lines`);
    const perRequest = [...byRequest.values()];
    assert.ok(perRequest.every((n) => n === perRequest[0]), `the same request gives the same lines: ${perRequest.join(',')}`);
    assert.equal(lines.filter((l) => l.msg === 'query' && typeof l.reqId === 'string' && !ids.includes(l.reqId as string)).length, 0, 'no line carries a foreign id');
  });

  it('never lends a request id to background work: the projection of an acknowledged event runs under none', async () => {
    lines.length = 0;
    const ns = uniquePrefix('request-id');
    const res = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'load', inputs: ['raw'], outputs: ['clean'] })), { 'x-request-id': 'ingest-trace' });
    assert.equal(res.status, 201);
    const projection = lines.filter((l) => l.msg === 'query' && String(l.query).startsWith('ingest/'));
    assert.ok(projection.length > 0, `the projection's queries are logged: ${JSON.stringify(lines.map((l) => l.query ?? l.msg))}`);
    assert.deepEqual(projection.filter((l) => l.reqId !== undefined), [], 'no projection line carries a request id');
  });
});
