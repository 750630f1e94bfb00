import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors';
import { translateDriverError } from '../../src/graph/executor';
import { datasetId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * GraphQL abuse (issue "Survive what production sends", point 1), against the default limits on a
 * dense graph (10 jobs each reading and writing the same 10 datasets): every attack is refused with
 * LIMIT_EXCEEDED before it does real work, the refusal times are printed (figures for the README's
 * Reliability section, not assertions: these machines are shared), and the service answers normal
 * questions afterwards.
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('dense');
  const datasets = Array.from({ length: 10 }, (_, i) => `D${i}`);
  const events = Array.from({ length: 10 }, (_, j) => runEvent(ns, { job: `J${j}`, inputs: datasets, outputs: datasets }));
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events));
  assert.equal(res.body.summary.successful, 10);
});
after(() => svc.close());

/** `{ outputs { consumers { outputs ... { id } } } }`: `levels` lists below a dataset's consumers. */
const nested = (levels: number) => {
  let inner = '{ id }';
  for (let i = levels - 1; i >= 0; i--) inner = i % 2 === 0 ? `{ outputs ${inner} }` : `{ consumers ${inner} }`;
  return inner;
};

async function refused(label: string, body: string, reason: RegExp): Promise<void> {
  const started = performance.now();
  const res = await svc.post('/graphql', body);
  const ms = performance.now() - started;
  process.stdout.write(`# ${label}: ${res.status} in ${ms.toFixed(1)} ms\n`);
  assert.equal(res.status, 400, `${label}: ${JSON.stringify(res.body).slice(0, 300)}`);
  assert.equal(res.body.errors[0].extensions.code, 'LIMIT_EXCEEDED', label);
  assert.match(res.body.errors[0].message, reason, label);
  assert.equal(res.body.data ?? null, null, label);
}

const q = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });

