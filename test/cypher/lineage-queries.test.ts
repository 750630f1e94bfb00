import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, jobId } from '../../src/ids';
import { CatalogService } from '../../src/lineage/catalog-service';
import { LineageService } from '../../src/lineage/lineage-service';
import { Direction } from '../../src/lineage/types';
import { startService, type TestService } from '../support/app';
import { runEvent, type RunSpec } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

async function graph(label: string, runs: RunSpec[], ns = uniquePrefix(label)): Promise<string> {
  const outcomes = await svc.app.ingestor.ingest(runs.map((r) => runEvent(ns, r)).map((v) => ({ raw: JSON.stringify(v), value: v })));
  assert.ok(outcomes.every((o) => o.ok));
  return ns;
}

const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id).sort();

describe('lineage traversal queries (expand-upstream / expand-downstream)', () => {
  it('terminates on a cycle: a job that reads and writes the same table', async () => {
    const ns = await graph('cycle', [
      { job: 'upsert', inputs: ['t'], outputs: ['t'] },
      { job: 'load', inputs: ['src'], outputs: ['t'] },
    ]);
    const service = new LineageService(svc.app.executor, { maxDepth: 20, maxNodes: 100 });
    const up = await service.lineage(datasetId(ns, 't'), Direction.UPSTREAM, 20);
    assert.deepEqual(ids(up.nodes), [datasetId(ns, 'src'), datasetId(ns, 't'), jobId(ns, 'load'), jobId(ns, 'upsert')]);
    assert.equal(up.truncated, false);
    // Both edges of the cycle are returned, the start node once.
    assert.ok(up.edges.some((e) => e.fromId === jobId(ns, 'upsert') && e.toId === datasetId(ns, 't')));
    assert.ok(up.edges.some((e) => e.fromId === datasetId(ns, 't') && e.toId === jobId(ns, 'upsert')));
  });

  it('visits each node of a diamond once, at its shortest distance', async () => {
    const ns = await graph('diamond', [
      { job: 'split', inputs: ['a'], outputs: ['b', 'c'] },
      { job: 'left', inputs: ['b'], outputs: ['d'] },
      { job: 'right', inputs: ['c'], outputs: ['d'] },
    ]);
    const service = new LineageService(svc.app.executor, { maxDepth: 20, maxNodes: 100 });
    const down = await service.lineage(datasetId(ns, 'a'), Direction.DOWNSTREAM, 10);
    const d = down.nodes.filter((n) => n.id === datasetId(ns, 'd'));
    assert.equal(d.length, 1);
    assert.equal(d[0]!.distance, 4);
    assert.equal(down.edges.length, 7);
  });

  it('stops at the node limit and says so', async () => {
    const fanOut = Array.from({ length: 12 }, (_, i) => ({ job: `reader${i}`, inputs: ['topic'], outputs: [`sink${i}`] }));
    const ns = await graph('fanout', fanOut);
    const service = new LineageService(svc.app.executor, { maxDepth: 20, maxNodes: 5 });
    const down = await service.lineage(datasetId(ns, 'topic'), Direction.DOWNSTREAM, 5);
    assert.equal(down.truncated, true);
    assert.deepEqual(down.truncatedBy, ['NODE_LIMIT']);
    assert.equal(down.nodes.length, 6); // the start node and five more
  });

  it('treats symlinked names as one dataset: a Flink path and the Spark catalog table', async () => {
    const ns = uniquePrefix('alias');
    const path = datasetId(`${ns}s3://warehouse`, '/db/orders');
    const table = datasetId(`${ns}hive://metastore`, 'db.orders');
    const flink = runEvent(`${ns}s3://warehouse`, { job: 'flink-sink', outputs: ['/db/orders'] }) as any;
    flink.job.namespace = `${ns}flink`;
    flink.outputs[0].facets = { symlinks: { identifiers: [{ namespace: `${ns}hive://metastore`, name: 'db.orders', type: 'TABLE' }] } };
    const spark = runEvent(`${ns}hive://metastore`, { job: 'report', inputs: ['db.orders'], outputs: ['db.report'] }) as any;
    spark.job.namespace = `${ns}spark`;
    await svc.app.ingestor.ingest([flink, spark].map((v) => ({ raw: JSON.stringify(v), value: v })));
    const service = new LineageService(svc.app.executor, { maxDepth: 20, maxNodes: 100 });
    const up = await service.lineage(datasetId(`${ns}hive://metastore`, 'db.report'), Direction.UPSTREAM, 3);
    assert.deepEqual(
      up.nodes.map((n) => [n.id, n.distance]),
      [
        [datasetId(`${ns}hive://metastore`, 'db.report'), 0],
        [jobId(`${ns}spark`, 'report'), 1],
        [table, 2],
        [path, 2],
        [jobId(`${ns}flink`, 'flink-sink'), 3],
      ],
    );
    assert.equal(up.truncated, false);
    assert.ok(up.edges.some((e) => e.type === 'ALIAS' && e.fromId === table && e.toId === path));
    // The start node comes first, its alias next at the same distance.
    const down = await service.lineage(path, Direction.DOWNSTREAM, 1);
    assert.deepEqual(down.nodes.map((n) => [n.id, n.distance]), [[path, 0], [table, 0], [jobId(`${ns}spark`, 'report'), 1]]);
    assert.deepEqual(down.truncatedBy, ['DEPTH']);
  });

  it('sees no lineage from an isolated dataset', async () => {
    const ns = await graph('lonely', [{ job: 'only', outputs: ['x'] }]);
    const service = new LineageService(svc.app.executor, { maxDepth: 20, maxNodes: 5 });
    const down = await service.lineage(datasetId(ns, 'x'), Direction.DOWNSTREAM, 3);
    assert.deepEqual(ids(down.nodes), [datasetId(ns, 'x')]);
    assert.deepEqual(down.edges, []);
    assert.equal(down.truncated, false);
  });
});

