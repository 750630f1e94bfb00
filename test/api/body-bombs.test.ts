import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Small bodies that expand into heavy work (gzip bombs of nested brackets, deep GraphQL variables),
 * damaged bytes and broken framing: each refused within its limit with a JSON error and a code,
 * while /healthz, polled the whole time, keeps answering (its slowest answer is printed for the
 * README's Reliability table; timings are not asserted on a shared machine, but a refusal must not
 * wait for the whole bomb to be read).
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('bombs');
});
after(() => svc.close());

/** Polls /healthz every 20 ms while `work` runs; resolves with work's result and the slowest health answer. */
async function whileHealthPolled<T>(work: () => Promise<T>): Promise<{ result: T; healthMaxMs: number; ms: number }> {
  let running = true;
  let healthMaxMs = 0;
  const poll = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${svc.baseUrl}/healthz`);
      await res.body?.cancel();
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, healthMaxMs, ms: performance.now() - started };
  } finally {
    running = false;
    await poll;
  }
}

const gzip = (text: string) => zlib.gzipSync(Buffer.from(text), { level: 9 });
const figures: string[] = [];

describe('body bombs and broken bodies', () => {
  it('a 60 MB gzip bomb of nested brackets on the batch route: its one element fails NESTING_TOO_DEEP; on the event route it is refused at once', async () => {
    // Every body is compressed before its window: the client's own work is not the server's.
    const bomb = gzip('['.repeat(60 * 2 ** 20));
    const closed = gzip(`[${'['.repeat(30 * 2 ** 20)}${']'.repeat(30 * 2 ** 20)}]`);
    const brackets = gzip('['.repeat(16 * 2 ** 20));
    const string = gzip(`{"x":"${'a'.repeat(40 * 2 ** 20)}"}`);
    assert.ok(bomb.length < 100_000, `the bomb is ${bomb.length} bytes`);
    const batch = await whileHealthPolled(() => svc.post('/api/v1/lineage/batch', bomb, { 'content-encoding': 'gzip' }));
    // Unbalanced: the scan reads it to the end (in chunks) and finds no complete document.
    assert.equal(batch.result.status, 415, JSON.stringify(batch.result.body));
    assert.equal(batch.result.body.error.code, 'BAD_INPUT');
    const balanced = await whileHealthPolled(() => svc.post('/api/v1/lineage/batch', closed, { 'content-encoding': 'gzip' }));
    assert.equal(balanced.result.status, 200, JSON.stringify(balanced.result.body));
    assert.equal(balanced.result.body.status, 'failure');
    assert.equal(balanced.result.body.failed_events[0].details[0].reason, 'NESTING_TOO_DEEP');
    const single = await whileHealthPolled(() => svc.post('/api/v1/lineage', brackets, { 'content-encoding': 'gzip' }));
    assert.equal(single.result.status, 400, JSON.stringify(single.result.body));
    assert.equal(single.result.body.error.details[0].reason, 'NESTING_TOO_DEEP');
    const over = await whileHealthPolled(() => svc.post('/api/v1/lineage', string, { 'content-encoding': 'gzip' }));
    assert.equal(over.result.status, 413, JSON.stringify(over.result.body));
    assert.equal(over.result.body.error.code, 'LIMIT_EXCEEDED');
    figures.push(
      `batch bomb (60 MB '[' from ${bomb.length} B) 415 in ${batch.ms.toFixed(0)} ms, /healthz max ${batch.healthMaxMs.toFixed(0)} ms; ` +
        `balanced 60 MB 200/NESTING_TOO_DEEP in ${balanced.ms.toFixed(0)} ms, /healthz max ${balanced.healthMaxMs.toFixed(0)} ms; ` +
        `event route 400 in ${single.ms.toFixed(0)} ms, /healthz max ${single.healthMaxMs.toFixed(0)} ms; 40 MB string 413 in ${over.ms.toFixed(0)} ms`,
    );
  });

  it('/graphql: bodies over TRIBUTARY_MAX_QUERY_BYTES are 413, nested variables are refused before parsing', async () => {
    const deep = `{"query":"query($v: String) { __typename }","variables":{"v":${'['.repeat(5 * 2 ** 20)}${']'.repeat(5 * 2 ** 20)}}}`;
    const big = await whileHealthPolled(() => svc.post('/graphql', deep));
    assert.equal(big.result.status, 413, JSON.stringify(big.result.body).slice(0, 300));
    assert.equal(big.result.body.error.code, 'LIMIT_EXCEEDED');
    const nested = `{"query":"query($v: String) { __typename }","variables":{"v":${'['.repeat(1000)}${']'.repeat(1000)}}}`;
    const refused = await svc.post('/graphql', nested);
    assert.equal(refused.status, 400, JSON.stringify(refused.body).slice(0, 300));
    assert.equal(refused.body.error.details[0].reason, 'NESTING_TOO_DEEP');
    const zipped = gzip(`{"query":"{ __typename }","x":"${'a'.repeat(60 * 2 ** 20)}"}`);
    const gz = await whileHealthPolled(() => svc.post('/graphql', zipped, { 'content-encoding': 'gzip' }));
    assert.ok([413, 415].includes(gz.result.status), `${gz.result.status} ${JSON.stringify(gz.result.body).slice(0, 200)}`);
    assert.ok(gz.result.body.error?.code, 'a JSON error with a code');
    assert.equal((await svc.graphql('{ __typename }')).data?.__typename, 'Query', 'small queries still answer');
    figures.push(`/graphql 10 MB nested variables 413 in ${big.ms.toFixed(0)} ms (/healthz max ${big.healthMaxMs.toFixed(0)} ms)`);
  });

  it('one invalid UTF-8 byte, or one broken element, fails only its own event in a 1,000-event batch', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => Buffer.from(JSON.stringify(runEvent(ns, { job: `utf8-${i}`, outputs: [`t${i % 10}`] }))));
    events[500] = Buffer.concat([events[500]!.subarray(0, 20), Buffer.from([0xff, 0xfe]), events[500]!.subarray(20)]);
    events[700] = Buffer.from('{"eventType": "START", oops}');
    const body = Buffer.concat([Buffer.from('['), ...events.flatMap((e, i) => (i === 0 ? [e] : [Buffer.from(','), e])), Buffer.from(']')]);
    const res = await svc.post('/api/v1/lineage/batch', body, { 'tributary-wait': 'none' });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.status, 'partial_success');
    assert.deepEqual(res.body.summary, { received: 1000, successful: 998, failed: 2 });
    assert.deepEqual(
      res.body.failed_events.map((f: { index: number; details: { reason: string }[] }) => [f.index, f.details[0]!.reason]),
      [
        [500, 'NOT_UTF8'],
        [700, 'NOT_JSON'],
      ],
    );
    // Each stored element keeps its exact text.
    const pretty = `[\n  ${JSON.stringify(runEvent(ns, { job: 'pretty', outputs: ['p'] }), null, 2)}\n]`;
    const kept = await svc.post('/api/v1/lineage/batch', pretty);
    assert.equal(kept.body.status, 'success', JSON.stringify(kept.body));
    const empty = await svc.post('/api/v1/lineage/batch', '[]');
    assert.deepEqual([empty.status, empty.body.summary.received], [200, 0]);
    const trailing = await svc.post('/api/v1/lineage/batch', `[${JSON.stringify(runEvent(ns, { job: 'trailing' }))},]`);
    assert.deepEqual([trailing.body.summary.successful, trailing.body.failed_events[0]?.details[0].reason], [1, 'NOT_JSON']);
    const notBatch = await svc.post('/api/v1/lineage/batch', '{"events": 3}');
    assert.equal(notBatch.status, 400);
    const garbage = await svc.post('/api/v1/lineage/batch', '[{}] trailing');
    assert.deepEqual([garbage.status, garbage.body.error.code], [415, 'BAD_INPUT']);
  });

  it('names and keys past what Neo4j can index are a 400 naming the field, not an acknowledged event that never shows', async () => {
    const integration = runEvent(ns, { job: 'long-engine', jobFacets: { jobType: { _producer: 'p', _schemaURL: 's', processingType: 'BATCH', integration: 'x'.repeat(10_000) } } });
    const cll = runEvent(ns, { job: 'long-cll', inputs: ['a'], outputs: ['b'], columns: { b: { ['c'.repeat(10_000)]: ['a.x'] } } });
    const nestedFields = Array.from({ length: 3 }, () => 'n'.repeat(900)).reduceRight<object[]>((inner, name) => [{ name, fields: inner }], [{ name: 'leaf' }]);
    const nested = runEvent(ns, { job: 'long-path', outputs: ['deep'], datasetFacets: { deep: { schema: { _producer: 'p', _schemaURL: 's', fields: nestedFields } } } });
    for (const [event, path] of [
      [integration, 'job.facets.jobType.integration'],
      [cll, 'outputs[0].facets.columnLineage.fields.'],
      [nested, 'outputs[0].facets.schema.fields[0].fields[0].fields[0]'],
    ] as const) {
      const res = await svc.postEvent(event);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(res.body.error.details[0].reason, 'NAME_TOO_LONG');
      assert.ok(String(res.body.error.details[0].path).startsWith(path), res.body.error.details[0].path);
    }
  });

  it('broken HTTP framing (a body longer than its Content-Length, garbage) is answered as JSON with a code', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const url = new URL(svc.baseUrl);
        const socket = net.connect(Number(url.port), url.hostname, () => socket.end(text));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
      });
    const event = JSON.stringify(runEvent(ns, { job: 'framing' }));
    const longer = await raw(`POST /api/v1/lineage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n${event}`);
    const garbage = await raw('GARBAGE\r\n\r\n');
    const headers = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    for (const answer of [longer, garbage, headers]) {
      const bodies = answer.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
      assert.ok(status >= 400 && status < 500, answer.slice(0, 200));
      assert.match(bodies, /"code":"(BAD_INPUT|LIMIT_EXCEEDED)"/, answer.slice(0, 400));
    }
    process.stdout.write(`# ${figures.join('; ')}\n`);
  });
});
