import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * The lineage gauges of /metrics (src/http/coverage-gauges.ts) equal the GraphQL coverage of the
 * same namespace per engine; label pairs beyond TRIBUTARY_LINEAGE_GAUGES_MAX_SERIES are summed.
 */
let svc: TestService;
let capped: TestService;
let ns: string;
const jobType = (integration: string) => ({ jobType: { _producer: 't', _schemaURL: 't', processingType: 'BATCH', integration, jobType: 'JOB' } });
const schema = (...names: string[]) => ({ schema: { _producer: 't', _schemaURL: 't', fields: names.map((name) => ({ name, type: 'string' })) } });

before(async () => {
  [svc, capped] = await Promise.all([
    startService({ TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: '3600' }),
    startService({ TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: '3600', TRIBUTARY_LINEAGE_GAUGES_MAX_SERIES: '1' }),
  ]);
  ns = uniquePrefix('gauges');
  const events = [
    runEvent(ns, { job: 's1', inputs: ['src'], outputs: ['A'], jobFacets: jobType('SPARK'), datasetFacets: { A: schema('a') }, columns: { A: { a: ['src.x'] } } }),
    runEvent(ns, { job: 's2', inputs: ['src'], outputs: ['B'], jobFacets: jobType('SPARK'), datasetFacets: { B: schema('b') } }),
    runEvent(ns, { job: 'f1', inputs: ['src'], outputs: ['C'], jobFacets: jobType('FLINK'), datasetFacets: { C: schema('c') } }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(async () => {
  await Promise.all([svc?.close(), capped?.close()]);
});

/** Samples of one metric from the Prometheus text format: labels → value. */
async function samples(s: TestService, name: string): Promise<{ labels: Record<string, string>; value: number }[]> {
  const text = await (await fetch(`${s.baseUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => {
      const m = /^[a-z_]+(?:\{(.*)\})? (\S+)$/.exec(l)!;
      const labels = Object.fromEntries([...(m[1] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
      return { labels, value: Number(m[2]) };
    });
}

describe('lineage gauges', () => {
  it('after a refresh, coverage ratio and edges per (namespace, engine) equal the GraphQL coverage', async () => {
    const before = Date.now() / 1000;
    await svc.app.gauges.refresh();
    const gql = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { byEngine { key edges columnLevel columnLevelShare } } }`, { ns });
    const byEngine = gql.data.coverage.byEngine as { key: string; edges: number; columnLevel: number; columnLevelShare: number }[];
    assert.equal(byEngine.length, 2);
    const ratio = (await samples(svc, 'tributary_lineage_coverage_ratio')).filter((x) => x.labels.namespace === ns);
    const edges = (await samples(svc, 'tributary_lineage_edges')).filter((x) => x.labels.namespace === ns);
    for (const e of byEngine) {
      assert.equal(ratio.find((x) => x.labels.engine === e.key)?.value, e.columnLevelShare, e.key);
      assert.equal(edges.find((x) => x.labels.engine === e.key && x.labels.granularity === 'column')?.value, e.columnLevel);
      assert.equal(edges.find((x) => x.labels.engine === e.key && x.labels.granularity === 'dataset')?.value, e.edges - e.columnLevel);
    }
    assert.deepEqual(Object.fromEntries(byEngine.map((e) => [e.key, e.columnLevelShare])), { spark: 0.5, flink: 0 });
    const breaks = await samples(svc, 'tributary_lineage_breaks');
    assert.deepEqual(breaks.map((b) => b.labels.kind).sort(), ['probable_match', 'read_never_written', 'written_never_read']);
    assert.ok(breaks.find((b) => b.labels.kind === 'read_never_written')!.value >= 1, 'src is read and never written');
    const [refreshed] = await samples(svc, 'tributary_lineage_gauges_refreshed_timestamp_seconds');
    assert.ok(refreshed!.value >= before - 1);
  });

  it('are scheduled only once the plan warm-up (createApp\'s schedulesAfter) is over', async () => {
    let warmedUp!: () => void;
    const gate = new Promise<void>((resolve) => (warmedUp = resolve));
    const gated = await startService({ TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: '3600' }, undefined, gate);
    try {
      assert.equal(svc.app.gauges.scheduled, true, 'without a gate: at once');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(gated.app.gauges.scheduled, false);
      warmedUp();
      await gate;
      await new Promise((r) => setImmediate(r));
      assert.equal(gated.app.gauges.scheduled, true);
    } finally {
      await gated.close();
    }
    assert.equal(gated.app.gauges.scheduled, false, 'stopped with the service');
    let late!: () => void;
    const lateGate = new Promise<void>((resolve) => (late = resolve));
    const closedFirst = await startService({ TRIBUTARY_LINEAGE_GAUGES_INTERVAL_S: '3600' }, undefined, lateGate);
    await closedFirst.close();
    late();
    await lateGate;
    await new Promise((r) => setImmediate(r));
    assert.equal(closedFirst.app.gauges.scheduled, false, 'a service closed before its warm-up ended never schedules them');
  });

  it('bounds the label pairs: beyond the cap they are summed under _other', async () => {
    await capped.app.gauges.refresh();
    const ratio = await samples(capped, 'tributary_lineage_coverage_ratio');
    assert.equal(ratio.length, 2, JSON.stringify(ratio.map((r) => r.labels)));
    assert.ok(ratio.some((r) => r.labels.namespace === '_other' && r.labels.engine === '_other'));
  });
});
