import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dumpNamespaces, type GraphDump } from '../support/dump';
import { Query } from '../../src/graph/queries';
import { convertFacetStorage } from '../../src/ingest/facet-storage';
import { datasetId, fieldId, jobId, runId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

/** The OpenLineage model, projected: facets, event kinds, history, column lineage, names, parents. */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const ingest = async (events: unknown[]) => {
  const outcomes = await svc.app.ingestor.ingest(events.map((value) => ({ raw: JSON.stringify(value), value })));
  for (const o of outcomes) assert.ok(o.ok, JSON.stringify(o));
};
const node = (dump: GraphDump, id: string) => dump.nodes.find((n) => n.props.id === id)?.props;
const rels = (dump: GraphDump, type: string) => dump.rels.filter((r) => r.type === type);
/** One facet as stored (merge-facets.cypher): its JSON ('' once deleted) and time; undefined if never seen. */
const facetOf = (props: Record<string, unknown>, key: string) => {
  const i = ((props.facetKeys as string[] | undefined) ?? []).indexOf(key);
  return i < 0 ? undefined : { value: (props.facetValues as string[])[i]!, at: (props.facetTimes as string[])[i]! };
};
const T = (minute: number) => `2024-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('facets', () => {
  it('keeps per key the facet of the latest event, whatever the arrival order; deletion clears it', async () => {
    for (const order of ['forward', 'reverse']) {
      const ns = uniquePrefix(`facets-${order}`);
      const doc = (description: string) => ({ _producer: 'p', _schemaURL: 's', description });
      const events = [
        runEvent(ns, { job: 'j', outputs: ['t'], eventTime: T(1), datasetFacets: { t: { documentation: doc('v1'), ownership: { owners: [{ name: 'team-a' }] } } } }),
        runEvent(ns, { job: 'j', outputs: ['t'], eventTime: T(2), datasetFacets: { t: { documentation: doc('v2') } } }),
        runEvent(ns, { job: 'j', outputs: ['t'], eventTime: T(3), datasetFacets: { t: { ownership: { _deleted: true } } } }),
      ];
      for (const e of order === 'forward' ? events : [...events].reverse()) await ingest([e]);
      const d = node(await dumpNamespaces(svc.app, ns), datasetId(ns, 't'))!;
      assert.equal(d.description, 'v2', order);
      assert.equal(JSON.parse(facetOf(d, 'documentation')!.value).description, 'v2');
      assert.deepEqual(facetOf(d, 'ownership'), { value: '', at: T(3) }, 'deleted facet, with the time of its deletion');
      assert.equal(d.owners, undefined, 'derived property cleared with its facet');
      assert.deepEqual(d.facetKeys, ['documentation', 'ownership'], 'kept in key order');
    }
  });

  it('keeps unknown facets as JSON, queryable over GraphQL', async () => {
    const ns = uniquePrefix('custom-facet');
    await ingest([runEvent(ns, { job: 'j', outputs: ['t'], jobFacets: { acme_cost: { _producer: 'p', dollars: 12.5 } } })]);
    const res = await svc.graphql(`query($id: ID!) { job(id: $id) { facets } }`, { id: jobId(ns, 'j') });
    assert.deepEqual(res.data.job.facets, { acme_cost: { _producer: 'p', dollars: 12.5 } });
  });

  it('never turns a producer-chosen facet key into a Neo4j property key, on nodes or edges', async () => {
    const ns = uniquePrefix('facet-keys');
    const tag = ns.replace(/[^a-z0-9]/gi, '');
    const keys = [`${tag}_plain`, `facet.${tag}`, `facetAt.${tag}`, `${tag} with space`, `${tag}\`tick`, `${tag}_日本`, `__proto__${tag}`];
    const facets = Object.fromEntries(keys.map((k, i) => [k, { _producer: 'p', n: i }]));
    const e = runEvent(ns, { job: 'j', inputs: ['in'], outputs: ['out'], jobFacets: facets, runFacets: facets, datasetFacets: { out: facets } }) as any;
    e.inputs[0].inputFacets = facets;
    e.outputs[0].outputFacets = facets;
    await ingest([e]);
    const { records } = await svc.app.driver.executeQuery('CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey) AS keys');
    const propertyKeys = records[0]!.get('keys') as string[];
    assert.deepEqual(propertyKeys.filter((k) => k.includes(tag)), [], 'no property key names a facet');
    const res = await svc.graphql(`query($j: ID!, $d: ID!, $r: ID!) { job(id: $j) { facets } dataset(id: $d) { facets } run(id: $r) { facets } }`, {
      j: jobId(ns, 'j'),
      d: datasetId(ns, 'out'),
      r: runId(e.run.runId),
    });
    for (const kind of ['job', 'dataset', 'run']) assert.deepEqual(res.data[kind].facets, facets, kind);
    const dump = await dumpNamespaces(svc.app, ns);
    for (const type of ['INPUT_TO', 'OUTPUT_TO']) {
      assert.deepEqual(rels(dump, type)[0]!.props.facetKeys, [...keys].sort(), type);
    }
  });

  it('converts a graph stored the old way (a property per facet) to the lists, losing nothing', async () => {
    const ns = uniquePrefix('facet-migration');
    const doc = (description: string) => ({ _producer: 'p', _schemaURL: 's', description });
    const e = runEvent(ns, { job: 'j', inputs: ['in'], outputs: ['out'], eventTime: T(1), jobFacets: { documentation: doc('job') }, datasetFacets: { out: { documentation: doc('v1'), ownership: { owners: [{ name: 'a' }] } } } }) as any;
    e.inputs[0].inputFacets = { dataQualityMetrics: { rowCount: 3, columnMetrics: {} } };
    await ingest([e, runEvent(ns, { job: 'j', outputs: ['out'], eventTime: T(2), datasetFacets: { out: { ownership: { _deleted: true } } } })]);
    const before = await dumpNamespaces(svc.app, ns);
    // Rewrite this namespace's entities in the form versions before the lists wrote.
    const toOldForm = `WITH x WHERE x.facetKeys IS NOT NULL
       FOREACH (i IN range(0, size(x.facetKeys) - 1) |
         SET x['facetAt.' + x.facetKeys[i]] = x.facetTimes[i], x['facet.' + x.facetKeys[i]] = CASE WHEN x.facetValues[i] = '' THEN null ELSE x.facetValues[i] END)
       REMOVE x.facetKeys, x.facetValues, x.facetTimes`;
    const runs = `MATCH (r:Run)-[:RUN_OF]->(j:Job) WHERE j.namespace = $ns`;
    for (const select of [
      `MATCH (x) WHERE (x:Job OR x:Dataset) AND x.namespace = $ns`,
      `${runs} WITH r AS x`,
      `${runs} MATCH (r)-[x:OUTPUT_TO|INPUT_TO]-(:Dataset)`,
    ]) {
      await svc.app.driver.executeQuery(`${select} ${toOldForm}`, { ns });
    }
    const old = await dumpNamespaces(svc.app, ns);
    assert.notDeepEqual(old, before, 'the namespace is in the old form');
    assert.ok(node(old, datasetId(ns, 'out'))!['facetAt.ownership'], 'old form has a property per facet');
    const converted = await convertFacetStorage(svc.app.executor, 3);
    assert.equal(converted, 3, 'the job, the output dataset and the INPUT_TO edge (the run had no facets), in pages of 3');
    assert.deepEqual(await dumpNamespaces(svc.app, ns), before);
    assert.equal(await convertFacetStorage(svc.app.executor), 0, 'idempotent');
  });

  it('stores input and output dataset facets on the run-level edges', async () => {
    const ns = uniquePrefix('io-facets');
    const e = runEvent(ns, { job: 'j', inputs: ['in'], outputs: ['out'] }) as any;
    e.inputs[0].inputFacets = { dataQualityMetrics: { rowCount: 10, columnMetrics: {} } };
    e.outputs[0].outputFacets = { outputStatistics: { rowCount: 7, size: 100 } };
    await ingest([e]);
    const dump = await dumpNamespaces(svc.app, ns);
    assert.equal(JSON.parse(facetOf(rels(dump, 'INPUT_TO')[0]!.props, 'dataQualityMetrics')!.value).rowCount, 10);
    assert.equal(JSON.parse(facetOf(rels(dump, 'OUTPUT_TO')[0]!.props, 'outputStatistics')!.value).rowCount, 7);
  });
});

