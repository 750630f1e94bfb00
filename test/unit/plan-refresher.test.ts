import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { divergence, MIN_DIVERGENT_COUNT, namedBy, signature, UsedShapes } from '../../src/graph/plan-refresher';
import { Query } from '../../src/graph/queries';

describe('plan refresher: the shapes it keeps', () => {
  it('tells parameter types apart the way Neo4j keys its plans, and ignores list sizes and values', () => {
    assert.equal(signature({ ids: ['a', 'b'], depth: neo4j.int(3) }), signature({ depth: neo4j.int(20), ids: ['x'] }));
    assert.notEqual(signature({ ids: [] }), signature({ ids: ['a'] }), 'an empty list has no element type');
    assert.notEqual(signature({ n: neo4j.int(1) }), signature({ n: 1.5 }), 'integer and float');
    assert.notEqual(signature({ at: null }), signature({ at: 's' }), 'an optional branch left out');
    assert.notEqual(signature({ rows: [{ a: 1 }] }), signature({ rows: [['a']] }), 'list of maps and of lists');
    assert.equal(signature({}), '');
  });

  it('keeps one shape per query, write mode and signature, with lists cut to one element; skips health probes; stops at its maximum', () => {
    const used = new UsedShapes(2);
    const big = Array.from({ length: 5_000 }, (_, i) => `d${i}`);
    used.record(Query.ExpandUpstream, { datasetIds: big, jobIds: [] }, false);
    used.record(Query.ExpandUpstream, { datasetIds: ['other'], jobIds: [] }, false);
    used.record(Query.GraphCounts, {}, false);
    assert.equal(used.size, 1);
    assert.deepEqual(used.list()[0], { query: Query.ExpandUpstream, params: { datasetIds: ['d0'], jobIds: [] }, write: false, afterWrite: false });
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: ['x'], jobIds: [] }, true), true);
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: [], jobIds: ['j'] }, false), true, 'new, though not kept');
    assert.equal(used.size, 2);
    assert.equal(used.dropped, 1);
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: ['y'], jobIds: [] }, false), false);
  });

  it('keeps a statement run after a write in its transaction apart: Neo4j caches its plan apart', () => {
    const used = new UsedShapes();
    used.record(Query.RefreshCurrentIo, { jobIds: ['j'] }, true, false);
    used.record(Query.RefreshCurrentIo, { jobIds: ['k'] }, true, true);
    used.record(Query.RefreshCurrentIo, { jobIds: ['l'] }, true, true);
    assert.deepEqual(used.list().map((s) => s.afterWrite), [false, true]);
  });
});

describe('plan refresher: divergence', () => {
  it("measures as Neo4j does (|a - b| / max(a, b)) and names the statistic", () => {
    const a = new Map([['n:Run', 100], ['n:Job', 10]]);
    const b = new Map([['n:Run', 400], ['n:Job', 10]]);
    assert.deepEqual(divergence(a, b), { value: 0.75, key: 'n:Run' });
    assert.deepEqual(divergence(b, a), { value: 0.75, key: 'n:Run' });
  });

  it('is 0 for equal or both-empty readings, and 1 for a statistic that appears or disappears', () => {
    assert.deepEqual(divergence(new Map([['n:Run', 0]]), new Map([['n:Run', 0]])), { value: 0, key: null });
    assert.deepEqual(divergence(new Map(), new Map()), { value: 0, key: null });
    assert.deepEqual(divergence(new Map(), new Map([['r:Run:READ:Dataset', 3]])), { value: 1, key: 'r:Run:READ:Dataset' });
    assert.deepEqual(divergence(new Map([['is:Field:id', 3]]), new Map()), { value: 1, key: 'is:Field:id' });
  });

  it('leaves out statistics below the floor in both readings, and those not relevant', () => {
    const a = new Map([['n:Tag', 0], ['n:Run', 300], ['n:Job', 2_000], ['n:Other', 10_000]]);
    const b = new Map([['n:Tag', 900], ['n:Run', 1_500], ['n:Job', 2_100], ['n:Other', 90_000]]);
    assert.deepEqual(divergence(a, b), { value: 1, key: 'n:Tag' });
    const ours = (k: string) => k !== 'n:Other';
    // Tag stays under the floor; Run crosses it (0.8); Other is not the service's.
    assert.deepEqual(divergence(a, b, ours, MIN_DIVERGENT_COUNT), { value: 0.8, key: 'n:Run' });
    assert.deepEqual(divergence(a, new Map([...b, ['n:Run', 999]]), ours, MIN_DIVERGENT_COUNT), { value: 100 / 2_100, key: 'n:Job' });
  });
});

describe('plan refresher: namedBy', () => {
  const relevant = namedBy(['MATCH (r:Run)-[:READ|WROTE]->(d:Dataset) RETURN d', 'CALL db.index.fulltext.queryNodes("catalog_search", $q) YIELD node MATCH (node:Job)']);

  it('keeps node, relationship and index statistics of the labels and types the queries name', () => {
    for (const k of ['n:Run', 'n:', 'r:Run:READ:Dataset', 'r::WROTE:', 'r:::', 'is:Dataset:id', 'iu:Job|Dataset:name']) assert.equal(relevant(k), true, k);
  });

  it("leaves out other applications' labels and types, alone or beside the service's", () => {
    for (const k of ['n:BDataset', 'r:Run:OWNS:Dataset', 'r:Person::', 'is:BDataset:id', 'iu:Job|Person:name', 'n:Dataset2']) assert.equal(relevant(k), false, k);
  });
});