describe('GraphQL abuse is refused before it costs anything', () => {
  it('nested navigation lists multiply: depth 9 and depth 6 over a dense graph are refused, depth 2 answers', async () => {
    const id = datasetId(ns, 'D0');
    await refused('consumers/outputs ×8', q(`{ dataset(id: "${id}") { consumers ${nested(8)} } }`), /query cost \d+ exceeds the limit of 100000/);
    await refused('consumers/outputs ×5', q(`{ dataset(id: "${id}") { consumers ${nested(5)} } }`), /query cost \d+ exceeds/);
    const ok = await svc.graphql(`{ dataset(id: "${id}") { consumers { outputs { id } } } }`);
    assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
    assert.equal(ok.data.dataset.consumers.length, 10);
  });

  it('fragments that each spread the next twice (2^24 expansions in 1 KB) are refused before validation', async () => {
    const defs = Array.from({ length: 24 }, (_, i) => `fragment F${i} on Dataset { ...F${i + 1} ...F${i + 1} }`);
    defs.push('fragment F24 on Dataset { id }');
    const doc = `{ dataset(id: "${datasetId(ns, 'D0')}") { ...F0 } } ${defs.join(' ')}`;
    assert.ok(doc.length < 2000);
    await refused('fragment bomb', q(doc), /fragments expand to \d+ field selections, over the limit of 5000/);
  });

  it('aliases: 100 coverageGaps, 1,000 lineages and 19,000 __typename are refused; 10 heavy analytics cost too much', async () => {
    const gaps = Array.from({ length: 100 }, (_, i) => `g${i}: coverageGaps(first: 1) { totalGaps }`).join(' ');
    await refused('100 × coverageGaps', q(`{ ${gaps} }`), /100 aliases, over the limit of 20 \(TRIBUTARY_MAX_QUERY_ALIASES\)/);
    const lineages = Array.from({ length: 1000 }, (_, i) => `l${i}: lineage(nodeId: "${datasetId(ns, 'D0')}") { depth }`).join(' ');
    await refused('1,000 × lineage', q(`{ ${lineages} }`), /more than 5000 tokens/);
    const typenames = Array.from({ length: 19_000 }, (_, i) => `t${i}: __typename`).join(' ');
    await refused('19,000 × __typename', q(`{ ${typenames} }`), /more than 5000 tokens/);
    const analytics = Array.from({ length: 10 }, (_, i) => `b${i}: lineageBreaks { truncated }`).join(' ');
    await refused('10 × lineageBreaks', q(`{ ${analytics} }`), /query cost \d+ exceeds/);
    const three = await svc.graphql(`{ a: coverageGaps(first: 1) { totalGaps } b: lineageBreaks { truncated } c: coverage { overall { edges } } }`);
    assert.equal(three.errors, undefined, JSON.stringify(three.errors));
  });

  it('variables of the wrong type or shape are BAD_INPUT (400), never INTERNAL', async () => {
    const query = 'query($id: ID!, $d: Int) { lineage(nodeId: $id, depth: $d) { depth } }';
    for (const variables of [{ id: 5, d: 'deep' }, { id: { a: 1 }, d: 1 }, { id: 'dataset:a:b', d: 1e300 }, { d: [1] }]) {
      const res = await svc.post('/graphql', q(query, variables as Record<string, unknown>));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].extensions.code, 'BAD_INPUT', JSON.stringify(res.body));
    }
    for (const body of [JSON.stringify({ query, variables: 'x' }), JSON.stringify({ query, variables: [1, 2] }), JSON.stringify({ query: 42 })]) {
      const res = await svc.post('/graphql', body);
      assert.ok(res.status >= 400 && res.status < 500, `${body}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });

  it('an answer over TRIBUTARY_MAX_RESPONSE_FIELDS is one LIMIT_EXCEEDED error, not a partial answer', async () => {
    const small = await startService({ TRIBUTARY_MAX_RESPONSE_FIELDS: '50' });
    try {
      const res = await small.post('/graphql', q(`{ dataset(id: "${datasetId(ns, 'D0')}") { consumers { outputs { id } } } }`));
      assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
      assert.deepEqual(Object.keys(res.body), ['errors']);
      assert.equal(res.body.errors.length, 1);
      assert.equal(res.body.errors[0].extensions.code, 'LIMIT_EXCEEDED');
      assert.match(res.body.errors[0].message, /more than 50 values \(TRIBUTARY_MAX_RESPONSE_FIELDS\)/);
      const fine = await small.graphql(`{ dataset(id: "${datasetId(ns, 'D0')}") { id name } }`);
      assert.equal(fine.errors, undefined);
    } finally {
      await small.close();
    }
  });

  it('a read that runs past its timeout is cancelled by Neo4j and becomes LIMIT_EXCEEDED', async () => {
    // The executor gives every read transaction TRIBUTARY_QUERY_TIMEOUT_MS; here a deliberately slow
    // statement on the same driver shows what Neo4j answers then and how it is translated.
    const session = svc.app.driver.session({ defaultAccessMode: 'READ' });
    const started = performance.now();
    try {
      await session.executeRead((tx) => tx.run('UNWIND range(1, 2000000000) AS x RETURN count(x)'), { timeout: 300 });
      assert.fail('the statement should have been cancelled');
    } catch (err) {
      const translated = translateDriverError(err, 300) as AppError;
      assert.ok(translated instanceof AppError, String(err));
      assert.equal(translated.code, 'LIMIT_EXCEEDED');
      assert.match(translated.message, /ran longer than 300 ms \(TRIBUTARY_QUERY_TIMEOUT_MS\) and was cancelled/);
    } finally {
      await session.close();
    }
    process.stdout.write(`# a 300 ms read timeout cancelled the statement after ${(performance.now() - started).toFixed(0)} ms\n`);
  });

  it('is healthy afterwards', async () => {
    const health = await fetch(`${svc.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    const res = await svc.graphql(`{ lineage(nodeId: "${datasetId(ns, 'D0')}", depth: 2) { nodes { id } } }`);
    assert.equal(res.errors, undefined);
    assert.equal(res.data.lineage.nodes.length, 20);
  });
});
