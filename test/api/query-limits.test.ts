import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'graphql';
import { operationDepth } from '../../src/graphql/limits';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_MAX_QUERY_DEPTH: '6', TRIBUTARY_MAX_QUERY_COMPLEXITY: '2000' });
});
after(() => svc.close());

describe('query limits', () => {
  it('measures depth through fragments, ignoring introspection', () => {
    assert.equal(operationDepth(parse('{ a { b { c } } }')), 3);
    assert.equal(operationDepth(parse('query { a { ...F } } fragment F on T { b { c { d } } }')), 4);
    assert.equal(operationDepth(parse('{ __schema { types { fields { type { name } } } } }')), 0);
  });

  it('rejects a too deep query with LIMIT_EXCEEDED before it runs', async () => {
    const res = await svc.graphql(`{ job(id: "job:a:b") { latestRun { job { latestRun { job { latestRun { job { name } } } } } } } }`);
    assert.equal(res.data, undefined);
    assert.equal(res.errors![0].extensions.code, 'LIMIT_EXCEEDED');
    assert.match(res.errors![0].message, /depth 8 exceeds the limit of 6/);
  });

  it('rejects a too costly page and accepts a modest one', async () => {
    const big = await svc.graphql(`{ blastRadius(nodeId: "dataset:a:b", first: 500) { items { id kind name distance via owners } } }`);
    assert.equal(big.errors![0].extensions.code, 'LIMIT_EXCEEDED');
    assert.match(big.errors![0].message, /cost \d+ exceeds the limit of 2000/);
    // The walk is charged whatever the page: one item of a whole downstream walk costs the walk (2,000 nodes).
    const one = await svc.graphql(`{ blastRadius(nodeId: "dataset:a:b", first: 1) { items { id } } }`);
    assert.match(one.errors![0].message, /cost 2003 exceeds the limit of 2000/);
    const small = await svc.graphql(`{ blastRadius(nodeId: "dataset:a:b", first: 10, depth: 5) { items { id } } }`);
    assert.equal(small.errors![0].extensions.code, 'NOT_FOUND');
  });

  it('answers a refused operation with HTTP 400 and the LIMIT_EXCEEDED code, never a stack trace', async () => {
    const res = await svc.post('/graphql', JSON.stringify({ query: '{ blastRadius(nodeId: "dataset:a:b", first: 500) { items { id kind name distance via owners } } }' }));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.errors[0].extensions), ['code']);
    assert.equal(res.body.errors[0].extensions.code, 'LIMIT_EXCEEDED');
  });
});

describe('introspection', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';

  it('is on by default and off with TRIBUTARY_GRAPHQL_INTROSPECTION=false', async () => {
    const on = await svc.graphql(INTROSPECT);
    assert.equal(on.data.__schema.queryType.name, 'Query');
    const closed = await startService({ TRIBUTARY_GRAPHQL_INTROSPECTION: 'false' });
    try {
      const off = await closed.graphql(INTROSPECT);
      assert.equal(off.data, undefined);
      assert.equal(off.errors![0].extensions.code, 'BAD_INPUT');
      assert.match(off.errors![0].message, /introspection/i);
      // Ordinary queries still work.
      const lookup = await closed.graphql('{ dataset(id: "dataset:a:b") { id } }');
      assert.deepEqual(lookup, { data: { dataset: null } });
    } finally {
      await closed.close();
    }
  });
});
