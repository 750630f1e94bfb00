import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GraphQLSchema } from 'graphql';
import { loadQueries, Query } from '../../src/graph/queries';
import { datasetId, fieldId, jobId, runId } from '../../src/ids';
import { secondPassQueries, warmUpShapes, warmUpTransactions } from '../../src/graph/warmup';
import { warmUpRuns } from '../../src/graph/warmup-runs';
import { startService, type TestService } from '../support/app';
import { docsOf, manifest, repoRoot } from '../support/corpus';
import { generateEvents } from '../support/generate';
import { sweepDocuments, sweepSchema } from '../support/graphql-sweep';
import { isolate, uniquePrefix } from '../support/isolate';
import { CORPUS_OUTCOMES } from '../support/policy';
import { shapesColdAfterWarmUp } from '../support/warm-shapes';

let svc: TestService;
before(async () => {
  // A refresher whose timer never fires: its record of the shapes run is what the last test reads.
  // A sweep's documents ask for every field: the complexity bound is not what they test.
  svc = await startService({ TRIBUTARY_PLAN_REFRESH_S: '3600', TRIBUTARY_MAX_QUERY_COMPLEXITY: '100000000' });
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

  it('compiles every plan the corpus and real producers need in the warm-up: each event alone, and all of them as one stream', async () => {
    // Neo4j keys a plan by its parameters' types, where an empty list is a type of its own: an
    // event without inputs, facets only on its run, a lone dataset event each send some list
    // empty that a fuller batch does not. Each event is projected alone (the service waits for the
    // projection), then all again as batches; every shape the projection sent must be one the
    // default warm-up compiled, or that event's user waits for a plan on the request path.
    const { events, statuses } = await corpus();
    const accepted = Object.entries(CORPUS_OUTCOMES).filter(([k]) => k.startsWith('accepted')).reduce((n, [, v]) => n + v, 0);
    assert.equal(statuses.get(201), accepted, JSON.stringify([...statuses]));
    for (let i = 0; i < events.length; i += 100) await svc.post('/api/v1/lineage/batch', JSON.stringify(events.slice(i, i + 100)));
    assert.deepEqual(shapesColdAfterWarmUp(svc, { ingest: true }), []);
  });

  it('answers every GraphQL field over the corpus without an error, with plans the warm-up compiled', async () => {
    // What a catalog tool asking for everything runs: each root field with every field reachable
    // without arguments of its own (three levels deep), each enum and boolean argument in turn
    // (test/support/graphql-sweep.ts), from a dataset, a job, a column and a run the corpus wrote
    // column lineage for: the corpus's first such event, and the producer fixtures' (the seed
    // pipeline's Iceberg tables, with symlinks and metadata columns). Lineage as of a time is left
    // out: its plans are the second pass's (the coverage dashboard's lineageDiff is in).
    const { events, fixturesFrom } = await corpus();
    const schema = sweepSchema();
    let documents = 0;
    for (const found of [await corpusNodes(events), await corpusNodes(events.slice(fixturesFrom))]) documents += await sweep(schema, found);
    assert.ok(documents > 160, `documents: ${documents}`);
    assert.deepEqual(shapesColdAfterWarmUp(svc), []);
  });
});

/** Runs the sweep's documents from `found`'s nodes, each without an error; returns how many. */
async function sweep(schema: GraphQLSchema, found: Awaited<ReturnType<typeof corpusNodes>>): Promise<number> {
  const q = (s: string) => JSON.stringify(s);
  const calls: [string, Record<string, string>, Record<string, string[]>?][] = [
    ...[found.dataset, found.job, found.field].flatMap((id): [string, Record<string, string>, Record<string, string[]>?][] => [
      ['lineage', { nodeId: q(id), granularity: id === found.field ? 'FIELD' : 'DATASET' }],
      ['node', { id: q(id) }],
    ]),
    ['blastRadius', { nodeId: q(found.dataset) }],
    ['blastRadius', { nodeId: q(found.field) }],
    ['trace', { nodeId: q(found.dataset) }, { direction: ['BOTH'] }],
    ['trace', { nodeId: q(found.field) }, { direction: ['BOTH'] }],
    ['path', { fromId: q(found.input), toId: q(found.dataset), granularity: 'DATASET' }],
    ['path', { fromId: q(found.inputField), toId: q(found.field), granularity: 'FIELD' }],
    ['dataset', { id: q(found.dataset) }],
    ['job', { id: q(found.job) }],
    ['run', { id: q(found.run) }],
    ['node', { id: q(found.run) }],
    ['identity', { id: q(found.dataset) }],
    ['coverage', {}, { scope: ['ENGINE', 'JOB', 'NAMESPACE'] }],
    ['coverage', { scope: 'NAMESPACE', value: q(found.namespace) }],
    ['coverage', { scope: 'JOB', value: q(found.job) }],
    ['coverage', { scope: 'ENGINE', value: q('spark') }],
    ['coverageGaps', { scope: 'NAMESPACE', value: q(found.namespace) }],
    ['coverageGaps', { scope: 'JOB', value: q(found.job) }],
    ['search', { text: q(found.name.slice(0, 4)) }],
    ['datasets', { namespace: q(found.namespace) }],
    ['jobs', { namespace: q(found.namespace) }],
    ['namespaces', {}],
    ['lineageBreaks', { namespace: q(found.namespace) }],
  ['lineageDiff', { from: q('2020-01-01T00:00:00Z') }, { scope: ['ENGINE', 'JOB', 'NAMESPACE'] }],
  ['lineageDiff', { from: q('2020-01-01T00:00:00Z'), scope: 'NAMESPACE', value: q(found.namespace) }],
  ];
  let documents = 0;
  for (const [root, args, invalid] of calls) {
    for (const doc of sweepDocuments(schema, root, args, invalid)) {
      const body = await svc.graphql(doc);
      assert.equal(body.errors, undefined, `${doc.slice(0, doc.indexOf(' { __typename'))}: ${JSON.stringify(body.errors)}`);
      documents++;
    }
  }
  return documents;
}

