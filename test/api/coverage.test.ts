import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * A namespace with five job → output edges: Spark (column lineage for 2 of 3 fields, runs in weeks
 * 1 and 3), dbt (column lineage, engine from the producer URI), two Flink jobs without column
 * lineage, one of whose outputs feeds a downstream job.
 */
let svc: TestService;
let ns: string;
const schema = (...names: string[]) => ({ schema: { fields: names.map((name) => ({ name, type: 'string' })) } });
const jobType = (integration: string) => ({ jobType: { processingType: 'BATCH', integration, jobType: 'JOB' } });

before(async () => {
  svc = await startService();
  ns = uniquePrefix('coverage');
  const spark = (t: string) =>
    runEvent(ns, { job: 'spark1', eventTime: t, inputs: ['src'], outputs: ['A'], jobFacets: jobType('SPARK'), datasetFacets: { A: schema('a1', 'a2', 'a3') }, columns: { A: { a1: ['src.x'], a2: ['src.y'] } } });
  const dbt = { ...runEvent(ns, { job: 'dbt1', eventTime: '2024-01-08T10:00:00Z', inputs: ['src'], outputs: ['C'], datasetFacets: { C: schema('c1') }, columns: { C: { c1: ['src.x'] } } }), producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.40.0/integration/dbt' };
  const events = [
    spark('2024-01-01T10:00:00Z'),
    spark('2024-01-15T10:00:00Z'),
    runEvent(ns, { job: 'flink1', eventTime: '2024-01-08T10:00:00Z', inputs: ['src'], outputs: ['B'], jobFacets: jobType('FLINK'), datasetFacets: { B: schema('b1', 'b2') } }),
    dbt,
    runEvent(ns, { job: 'flink2', eventTime: '2024-01-08T11:00:00Z', inputs: ['src'], outputs: ['E'], jobFacets: jobType('FLINK') }),
    runEvent(ns, { job: 'x', eventTime: '2024-01-09T10:00:00Z', inputs: ['B'], outputs: ['D'], jobFacets: jobType('SPARK') }),
    // A Spark CREATE TABLE: an output (with its schema) and no input; nothing to report lineage of.
    runEvent(ns, { job: 'create1', eventTime: '2024-01-09T09:00:00Z', outputs: ['A'], jobFacets: jobType('SPARK'), datasetFacets: { A: schema('a1', 'a2', 'a3') } }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

const FIG = 'key edges columnLevel datasetLevelOnly columnLevelShare outputFields fieldsWithInputs fieldShare noInputEdges';

describe('coverage', () => {
  it('lineage edges job → output carry the same coverage: column level or dataset level only, with their figures', async () => {
    const res = await svc.graphql(
      `query($id: ID!) { lineage(nodeId: $id, direction: DOWNSTREAM, depth: 2) { edges { type fromId toId columnLevel outputFields fieldsWithInputs } } }`,
      { id: datasetId(ns, 'src') },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    type E = { type: string; fromId: string; toId: string; columnLevel: boolean | null; outputFields: number | null; fieldsWithInputs: number | null };
    const edges = res.data.lineage.edges as E[];
    const produces = Object.fromEntries(edges.filter((e) => e.type === 'PRODUCES').map((e) => [e.fromId, [e.columnLevel, e.outputFields, e.fieldsWithInputs]]));
    assert.deepEqual(produces, {
      [jobId(ns, 'spark1')]: [true, 3, 2],
      [jobId(ns, 'dbt1')]: [true, 1, 1],
      [jobId(ns, 'flink1')]: [false, 2, 0],
      [jobId(ns, 'flink2')]: [false, 0, 0],
    });
    for (const e of edges.filter((x) => x.type !== 'PRODUCES')) assert.deepEqual([e.columnLevel, e.outputFields, e.fieldsWithInputs], [null, null, null], `${e.type} carries no coverage`);
  });

  it('counts column-level vs dataset-level edges and field shares, by engine, namespace and job, with a trend', async () => {
    const res = await svc.graphql(
      `query($ns: String) { coverage(scope: NAMESPACE, value: $ns, bucket: WEEK) {
        truncated overall { ${FIG} } byEngine { key edges columnLevel noInputEdges } byNamespace { key edges } byJob { key columnLevel datasetLevelOnly }
        trend { start end edges columnLevel columnLevelShare } } }`,
      { ns },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const c = res.data.coverage;
    assert.equal(c.truncated, false);
    // The CREATE TABLE job's edge is counted apart, not as dataset level only.
    assert.deepEqual(c.overall, { key: 'all', edges: 5, columnLevel: 2, datasetLevelOnly: 3, columnLevelShare: 0.4, outputFields: 6, fieldsWithInputs: 3, fieldShare: 0.5, noInputEdges: 1 });
    assert.deepEqual(c.byEngine, [
      { key: 'flink', edges: 2, columnLevel: 0, noInputEdges: 0 },
      { key: 'spark', edges: 2, columnLevel: 1, noInputEdges: 1 },
      { key: 'dbt', edges: 1, columnLevel: 1, noInputEdges: 0 },
    ]);
    assert.deepEqual(c.byJob.find((j: { key: string }) => j.key === jobId(ns, 'create1')), { key: jobId(ns, 'create1'), columnLevel: 0, datasetLevelOnly: 0 });
    assert.deepEqual(c.byNamespace, [{ key: ns, edges: 5 }]);
    assert.equal(c.byJob.find((j: { key: string }) => j.key === jobId(ns, 'flink1')).datasetLevelOnly, 1);
    assert.deepEqual(c.trend, [
      { start: '2024-01-01T00:00:00.000Z', end: '2024-01-08T00:00:00.000Z', edges: 1, columnLevel: 1, columnLevelShare: 1 },
      { start: '2024-01-08T00:00:00.000Z', end: '2024-01-15T00:00:00.000Z', edges: 5, columnLevel: 2, columnLevelShare: 0.4 },
      { start: '2024-01-15T00:00:00.000Z', end: '2024-01-22T00:00:00.000Z', edges: 1, columnLevel: 1, columnLevelShare: 1 },
    ]);
  });

  it('scopes to one job', async () => {
    const res = await svc.graphql(`query($id: String) { coverage(scope: JOB, value: $id) { overall { edges columnLevel fieldShare } } }`, { id: jobId(ns, 'spark1') });
    assert.deepEqual(res.data.coverage.overall, { edges: 1, columnLevel: 1, fieldShare: 0.6667 });
  });

  it('needs a value for a scope other than ALL', async () => {
    const res = await svc.graphql(`{ coverage(scope: NAMESPACE) { overall { edges } } }`);
    assert.equal(res.errors![0].extensions.code, 'BAD_INPUT');
    // Refused at the root, whatever is selected: not an answer of only the echoed arguments.
    const echoed = await svc.graphql(`{ coverage(scope: ENGINE) { scope value } }`);
    assert.deepEqual(echoed.errors?.map((e: any) => [e.extensions.code, e.message, e.path]), [['BAD_INPUT', 'scope ENGINE needs a value', ['coverage']]]);
    assert.equal(echoed.data, null);
  });

  it('gives an empty trend for a window bounded on one side that holds no edge', async () => {
    for (const bound of ['to: "2023-06-01T00:00:00Z"', 'from: "2025-06-01T00:00:00Z"']) {
      const res = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns, ${bound}) { trend { start } overall { edges } } }`, { ns });
      assert.equal(res.errors, undefined, `${bound}: ${JSON.stringify(res.errors)}`);
      assert.deepEqual(res.data.coverage, { trend: [], overall: { edges: 5 } }, bound);
    }
  });

  it('refuses a malformed trend window whatever is selected, and on a scope with no edges', async () => {
    const cases: [string, string][] = [
      ['from: "last tuesday"', 'from must be an ISO-8601 date-time (got "last tuesday")'],
      ['to: "2024-13-45"', 'to must be an ISO-8601 date-time (got "2024-13-45")'],
      ['from: "2024-02-01T00:00:00Z", to: "2024-01-01T00:00:00Z"', 'to must not be before from'],
    ];
    for (const [args, message] of cases) {
      for (const selection of ['overall { edges }', 'trend { start }']) {
        const res = await svc.graphql(`{ coverage(scope: NAMESPACE, value: "t-no-such-namespace/", ${args}) { ${selection} } }`);
        assert.deepEqual(res.errors?.map((e: any) => [e.extensions.code, e.message]), [['BAD_INPUT', message]], `${args} ${selection}`);
      }
    }
  });
});

describe('coverageGaps', () => {
  it('ranks dataset-level-only edges by what depends on their output', async () => {
    const res = await svc.graphql(`query($ns: String) { coverageGaps(scope: NAMESPACE, value: $ns) { totalGaps truncated gaps { jobId datasetId engine downstreamDatasets downstreamJobs } } }`, { ns });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data.coverageGaps, {
      totalGaps: 3,
      truncated: false,
      gaps: [
        { jobId: jobId(ns, 'flink1'), datasetId: datasetId(ns, 'B'), engine: 'flink', downstreamDatasets: 1, downstreamJobs: 1 },
        { jobId: jobId(ns, 'flink2'), datasetId: datasetId(ns, 'E'), engine: 'flink', downstreamDatasets: 0, downstreamJobs: 0 },
        { jobId: jobId(ns, 'x'), datasetId: datasetId(ns, 'D'), engine: 'spark', downstreamDatasets: 0, downstreamJobs: 0 },
      ],
    });
  });
});

describe('coverage figures kept on the job → output edges', () => {
  it('follow fields that a later event of another job adds to the output dataset', async () => {
    const ns2 = uniquePrefix('coverage-late-field');
    const fig = async () => {
      const res = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges columnLevel outputFields fieldsWithInputs } } }`, { ns: ns2 });
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      return res.data.coverage.overall;
    };
    const writer = runEvent(ns2, { job: 'w', eventTime: '2024-02-01T10:00:00Z', inputs: ['src'], outputs: ['T'], datasetFacets: { T: schema('t1') }, columns: { T: { t1: ['src.x'] } } });
    assert.equal((await svc.postEvent(writer)).status, 201);
    assert.deepEqual(await fig(), { edges: 1, columnLevel: 1, outputFields: 1, fieldsWithInputs: 1 });
    // A reader names T.t2 as a column-lineage input: T now has two fields, one with inputs via w.
    const reader = runEvent(ns2, { job: 'r', eventTime: '2024-02-02T10:00:00Z', inputs: ['T'], outputs: ['U'], columns: { U: { u1: ['T.t2'] } } });
    assert.equal((await svc.postEvent(reader)).status, 201);
    assert.deepEqual(await fig(), { edges: 2, columnLevel: 2, outputFields: 3, fieldsWithInputs: 2 });
  });

  it('beyond TRIBUTARY_MAX_COVERAGE_EDGES: byJob is partial and says so; overall, byEngine, byNamespace stay complete (summed in Neo4j)', async () => {
    const small = await startService({ TRIBUTARY_MAX_COVERAGE_EDGES: '3' });
    try {
      const res = await small.graphql(
        `query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { truncated overall { edges columnLevel } byEngine { edges } byNamespace { edges } byJob { edges } } }`,
        { ns },
      );
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      const c = res.data.coverage;
      assert.equal(c.truncated, true);
      assert.deepEqual(c.overall, { edges: 5, columnLevel: 2 });
      const total = (list: { edges: number }[]) => list.reduce((n, x) => n + x.edges, 0);
      assert.equal(total(c.byEngine), 5);
      assert.equal(total(c.byNamespace), 5);
      assert.ok(total(c.byJob) <= 3, `byJob reads at most 3 edges (${total(c.byJob)})`);
    } finally {
      await small.close();
    }
  });
});

describe('coverage of edges written before the figures were kept', () => {
  it('computes the figures at read time when PRODUCES lacks them', async () => {
    const query = `query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges columnLevel outputFields fieldsWithInputs } trend { columnLevel } } }`;
    const before = await svc.graphql(query, { ns });
    assert.equal(before.errors, undefined, JSON.stringify(before.errors));
    // As a store projected by an older version would be: no figures on this namespace's edges.
    await svc.app.driver.executeQuery(
      'MATCH (j:Job)-[p:PRODUCES]->() WHERE j.namespace = $ns REMOVE p.outputFields, p.fieldsWithInputs, p.cllFirstSeen, p.cllLastSeen',
      { ns },
    );
    const after = await svc.graphql(query, { ns });
    assert.deepEqual(after.data, before.data);
    assert.equal(after.data.coverage.overall.fieldsWithInputs, 3);
  });
});

describe('coverage with dataset-wide (INDIRECT) column dependencies', () => {
  it('counts every output field as covered when the job reports inputs that affect the whole output, kept and computed alike', async () => {
    const n = uniquePrefix('coverage-indirect');
    const e = runEvent(n, { job: 'filter_only', inputs: ['src'], outputs: ['out'], datasetFacets: { out: schema('o1', 'o2') } }) as any;
    e.outputs[0].facets.columnLineage = {
      fields: {},
      dataset: [{ namespace: n, name: 'src', field: 'status', transformations: [{ type: 'INDIRECT', subtype: 'FILTER' }] }],
    };
    assert.equal((await svc.postEvent(e)).status, 201);
    const query = `query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges columnLevel outputFields fieldsWithInputs } } }`;
    const kept = await svc.graphql(query, { ns: n });
    assert.deepEqual(kept.data.coverage.overall, { edges: 1, columnLevel: 1, outputFields: 2, fieldsWithInputs: 2 });
    await svc.app.driver.executeQuery(
      'MATCH (j:Job)-[p:PRODUCES]->() WHERE j.namespace = $ns REMOVE p.outputFields, p.fieldsWithInputs, p.cllFirstSeen, p.cllLastSeen',
      { ns: n },
    );
    const computed = await svc.graphql(query, { ns: n });
    assert.deepEqual(computed.data, kept.data);
  });
});
