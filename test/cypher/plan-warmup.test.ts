import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { secondPassQueries, warmUpShapes, warmUpTransactions } from '../../src/graph/warmup';
import { warmUpRuns } from '../../src/graph/warmup-runs';
import { startService, type TestService } from '../support/app';
import { docsOf, manifest } from '../support/corpus';
import { generateEvents } from '../support/generate';
import { isolate, uniquePrefix } from '../support/isolate';
import { CORPUS_OUTCOMES } from '../support/policy';
import { shapesColdAfterWarmUp } from '../support/warm-shapes';

let svc: TestService;
before(async () => {
  // A refresher whose timer never fires: its record of the shapes run is what the last test reads.
  svc = await startService({ TRIBUTARY_PLAN_REFRESH_S: '3600' });
});
after(() => svc.close());

describe('plan warm-up (// Warm-up: header lines)', () => {
  const shapes = warmUpShapes(loadQueries());

  it('declares the parameter shapes of the lineage expansions and of every ingest query', () => {
    // A frontier's datasets and jobs (an empty side sent as [NO_NODE_ID], so never an empty list),
    // the larger side in each of the five list-size buckets: each its own cached plan on a Neo4j
    // with default settings; as of a time, the same in a query apart, left to the second pass.
    for (const query of [Query.ExpandUpstream, Query.ExpandUpstreamAsOf]) {
      const expand = shapes.get(query)!;
      assert.equal(expand.length, 9, query);
      assert.deepEqual([...new Set(expand.map((p) => (p.datasetIds as unknown[]).length))].sort((a, b) => a - b), [1, 10, 100, 1000, 10000]);
      assert.deepEqual([...new Set(expand.map((p) => (p.jobIds as unknown[]).length))].sort((a, b) => a - b), [1, 10, 100, 1000, 10000]);
    }
    assert.deepEqual([...secondPassQueries(loadQueries())].sort(), [Query.ExpandDownstreamAsOf, Query.ExpandUpstreamAsOf]);
    // A start of any kind: the other kinds' ids are NO_NODE_ID (''), not null, so one plan serves all.
    assert.deepEqual(shapes.get(Query.NodeExists), [{ datasetId: '-', fieldId: '', jobId: '', fieldDatasetId: '', fieldName: '' }]);
    const ingest = Object.values(Query).filter((q) => q.startsWith('ingest/'));
    assert.deepEqual(ingest.filter((q) => !shapes.has(q)), []);
  });

  it('EXPLAINs the first declared combination of each query on Neo4j, then executes the declared runs, without an error', async () => {
    // Only the first: all 230 take minutes; the first shows the declared parameters are complete.
    // The first pass leaves out the second-pass queries: their first combination is EXPLAINed here.
    const result = await svc.app.warmUp(true);
    assert.equal(result.failed, 0);
    const second = secondPassQueries(loadQueries());
    assert.equal(result.plans, [...shapes.keys()].filter((q) => !second.has(q)).reduce((n, q) => n + shapes.firstPass(q).length, 0));
    for (const query of second) await svc.app.executor.explain(query, shapes.get(query)![0]!, false);
    // Each query's runs stop at a time budget, so at least one of each (all of them on a small store).
    assert.ok(result.runs >= warmUpRuns(loadQueries(), shapes).size, `runs: ${result.runs}`);
  });

  it('declares where ingestion statements run (// Warm-up transaction:), as the projection runs them', async () => {
    // The warm-up EXPLAINs a statement only where its file says it runs: first in a write
    // transaction, after a write, or in a read transaction. A generated stream (runs with column
    // lineage, symlinks, a parent, FAILs) sent one by one and then again as one batch (stored
    // before: projected again) takes the projection's every path; each recorded position must be a
    // declared one, or the plan it needs would be compiled on the request path.
    const ns = uniquePrefix('warmup-tx');
    const events = generateEvents(ns, 28, 4, 2);
    for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
    assert.equal((await svc.post('/api/v1/lineage/batch', JSON.stringify(events))).status, 200);
    const declared = warmUpTransactions(loadQueries());
    const used = svc.app.refresher!.shapes.list().filter((s) => s.query.startsWith('ingest/'));
    assert.ok(used.some((s) => s.query === Query.MergeOutputs), `recorded: ${used.map((s) => s.query).join(', ')}`);
    const wrong = used.filter((s) => {
      const tx = declared.get(s.query);
      if (tx === 'read') return s.write;
      if (tx === 'first') return !s.write || s.afterWrite;
      if (tx === 'after-write') return !s.write || !s.afterWrite;
      return !s.write;
    });
    assert.deepEqual(wrong.map((s) => `${s.query} write=${s.write} afterWrite=${s.afterWrite}`), []);
    assert.equal(declared.get(Query.MergeJobs), 'after-write');
    assert.equal(declared.get(Query.StoreEvents), 'first');
  });

  it('compiles every plan the corpus needs in the warm-up: each event alone, and all of them as one stream', async () => {
    // Neo4j keys a plan by its parameters' types, where an empty list is a type of its own: an
    // event without inputs, facets only on its run, a lone dataset event each send some list
    // empty that a fuller batch does not. Each event is projected alone (the service waits for the
    // projection), then all again as batches; every shape the projection sent must be one the
    // default warm-up compiled, or that event's user waits for a plan on the request path.
    const ns = uniquePrefix('warmup-corpus');
    const events = manifest().flatMap((r) => docsOf(r.file).filter((d) => d.value !== undefined).map((d) => isolate(d.value, ns)));
    const statuses = new Map<number, number>();
    for (const e of events) {
      const status = (await svc.postEvent(e)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const accepted = Object.entries(CORPUS_OUTCOMES).filter(([k]) => k.startsWith('accepted')).reduce((n, [, v]) => n + v, 0);
    assert.equal(statuses.get(201), accepted, JSON.stringify([...statuses]));
    for (let i = 0; i < events.length; i += 100) await svc.post('/api/v1/lineage/batch', JSON.stringify(events.slice(i, i + 100)));
    assert.deepEqual(shapesColdAfterWarmUp(svc, { ingest: true }), []);
  });
});