/** Events real producers sent here (test/fixtures: the seed pipeline's Debezium, Flink and Spark, openlineage-python, Spark 1.37 and 1.53). */
const PRODUCER_FIXTURES = [
  'seed-stack/debezium.ndjson',
  'seed-stack/flink.ndjson',
  'seed-stack/spark.ndjson',
  'openlineage-spark-1.37-orders-by-country.ndjson',
  'openlineage-spark-1.53-orders-by-country.ndjson',
  'openlineage-spark-1.53-orders-by-country-no-cll.ndjson',
  'openlineage-python-1.54-column-lineage.json',
];

/**
 * The corpus's documents and the producer fixtures' events, isolated, each posted once alone, in
 * that order (memoised: two tests read them); `statuses` counts the corpus's answers only.
 */
let corpusOnce: Promise<{ events: Record<string, any>[]; statuses: Map<number, number>; fixturesFrom: number }> | undefined;
function corpus() {
  corpusOnce ??= (async () => {
    const ns = uniquePrefix('warmup-corpus');
    const events = manifest().flatMap((r) => docsOf(r.file).filter((d) => d.value !== undefined).map((d) => isolate(d.value as Record<string, any>, ns)));
    const statuses = new Map<number, number>();
    for (const e of events) {
      const status = (await svc.postEvent(e)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const fixturesFrom = events.length;
    for (const file of PRODUCER_FIXTURES) {
      const text = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', file), 'utf8');
      const docs = file.endsWith('.ndjson') ? text.trim().split('\n').map((l) => JSON.parse(l)) : [JSON.parse(text)];
      for (const d of docs) {
        const e = isolate(d as Record<string, any>, ns);
        const res = await svc.postEvent(e);
        assert.equal(res.status, 201, `${file}: ${JSON.stringify(res.body)}`);
        events.push(e);
      }
    }
    return { events, statuses, fixturesFrom };
  })();
  return corpusOnce;
}

/**
 * From the corpus's events with column lineage: an output dataset the graph holds with a column
 * that has inputs, its job, a run of it, one of its inputs and an input column.
 */
async function corpusNodes(events: Record<string, any>[]) {
  for (const e of events) {
    for (const out of e.outputs ?? []) {
      const fields = Object.entries(out.facets?.columnLineage?.fields ?? {}) as [string, { inputFields?: { namespace: string; name: string; field: string }[] }][];
      const withInput = fields.find(([, f]) => (f.inputFields ?? []).length > 0);
      if (!withInput || !e.run?.runId || !e.job) continue;
      const input = withInput[1].inputFields![0]!;
      const ids = {
        dataset: datasetId(out.namespace, out.name),
        field: fieldId(out.namespace, out.name, withInput[0]),
        job: jobId(e.job.namespace, e.job.name),
        run: runId(e.run.runId),
        input: datasetId(input.namespace, input.name),
        inputField: fieldId(input.namespace, input.name, input.field),
      };
      const keys = Object.keys(ids);
      const body = await svc.graphql(`query(${keys.map((k) => `$${k}: ID!`).join(', ')}) { ${keys.map((k) => `${k}: node(id: $${k}) { id }`).join(' ')} }`, ids);
      // A template's placeholder run id is refused (BAD_INPUT): not a start either.
      if (body.errors === undefined && Object.values(body.data).every((n) => n !== null)) return { ...ids, namespace: out.namespace as string, name: out.name as string };
    }
  }
  throw new Error('no corpus event with column lineage whose nodes are all in the graph');
}
