import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { warmUpShapes } from '../../src/graph/warmup';
import { warmUpRuns } from '../../src/graph/warmup-runs';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('plan warm-up (// Warm-up: header lines)', () => {
  const shapes = warmUpShapes(loadQueries());

  it('declares the parameter shapes of the lineage expansions and of every ingest query', () => {
    // A frontier of datasets or of jobs (the other list empty), in each of the five list-size
    // buckets, current or as of a time: each its own cached plan on a Neo4j with default settings.
    const expand = shapes.get(Query.ExpandUpstream)!;
    assert.equal(expand.length, 20);
    assert.deepEqual([...new Set(expand.map((p) => (p.datasetIds as unknown[]).length))].sort((a, b) => a - b), [0, 1, 10, 100, 1000, 10000]);
    assert.deepEqual(shapes.get(Query.NodeExists)?.map((p) => Object.keys(p).filter((k) => p[k] !== null)), [['datasetId'], ['fieldId', 'fieldDatasetId', 'fieldName'], ['jobId']]);
    const ingest = Object.values(Query).filter((q) => q.startsWith('ingest/'));
    assert.deepEqual(ingest.filter((q) => !shapes.has(q)), []);
  });

  it('EXPLAINs the first declared combination of each query on Neo4j, then executes the declared runs, without an error', async () => {
    // Only the first: all 230 take minutes; the first shows the declared parameters are complete.
    const result = await svc.app.warmUp(true);
    assert.equal(result.failed, 0);
    assert.equal(result.plans, shapes.size);
    // Each query's runs stop at a time budget, so at least one of each (all of them on a small store).
    assert.ok(result.runs >= warmUpRuns(loadQueries(), shapes).size, `runs: ${result.runs}`);
  });
});