describe('catalog batch queries (nodes/*.cypher)', () => {
  it('answer in key order with null or empty lists for unknown ids', async () => {
    const ns = uniquePrefix('catalog');
    const runId = isolatedRunId(ns, 'a5c6a9b2-6d6c-4f8a-9a53-4f2c8b3d0a11');
    await graph(
      'catalog',
      [
        { job: 'j1', inputs: ['in'], outputs: ['out'], eventType: 'START', eventTime: '2024-01-01T00:00:00Z', runId },
        { job: 'j1', inputs: ['in'], outputs: ['out'], eventType: 'COMPLETE', eventTime: '2024-01-01T01:00:00Z', runId },
      ],
      ns,
    );
    const c = new CatalogService(svc.app.executor);
    const missing = datasetId(ns, 'missing');
    const ds = await c.datasets([datasetId(ns, 'out'), missing, datasetId(ns, 'in')]);
    assert.deepEqual(ds.map((d) => d?.name ?? null), ['out', null, 'in']);
    assert.deepEqual(await c.jobIo([jobId(ns, 'j1'), jobId(ns, 'nope')]), [
      { inputs: [datasetId(ns, 'in')], outputs: [datasetId(ns, 'out')] },
      { inputs: [], outputs: [] },
    ]);
    assert.deepEqual(await c.datasetJobs([datasetId(ns, 'in')]), [{ producers: [], consumers: [jobId(ns, 'j1')] }]);
    const [latest] = await c.latestRunOfJobs([jobId(ns, 'j1')]);
    assert.equal(latest, `run:${runId}`);
    const [run] = await c.runs([latest!]);
    assert.equal(run!.state, 'COMPLETE');
    assert.deepEqual(await c.runIo([latest!]), [{ inputs: [datasetId(ns, 'in')], outputs: [datasetId(ns, 'out')] }]);
    assert.deepEqual(await c.fieldsOfDatasets([missing]), [[]]);
  });
});
