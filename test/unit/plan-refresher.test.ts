import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { divergence, MIN_DIVERGENT_COUNT, namedBy, staleShapes, type Statistics } from '../../src/graph/plan-refresher';
import { signature, UsedShapes } from '../../src/graph/used-shapes';
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

  it('tells a shape the warm-up only compiled from one that ran, until it runs', () => {
    const used = new UsedShapes();
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: ['d'] }, false, false, false), true);
    const [[key]] = used.keyed();
    assert.equal(used.hasRun(key!), false);
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: ['e', 'f'] }, false), false, 'the same shape: not new');
    assert.equal(used.hasRun(key!), true);
    assert.equal(used.record(Query.ExpandUpstream, { datasetIds: ['g'] }, false, false, false), false);
    assert.equal(used.hasRun(key!), true, 'compiled again by the warm-up, it has still run');
    used.record(Query.MergeRuns, { rows: [{ id: 'r' }] }, true);
    assert.equal(used.hasRun(used.keyed()[1]![0]), true, 'run first: run');
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

describe('plan refresher: which shapes a refresh replans', () => {
  // Two queries: one over runs, one over datasets and fields only.
  const texts: Partial<Record<Query, string>> = {
    [Query.MergeRuns]: 'UNWIND $rows AS r MERGE (run:Run {id: r.id}) WITH run MATCH (j:Job {id: run.jobId}) MERGE (run)-[:RUN_OF]->(j)',
    [Query.ExpandUpstream]: 'MATCH (d:Dataset)<-[:PRODUCES]-(j:Job)<-[:FEEDS]-(u:Dataset) MATCH (d)-[:HAS_FIELD]->(f:Field) RETURN u, f',
  };
  const relevantTo = (q: Query) => (texts[q] === undefined ? undefined : namedBy([texts[q]!]));
  const used = new UsedShapes();
  used.record(Query.MergeRuns, { rows: [{ id: 'r' }] }, true);
  used.record(Query.ExpandUpstream, { datasetIds: ['d'] }, false);
  used.record(Query.SchemaApplied, { names: ['x'] }, false); // no text given: every statistic counts
  const planned: Statistics = new Map([['n:Run', 10_000], ['n:Job', 2_000], ['n:Dataset', 5_000], ['n:Field', 50_000], ['r:Run:RUN_OF:Job', 10_000], ['n:Other', 1_000]]);
  const queries = (stale: ReturnType<typeof staleShapes>) => stale.map((s) => s.shape.query).sort();

  it('replans the statements that name what grew, not those over datasets and fields', () => {
    // Runs (and their edges) grow fivefold; datasets, jobs and fields stay.
    const now = new Map([...planned, ['n:Run', 50_000], ['r:Run:RUN_OF:Job', 50_000]]);
    const stale = staleShapes(used.keyed(), () => planned, now, relevantTo, { threshold: 0.75, minCount: MIN_DIVERGENT_COUNT });
    assert.deepEqual(queries(stale), [Query.SchemaApplied, Query.MergeRuns].sort());
    assert.equal(stale.find((s) => s.shape.query === Query.MergeRuns)?.statistic, 'n:Run');
    assert.equal(stale[0]!.value, 0.8);
  });

  it('replans the expansions once fields grow past the threshold, and nothing below it or under the floor', () => {
    const fields = new Map([...planned, ['n:Field', 250_000]]);
    assert.deepEqual(queries(staleShapes(used.keyed(), () => planned, fields, relevantTo, { threshold: 0.75 })), [Query.ExpandUpstream, Query.SchemaApplied].sort());
    const some = new Map([...planned, ['n:Field', 150_000]]);
    assert.deepEqual(staleShapes(used.keyed(), () => planned, some, relevantTo, { threshold: 0.75 }), []);
    const small = new Map([...planned, ['n:Other', 0], ['n:Tag', 900]]);
    assert.deepEqual(queries(staleShapes(used.keyed(), () => planned, small, relevantTo, { threshold: 0.75, minCount: MIN_DIVERGENT_COUNT })), [Query.SchemaApplied], 'only the query without a text counts Other');
  });

  it('measures each shape from the reading it was last planned against', () => {
    const grown = new Map([...planned, ['n:Run', 50_000], ['r:Run:RUN_OF:Job', 50_000]]);
    // MergeRuns was replanned at `grown`; ExpandUpstream still dates from `planned`.
    const at = (key: string) => (key.startsWith(Query.MergeRuns) ? grown : planned);
    const later = new Map([...grown, ['n:Run', 60_000], ['n:Field', 250_000]]);
    assert.deepEqual(queries(staleShapes(used.keyed(), at, later, relevantTo, { threshold: 0.75 })), [Query.ExpandUpstream, Query.SchemaApplied].sort());
  });
});
