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
    const small = await svc.graphql(`{ blastRadius(nodeId: "dataset:a:b", first: 10) { items { id } } }`);
    assert.equal(small.errors![0].extensions.code, 'NOT_FOUND');
  });
});