describe('event kinds', () => {
  it('projects a JobEvent as static lineage (no run) and a DatasetEvent as dataset metadata', async () => {
    const ns = uniquePrefix('kinds');
    const jobEvent = {
      eventTime: T(1),
      producer: 'p',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: { namespace: ns, name: 'designed', facets: { jobType: { processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' } } },
      inputs: [{ namespace: ns, name: 'src' }],
      outputs: [{ namespace: ns, name: 'model' }],
    };
    const datasetEvent = {
      eventTime: T(2),
      producer: 'p',
      dataset: { namespace: ns, name: 'model', facets: { schema: { fields: [{ name: 'id', type: 'int' }] } } },
    };
    await ingest([jobEvent, datasetEvent]);
    const dump = await dumpNamespaces(svc.app, ns);
    assert.deepEqual(dump.nodes.filter((n) => n.labels.includes('Run')), []);
    assert.deepEqual(rels(dump, 'FEEDS').map((r) => [r.from, r.to, r.props.current, r.props.staticAt]), [[datasetId(ns, 'src'), jobId(ns, 'designed'), true, T(1)]]);
    assert.equal(node(dump, jobId(ns, 'designed'))!.integration, 'DBT');
    assert.equal(node(dump, fieldId(ns, 'model', 'id'))!.type, 'int');
  });

  it('gives streaming jobs lineage from START and RUNNING events alone', async () => {
    const ns = uniquePrefix('streaming');
    const rid = isolatedRunId(ns, 'bd1e2f1c-5a4e-4e8b-9a51-1d2b3c4d5e6f');
    const jobType = { jobType: { processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' } };
    await ingest([
      runEvent(ns, { job: 'enrich', eventType: 'START', eventTime: T(1), runId: rid, inputs: ['orders-topic'], jobFacets: jobType }),
      runEvent(ns, { job: 'enrich', eventType: 'RUNNING', eventTime: T(5), runId: rid, inputs: ['orders-topic'], outputs: ['enriched'] }),
    ]);
    const l = await svc.app.executor.read<{ node: { id: string } }>(Query.NodeExists, {
      datasetId: datasetId(ns, 'enriched'),
      jobId: null,
      fieldId: null,
      fieldDatasetId: null,
      fieldName: null,
    });
    assert.equal(l.length, 1);
    const res = await svc.graphql(`query($id: ID!) { job(id: $id) { processingType latestRun { state } inputs { name } outputs { name } } }`, {
      id: jobId(ns, 'enrich'),
    });
    assert.deepEqual(res.data.job, { processingType: 'STREAMING', latestRun: { state: 'RUNNING' }, inputs: [{ name: 'orders-topic' }], outputs: [{ name: 'enriched' }] });
  });
});

describe('current and historical lineage', () => {
  it('keeps an input the job stopped reading as history, whatever the arrival order', async () => {
    for (const order of ['forward', 'reverse']) {
      const ns = uniquePrefix(`history-${order}`);
      const events = [
        runEvent(ns, { job: 'j', eventType: 'START', eventTime: T(1), runId: isolatedRunId(ns, '11111111-1111-4111-8111-111111111111'), inputs: ['old_src'] }),
        runEvent(ns, { job: 'j', eventType: 'COMPLETE', eventTime: T(2), runId: isolatedRunId(ns, '11111111-1111-4111-8111-111111111111'), outputs: ['t'] }),
        runEvent(ns, { job: 'j', eventType: 'START', eventTime: T(10), runId: isolatedRunId(ns, '22222222-2222-4222-8222-222222222222'), inputs: ['new_src'] }),
        runEvent(ns, { job: 'j', eventType: 'COMPLETE', eventTime: T(11), runId: isolatedRunId(ns, '22222222-2222-4222-8222-222222222222'), outputs: ['t'] }),
      ];
      for (const e of order === 'forward' ? events : [...events].reverse()) await ingest([e]);
      const dump = await dumpNamespaces(svc.app, ns);
      const feeds = rels(dump, 'FEEDS').map((r) => [r.from, r.props.current, r.props.firstSeen, r.props.lastSeen, r.props.lastRunId]);
      assert.deepEqual(
        feeds,
        [
          [datasetId(ns, 'new_src'), true, T(10), T(10), runId(isolatedRunId(ns, '22222222-2222-4222-8222-222222222222'))],
          [datasetId(ns, 'old_src'), false, T(1), T(1), runId(isolatedRunId(ns, '11111111-1111-4111-8111-111111111111'))],
        ],
        order,
      );
      assert.deepEqual(rels(dump, 'PRODUCES').map((r) => r.props.current), [true]);
    }
  });
});

describe('column lineage facet', () => {
  it('stores transformations (also the deprecated form), dataset-level dependencies and nested fields', async () => {
    const ns = uniquePrefix('cll-model');
    const e = runEvent(ns, { job: 'j', inputs: ['src'], outputs: ['dst'] }) as any;
    e.inputs[0].facets = {
      schema: { fields: [{ name: 'customer', type: 'struct', fields: [{ name: 'id', type: 'int' }, { name: 'tier', type: 'string' }] }] },
    };
    e.outputs[0].facets = {
      columnLineage: {
        fields: {
          customer_id: {
            inputFields: [{ namespace: ns, name: 'src', field: 'customer.id' }],
            transformationType: 'IDENTITY',
            transformationDescription: 'copied',
          },
          total: {
            inputFields: [
              { namespace: ns, name: 'src', field: 'amount', transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum', masking: false }] },
            ],
          },
        },
        dataset: [{ namespace: ns, name: 'src', field: 'customer.tier', transformations: [{ type: 'INDIRECT', subtype: 'FILTER' }] }],
      },
    };
    await ingest([e]);
    const dump = await dumpNamespaces(svc.app, ns);
    const fieldNames = dump.nodes.filter((n) => n.labels.includes('Field')).map((n) => n.props.name).sort();
    assert.deepEqual(fieldNames, ['amount', 'customer', 'customer.id', 'customer.tier', 'customer_id', 'total']);
    const derives = Object.fromEntries(rels(dump, 'DERIVES').map((r) => [r.to, r.props]));
    assert.deepEqual(JSON.parse(derives[fieldId(ns, 'dst', 'customer_id')]!.transformations as string), [
      { type: 'IDENTITY', description: 'copied', deprecatedForm: true },
    ]);
    assert.deepEqual(derives[fieldId(ns, 'dst', 'total')]!.subtypes, ['AGGREGATION']);
    const influences = rels(dump, 'INFLUENCES');
    assert.deepEqual(
      influences.map((r) => [r.from, r.to, r.props.types, r.props.subtypes]),
      [[fieldId(ns, 'src', 'customer.tier'), datasetId(ns, 'dst'), ['INDIRECT'], ['FILTER']]],
    );
    // dataset[] dependencies are not copied onto the output fields.
    assert.equal(rels(dump, 'DERIVES').length, 2);
  });
});

describe('dataset names', () => {
  it('normalises s3a:// to s3:// and Kafka bootstrap lists, recording why', async () => {
    const ns = uniquePrefix('names').replace(/\/$/, '');
    await ingest([
      runEvent(`s3a://${ns}-bucket/`, { job: 'spark', outputs: ['warehouse/orders/'] }),
      runEvent(`kafka://SASL_SSL://b2.${ns}:9093,SASL_SSL://b1.${ns}:9093`, { job: 'connect', outputs: ['orders'] }),
    ]);
    const s3 = (await svc.app.executor.read<{ dataset: any }>(Query.DatasetsById, {
      ids: [datasetId(`s3://${ns}-bucket`, 'warehouse/orders'), datasetId(`kafka://b1.${ns}:9093`, 'orders')],
    })).map((r) => r.dataset);
    assert.equal(s3.length, 2);
    assert.deepEqual(s3[0].rawNames, [`s3a://${ns}-bucket/|warehouse/orders/`]);
    assert.ok(s3[0].normalisations.some((r: string) => r.includes('s3a:// is the Hadoop connector scheme for s3://')));
    assert.ok(s3[1].normalisations.some((r: string) => r.includes('bootstrap list of 2 brokers')));
  });

  it('links symlinked names of one dataset with the reason', async () => {
    const ns = uniquePrefix('symlinks');
    await ingest([
      runEvent(`${ns}s3://wh`, {
        job: 'flink-writer',
        outputs: ['/db/orders'],
        datasetFacets: { '/db/orders': { symlinks: { identifiers: [{ namespace: `${ns}hive://metastore`, name: 'db.orders', type: 'TABLE' }] } } },
      }),
    ]);
    const dump = await dumpNamespaces(svc.app, ns);
    const links = rels(dump, 'SYMLINK');
    assert.deepEqual(
      links.map((r) => [r.from, r.to, r.props.type, r.props.reason]),
      [[datasetId(`${ns}s3://wh`, '/db/orders'), datasetId(`${ns}hive://metastore`, 'db.orders'), 'TABLE', `symlinks facet of ${datasetId(`${ns}s3://wh`, '/db/orders')}`]],
    );
  });
});

describe('parents', () => {
  it('links child runs to parent and root runs, creating them before their own events arrive', async () => {
    const ns = uniquePrefix('parents');
    const dagRun = isolatedRunId(ns, 'aaaaaaaa-0000-4000-8000-000000000001');
    const taskRun = isolatedRunId(ns, 'aaaaaaaa-0000-4000-8000-000000000002');
    await ingest([
      runEvent(ns, {
        job: 'dag.task',
        runId: taskRun,
        runFacets: {
          parent: {
            run: { runId: dagRun },
            job: { namespace: ns, name: 'dag' },
            root: { run: { runId: dagRun }, job: { namespace: ns, name: 'dag' } },
          },
        },
      }),
    ]);
    const res = await svc.graphql(`query($id: ID!) { run(id: $id) { parent { runId job { name } } root { runId } } }`, { id: runId(taskRun) });
    assert.deepEqual(res.data.run, { parent: { runId: dagRun, job: { name: 'dag' } }, root: { runId: dagRun } });
  });
});

describe('job versions', () => {
  it('keeps one version per distinct inputs, outputs and source code, with its runs', async () => {
    const ns = uniquePrefix('versions');
    const code = (rev: string) => ({ sourceCodeLocation: { type: 'git', url: 'https://git.example/etl.py', version: rev } });
    const rid = (n: number) => isolatedRunId(ns, `cccccccc-0000-4000-8000-00000000000${n}`);
    await ingest([
      runEvent(ns, { job: 'etl', runId: rid(1), eventTime: T(1), inputs: ['a'], outputs: ['x'], jobFacets: code('r1') }),
      runEvent(ns, { job: 'etl', runId: rid(2), eventTime: T(2), inputs: ['a'], outputs: ['x'], jobFacets: code('r1') }),
      runEvent(ns, { job: 'etl', runId: rid(3), eventTime: T(3), inputs: ['b'], outputs: ['x'], jobFacets: code('r1') }),
      runEvent(ns, { job: 'etl', runId: rid(4), eventTime: T(4), inputs: ['b'], outputs: ['x'], jobFacets: code('r2') }),
    ]);
    // A later event of run 4 adds an input: the run moves to a new version, the one it left is gone.
    await ingest([runEvent(ns, { job: 'etl', runId: rid(4), eventTime: T(5), inputs: ['c'], jobFacets: code('r2') })]);
    const res = await svc.graphql(`query($id: ID!) { job(id: $id) { versions { inputs outputs runs firstSeen lastSeen } } }`, { id: jobId(ns, 'etl') });
    const ds = (n: string) => datasetId(ns, n);
    assert.deepEqual(res.data.job.versions, [
      { inputs: [ds('b'), ds('c')], outputs: [ds('x')], runs: 1, firstSeen: T(4), lastSeen: T(5) },
      { inputs: [ds('b')], outputs: [ds('x')], runs: 1, firstSeen: T(3), lastSeen: T(3) },
      { inputs: [ds('a')], outputs: [ds('x')], runs: 2, firstSeen: T(1), lastSeen: T(2) },
    ]);
    const run = await svc.graphql(`query($id: ID!) { run(id: $id) { version { runs inputs } } }`, { id: runId(rid(2)) });
    assert.deepEqual(run.data.run.version, { runs: 2, inputs: [ds('a')] });
  });
});
