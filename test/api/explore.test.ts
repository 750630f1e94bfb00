import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId, runId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

/**
 * A diamond with a cycle and an engine boundary:
 *   raw → split → left, right → merge → wide → publish → wide (a job reading and writing one table)
 *   Flink writes s3 path /lake/db/events (never read); Spark reads hive db.events (never written).
 */
let svc: TestService;
let ns: string;
const rid = (n: number) => isolatedRunId(ns, `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`);

before(async () => {
  svc = await startService();
  ns = uniquePrefix('explore');
  const events = [
    runEvent(ns, { job: 'split', runId: rid(1), eventTime: '2024-02-01T00:00:00Z', inputs: ['raw'], outputs: ['left', 'right'], columns: { left: { k: ['raw.k'] } } }),
    runEvent(ns, { job: 'merge', runId: rid(2), eventTime: '2024-02-01T01:00:00Z', inputs: ['left', 'right'], outputs: ['wide'], columns: { wide: { k: ['left.k'] } } }),
    runEvent(ns, { job: 'publish', runId: rid(3), eventTime: '2024-02-01T02:00:00Z', inputs: ['wide'], outputs: ['wide'] }),
    runEvent(ns, { job: 'merge', runId: rid(4), eventTime: '2024-02-02T01:00:00Z', eventType: 'FAIL', inputs: ['left', 'right'], outputs: ['wide'] }),
    runEvent(`${ns}s3://lake`, { job: 'flink-writer', outputs: ['/lake/db/events'] }),
    runEvent(`${ns}hive://metastore`, { job: 'spark-reader', inputs: ['db.events'], outputs: ['db.report'] }),
  ];
  const desc = runEvent(ns, { job: 'wide-doc', outputs: ['wide'], datasetFacets: { wide: { documentation: { description: 'Customer orders, one row per order line' } } } });
  for (const e of [...events, desc]) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

describe('path', () => {
  it('says whether the search was complete, and stops at the node limit saying so', async () => {
    const q = `query($from: ID!, $to: ID!) { path(fromId: $from, toId: $to) { found truncated truncatedBy paths { length } } }`;
    const full = await svc.graphql(q, { from: datasetId(ns, 'raw'), to: datasetId(ns, 'wide') });
    assert.deepEqual(full.data.path, { found: true, truncated: false, truncatedBy: [], paths: [{ length: 4 }] });
    const small = await startService({ TRIBUTARY_MAX_NODES: '2' });
    try {
      const cut = await small.graphql(q, { from: datasetId(ns, 'raw'), to: datasetId(ns, 'wide') });
      assert.deepEqual(cut.data.path, { found: false, truncated: true, truncatedBy: ['NODE_LIMIT'], paths: [] });
    } finally {
      await small.close();
    }
  });

  it('finds the shortest way from A to B, and the others on request', async () => {
    const q = `query($from: ID!, $to: ID!, $first: Int) { path(fromId: $from, toId: $to, first: $first) { found paths { length nodes { id } } } }`;
    const shortest = await svc.graphql(q, { from: datasetId(ns, 'raw'), to: datasetId(ns, 'wide') });
    assert.equal(shortest.errors, undefined, JSON.stringify(shortest.errors));
    assert.equal(shortest.data.path.found, true);
    assert.deepEqual(shortest.data.path.paths.map((p: { length: number }) => p.length), [4]);
    // Both branches of the diamond, then the same two once more round the publish cycle.
    const all = await svc.graphql(q, { from: datasetId(ns, 'raw'), to: datasetId(ns, 'wide'), first: 5 });
    assert.deepEqual(
      all.data.path.paths.map((p: { length: number; nodes: { id: string }[] }) => [p.length, p.nodes[2]!.id]),
      [
        [4, datasetId(ns, 'left')],
        [4, datasetId(ns, 'right')],
        [6, datasetId(ns, 'left')],
        [6, datasetId(ns, 'right')],
      ],
    );
    const backwards = await svc.graphql(q, { from: datasetId(ns, 'wide'), to: datasetId(ns, 'raw') });
    assert.deepEqual(backwards.data.path, { found: false, paths: [] });
  });

  it('at FIELD granularity follows column lineage', async () => {
    const res = await svc.graphql(`query($from: ID!, $to: ID!) { path(fromId: $from, toId: $to, granularity: FIELD) { found paths { length edges { jobId } } } }`, {
      from: fieldId(ns, 'raw', 'k'),
      to: fieldId(ns, 'wide', 'k'),
    });
    assert.deepEqual(res.data.path, { found: true, paths: [{ length: 2, edges: [{ jobId: jobId(ns, 'split') }, { jobId: jobId(ns, 'merge') }] }] });
  });
});

describe('lineageBreaks', () => {
  it('lists sources and sinks and pairs the Flink path with the Spark table by name, with evidence and the rule that merges them', async () => {
    const res = await svc.graphql(
      `query($ns: String) { lineageBreaks(namespace: $ns) { sources { id role engines } sinks { id role } probableMatches { writtenId sinkId sourceId key strength evidence ruleKind rule } } }`,
      { ns },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const b = res.data.lineageBreaks;
    assert.deepEqual(b.sources.map((s: { id: string }) => s.id).sort(), [datasetId(`${ns}hive://metastore`, 'db.events'), datasetId(ns, 'raw')].sort());
    assert.deepEqual(b.sinks.map((s: { id: string }) => s.id).sort(), [datasetId(`${ns}hive://metastore`, 'db.report'), datasetId(`${ns}s3://lake`, '/lake/db/events')].sort());
    assert.equal(b.probableMatches.length, 1);
    const m = b.probableMatches[0];
    assert.equal(m.writtenId, datasetId(`${ns}s3://lake`, '/lake/db/events'));
    assert.equal(m.sinkId, m.writtenId);
    assert.equal(m.sourceId, datasetId(`${ns}hive://metastore`, 'db.events'));
    assert.equal(m.key, 'db.events');
    // The same schema.table, but no schema under either name to compare.
    assert.equal(m.strength, 'MEDIUM');
    assert.equal(m.evidence[0], 'both names end in db.events: db.events (read) and /lake/db/events (written)');
    assert.equal(m.evidence[1], 'no fields known under one of the names to compare');
    assert.equal(m.ruleKind, 'DATASET_ALIAS');
    assert.deepEqual(JSON.parse(m.rule), {
      datasetAliases: [
        { name: 'db.events', from: { namespace: `${ns}hive://metastore`, name: 'db.events' }, to: { namespace: `${ns}s3://lake`, name: '/lake/db/events' } },
      ],
    });
  });
});

describe('search', () => {
  it('finds datasets, jobs and fields by name prefix and description words', async () => {
    const byDesc = await svc.graphql(`query($t: String!) { search(text: $t) { total hits { id kind } } }`, { t: `order line` });
    assert.ok(byDesc.data.search.hits.some((h: { id: string }) => h.id === datasetId(ns, 'wide')));
    const jobs = await svc.graphql(`query($t: String!) { search(text: $t, kinds: [JOB]) { total hits { id kind } pageInfo { hasNextPage } } }`, { t: 'flink-wri' });
    assert.ok(jobs.data.search.hits.every((h: { kind: string }) => h.kind === 'JOB'));
    assert.ok(jobs.data.search.hits.some((h: { id: string }) => h.id === jobId(`${ns}s3://lake`, 'flink-writer')));
    // Words inside dotted and path names are found too (db.events, /lake/db/events).
    const inner = await svc.graphql(`query($t: String!) { search(text: $t, kinds: [DATASET], first: 100) { hits { id } } }`, { t: 'events' });
    const ids = inner.data.search.hits.map((h: { id: string }) => h.id);
    assert.ok(ids.includes(datasetId(`${ns}hive://metastore`, 'db.events')) && ids.includes(datasetId(`${ns}s3://lake`, '/lake/db/events')));
    const odd = await svc.graphql(`{ search(text: "a:b (c") { total } }`);
    assert.equal(odd.errors, undefined, 'special characters are escaped, never a syntax error');
    const empty = await svc.graphql(`{ search(text: "   ") { total } }`);
    assert.equal(empty.errors![0].extensions.code, 'BAD_INPUT');
  });
});

describe('runs', () => {
  it("pages a job's runs filtered by state, and links runs through the data they exchanged", async () => {
    const res = await svc.graphql(`query($id: ID!) { job(id: $id) {
      all: runs { total items { runId state } }
      failed: runs(states: ["FAIL"]) { total items { runId } }
      page: runs(first: 1) { items { runId } endCursor hasNextPage } } }`, { id: jobId(ns, 'merge') });
    const j = res.data.job;
    assert.deepEqual(j.all, { total: 2, items: [{ runId: rid(4), state: 'FAIL' }, { runId: rid(2), state: 'COMPLETE' }] });
    assert.deepEqual(j.failed, { total: 1, items: [{ runId: rid(4) }] });
    assert.equal(j.page.hasNextPage, true);
    const next = await svc.graphql(`query($id: ID!, $after: String) { job(id: $id) { runs(first: 1, after: $after) { items { runId } hasNextPage } } }`, {
      id: jobId(ns, 'merge'),
      after: j.page.endCursor,
    });
    assert.deepEqual(next.data.job.runs, { items: [{ runId: rid(2) }], hasNextPage: false });
    const links = await svc.graphql(`query($id: ID!) { run(id: $id) { upstreamRuns { datasetId run { runId } } downstreamRuns { datasetId runId } } }`, { id: runId(rid(2)) });
    assert.deepEqual(links.data.run.upstreamRuns, [
      { datasetId: datasetId(ns, 'left'), run: { runId: rid(1) } },
      { datasetId: datasetId(ns, 'right'), run: { runId: rid(1) } },
    ]);
    assert.deepEqual(links.data.run.downstreamRuns, [{ datasetId: datasetId(ns, 'wide'), runId: runId(rid(3)) }]);
  });
});
