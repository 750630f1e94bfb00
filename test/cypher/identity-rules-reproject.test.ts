import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { checkRulesState, compileRules } from '../../src/ingest/identity-rules';
import { NO_RULES } from '../../src/ingest/naming';
import { reproject } from '../../src/ingest/reproject';
import { datasetId, idPrefix, jobId } from '../../src/ids';
import { EntityKind } from '../../src/lineage/types';
import { startService, type TestService } from '../support/app';

/**
 * Identity rules on stored events: a rule added (or removed) after ingestion takes effect through
 * reprojection, and never costs an event. Every namespace of the test starts with one prefix
 * (`kafka://<tag>-`: topics on brokers <tag>-a and <tag>-b, and the connectors' job namespace), so
 * the test reprojects its own subgraph only.
 */
let svc: TestService;
let tag: string;
let prefix: string;
before(async () => {
  svc = await startService();
  tag = `r${randomBytes(3).toString('hex')}`;
  prefix = `kafka://${tag}-`;
  const run = (name: string, minute: number, io: Record<string, unknown>) => ({
    eventType: 'COMPLETE',
    eventTime: `2026-11-30T09:${String(minute).padStart(2, '0')}:00Z`,
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/client/java',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: `0193a1c2-0000-4000-8000-${randomBytes(6).toString('hex')}` },
    job: { namespace: `${prefix}connect`, name },
    ...io,
  });
  const events = [
    run('source', 1, { inputs: [], outputs: [{ namespace: `${prefix}a.internal:9092`, name: 'orders' }] }),
    run('sink', 2, { inputs: [{ namespace: `${prefix}b.internal:9092`, name: 'orders' }], outputs: [] }),
  ];
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events));
  assert.equal(res.body.summary.successful, 2);
});
after(() => svc.close());

const rules = () =>
  compileRules({ kafkaClusters: [{ name: `${tag}-cluster`, namespace: `${prefix}a.internal:9092`, brokers: [`${tag}-b.internal:9092`] }] });

async function topics(): Promise<string[]> {
  const rows = await svc.app.executor.read<{ id: string }>(Query.DatasetsById, {
    ids: [datasetId(`${prefix}a.internal:9092`, 'orders'), datasetId(`${prefix}b.internal:9092`, 'orders')],
  });
  return rows.map((r) => (r as unknown as { dataset: { id: string } }).dataset.id).sort();
}

async function storedEvents(): Promise<number> {
  const [row] = await svc.app.executor.read<{ events: number }>(Query.CountEvents, {
    jobPrefix: idPrefix(EntityKind.JOB, prefix),
    datasetPrefix: idPrefix(EntityKind.DATASET, prefix),
  });
  return row!.events;
}

describe('identity rules and reprojection', () => {
  it('a rule added later merges the stored names on reprojection; removing it splits them again; no event is lost', async () => {
    const a = datasetId(`${prefix}a.internal:9092`, 'orders');
    const b = datasetId(`${prefix}b.internal:9092`, 'orders');
    assert.deepEqual(await topics(), [a, b]);
    assert.equal(await storedEvents(), 2);

    const merged = await reproject(svc.app.executor, prefix, () => {}, 500, rules());
    assert.equal(merged.replayed, 2);
    assert.deepEqual(await topics(), [a]);
    assert.equal(await storedEvents(), 2);
    // The sink now reads the topic the source writes.
    const res = await svc.graphql(`query($id: ID!) { lineage(nodeId: $id, direction: DOWNSTREAM, depth: 2) { nodes { id } } }`, {
      id: jobId(`${prefix}connect`, 'source'),
    });
    assert.deepEqual(res.data.lineage.nodes.map((n: { id: string }) => n.id).sort(), [a, jobId(`${prefix}connect`, 'sink'), jobId(`${prefix}connect`, 'source')].sort());

    await reproject(svc.app.executor, prefix, () => {}, 500, NO_RULES);
    assert.deepEqual(await topics(), [a, b]);
    assert.equal(await storedEvents(), 2);
  });

  it('says when the rules in force differ from those the stored graph was projected with', async () => {
    // The shared test graph has datasets and was not projected with this rule: a warning, nothing written.
    const warning = await checkRulesState(svc.app.executor, rules());
    assert.match(warning ?? '', /identity rules \(1 now\) differ .* `npm run reproject`/);
  });
});
