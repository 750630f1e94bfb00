import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { datasetId, escapeComponent, fieldId, jobId, runId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

/**
 * Every read query, PROFILEd on a real graph: it must start from an index (no AllNodesScan, no
 * NodeByLabelScan) whatever else the database holds. Write queries MERGE by id (the unique
 * constraints' indexes) and are covered by the projection tests.
 */
let svc: TestService;
let ns: string;
const rid = () => isolatedRunId(ns, '0000000a-0000-4000-8000-000000000000');

before(async () => {
  svc = await startService();
  ns = uniquePrefix('profile');
  for (const e of [
    runEvent(ns, { job: 'a', runId: rid(), inputs: ['src'], outputs: ['mid'], columns: { mid: { x: ['src.x'] } } }),
    runEvent(ns, { job: 'b', inputs: ['mid'], outputs: ['out'], datasetFacets: { out: { documentation: { description: 'profiled' } } } }),
  ]) {
    assert.equal((await svc.postEvent(e)).status, 201);
  }
});
after(() => svc.close());

const reads = (): [Query, Record<string, unknown>][] => {
  const ds = [datasetId(ns, 'mid')];
  const jobs = [jobId(ns, 'a')];
  const runs = [runId(rid())];
  const expand = { datasetIds: ds, jobIds: jobs, asOf: null, limit: 100 };
  const fields = { fieldIds: [fieldId(ns, 'mid', 'x')], asOf: null, limit: 100 };
  const trace = { fields: [{ fieldId: fieldId(ns, 'mid', 'x'), datasetId: ds[0] }], datasets: ds, asOf: null, limit: 100 };
  return [
    [Query.DatasetsById, { ids: ds }],
    [Query.JobsById, { ids: jobs }],
    [Query.RunsById, { ids: runs }],
    [Query.FieldsOfDatasets, { ids: ds }],
    [Query.LatestRunOfJobs, { ids: jobs }],
    [Query.JobIoOfJobs, { ids: jobs }],
    [Query.RunIoOfRuns, { ids: runs }],
    [Query.VersionsOfJobs, { ids: jobs }],
    [Query.DatasetProducersConsumers, { ids: ds }],
    [Query.NodeExists, { datasetId: ds[0], jobId: null, fieldId: null }],
    [Query.ExpandDownstream, expand],
    [Query.ExpandUpstream, expand],
    [Query.ExpandDownstream, { ...expand, asOf: '2030-01-01T00:00:00.000Z' }],
    [Query.ExpandUpstream, { ...expand, asOf: '2030-01-01T00:00:00.000Z' }],
    [Query.ExpandFieldsDownstream, fields],
    [Query.ExpandFieldsUpstream, fields],
    [Query.TraceUpstreamStep, trace],
    [Query.TraceDownstreamStep, trace],
    [Query.CoverageEdges, { scope: 'NAMESPACE', value: ns, limit: 1000 }],
    [Query.CoverageEdges, { scope: 'JOB', value: jobs[0], limit: 1000 }],
    [Query.CoverageEdges, { scope: 'ENGINE', value: 'other', limit: 1000 }],
    [Query.CoverageEdges, { scope: 'ALL', value: null, limit: 1000 }],
    [Query.LineageBreaks, { namespace: ns, limit: 100 }],
    [Query.LineageBreaks, { namespace: null, limit: 100 }],
    [Query.Search, { query: '+profiled*', labels: null, skip: 0, limit: 10 }],
    [Query.RunsOfJob, { jobId: jobs[0], states: null, since: null, until: null, skip: 0, limit: 10 }],
    [Query.RunLineage, { runIds: runs, limit: 10 }],
    [Query.DumpNamespaces, { prefix: ns, limit: 1000 }],
    [Query.CountEvents, { jobPrefix: `job:${escapeComponent(ns)}`, datasetPrefix: `dataset:${escapeComponent(ns)}` }],
    [Query.EventsPage, { jobPrefix: `job:${escapeComponent(ns)}`, datasetPrefix: `dataset:${escapeComponent(ns)}`, after: '', limit: 10 }],
  ];
};

describe('PROFILE of every read query', () => {
  it('starts from an index: no AllNodesScan or NodeByLabelScan', async () => {
    const findings: string[] = [];
    for (const [query, params] of reads()) {
      const { operators, dbHits } = await svc.app.executor.profile(query, params);
      const scans = operators.filter((o) => o === 'AllNodesScan' || o === 'NodeByLabelScan');
      assert.deepEqual(scans, [], `${query} ${JSON.stringify(params).slice(0, 80)}: ${operators.join(' > ')}`);
      findings.push(`${query}: ${dbHits} db hits; ${[...new Set(operators.filter((o) => /Index|Seek|Scan/.test(o)))].join(', ')}`);
    }
    assert.equal(findings.length, reads().length);
  });
});
