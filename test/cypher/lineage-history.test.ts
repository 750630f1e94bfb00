import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { datasetId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';
import { profileQuery } from '../support/profile';

/**
 * A step of current lineage costs what the current edges cost, whatever the job's history. A job
 * ran 40 times reading `old`, then once reading `new`: old → job is a history edge. The as-of test
 * of a history edge is a subquery over the runs reading the dataset and the job's runs; with
 * `$asOf` null it must never run (before issue 28's XL run it did, for every history edge of the
 * frontier: 535,000 db hits for a 197-job hop on XL instead of 12,000).
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('history');
  const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
  const events = [
    ...Array.from({ length: 40 }, (_, i) => runEvent(ns, { job: 'etl', inputs: ['old'], outputs: ['out'], eventTime: at(i) })),
    runEvent(ns, { job: 'etl', inputs: ['new'], outputs: ['out'], eventTime: at(40) }),
  ];
  const outcomes = await svc.app.ingestor.ingest(events.map((value) => ({ raw: JSON.stringify(value), value })));
  assert.ok(outcomes.every((o) => o.ok));
});
after(() => svc.close());

describe('lineage steps over a long history', () => {
  for (const [query, asOfQuery, params] of [
    [Query.ExpandUpstream, Query.ExpandUpstreamAsOf, { datasetIds: [], jobIds: () => [jobId(ns, 'etl')] }],
    [Query.ExpandDownstream, Query.ExpandDownstreamAsOf, { datasetIds: () => [datasetId(ns, 'old')], jobIds: [] }],
  ] as const) {
    it(`${query}: current lineage reads the current edges, not the history`, async () => {
      const resolved = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'function' ? v() : v]));
      const current = await profileQuery(svc.app, query, { ...resolved, limit: 1000, follow: ['FEEDS', 'PRODUCES', 'ALIAS'] });
      assert.ok(current.dbHits < 150, `${current.dbHits} db hits`);
      // The history edge is still there for lineage as of a past time (the step apart).
      const past = await profileQuery(svc.app, asOfQuery, { ...resolved, asOf: '2024-01-01T05:00:00.000Z', limit: 1000, follow: ['FEEDS', 'PRODUCES', 'ALIAS'] });
      assert.ok(past.rows > 0);
    });
  }
});
