import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertSameGraph, dumpNamespaces, normalisedDump } from '../support/dump';
import { datasetId, fieldId, jobId } from '../../src/ids';
import type { IngestItem } from '../../src/ingest/ingestor';
import { docsOf, manifest } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { isolate, isolatedRunId, uniquePrefix } from '../support/isolate';
import { COMPLETE_REJECTIONS } from '../support/policy';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const itemsOf = (docs: unknown[]): IngestItem[] => docs.map((value) => ({ raw: JSON.stringify(value), value }));

function completeCorpus(prefix: string): { file: string; value: unknown }[] {
  return manifest()
    .filter((r) => r.complete)
    .flatMap((r) => docsOf(r.file).map((d) => ({ file: r.file, value: isolate(d.value, prefix) })));
}

describe('projection of the complete corpus', () => {
  it('stores and projects every accepted event; rejects exactly the policy rejections', async () => {
    const prefix = uniquePrefix('corpus');
    const docs = completeCorpus(prefix);
    const outcomes = await svc.app.ingestor.ingest(itemsOf(docs.map((d) => d.value)));
    docs.forEach((d, i) => {
      const o = outcomes[i]!;
      assert.equal(o.ok, !COMPLETE_REJECTIONS[d.file], d.file);
    });
    assert.equal(outcomes.filter((o) => o.ok).length, 91 - Object.keys(COMPLETE_REJECTIONS).length);
  });

  it('re-ingesting changes nothing (identical canonical dump, all duplicates)', async () => {
    const prefix = uniquePrefix('twice');
    const items = itemsOf(completeCorpus(prefix).map((d) => d.value));
    await svc.app.ingestor.ingest(items);
    const first = await dumpNamespaces(svc.app, prefix);
    const again = await svc.app.ingestor.ingest(items);
    assert.ok(again.every((o) => !o.ok || o.duplicate));
    const second = await dumpNamespaces(svc.app, prefix);
    assert.ok(first.nodes.length > 100, `nodes: ${first.nodes.length}`);
    assert.equal(second.nodes.length, first.nodes.length);
    assert.equal(second.rels.length, first.rels.length);
    assert.deepEqual(second, first);
  });

  it('gives the same graph for reversed, one-by-one delivery', async () => {
    const a = uniquePrefix('order-a');
    const b = uniquePrefix('order-b');
    await svc.app.ingestor.ingest(itemsOf(completeCorpus(a).map((d) => d.value)));
    for (const d of completeCorpus(b).reverse()) await svc.app.ingestor.ingest(itemsOf([d.value]));
    const da = await dumpNamespaces(svc.app, a);
    const db = await dumpNamespaces(svc.app, b);
    assert.equal(da.nodes.length, db.nodes.length);
    assert.equal(da.rels.length, db.rels.length);
    assertSameGraph(normalisedDump(a, da), normalisedDump(b, db));
  });
});

describe('run lifecycle in the database', () => {
  it('a late START neither reopens a completed run nor loses its start time', async () => {
    const ns = uniquePrefix('late-start');
    const runId = isolatedRunId(ns, '0176a8c2-fe01-7439-87e6-56a1a1b4029f');
    await svc.postEvent(runEvent(ns, { job: 'j', eventType: 'COMPLETE', eventTime: '2024-01-01T00:10:00Z', runId }));
    await svc.postEvent(runEvent(ns, { job: 'j', eventType: 'START', eventTime: '2024-01-01T00:00:00Z', runId }));
    const res = await svc.graphql(`query($id: ID!) { run(id: $id) { state startedAt endedAt job { id } } }`, { id: `run:${runId}` });
    assert.deepEqual(res.data.run, {
      state: 'COMPLETE',
      startedAt: '2024-01-01T00:00:00.000Z',
      endedAt: '2024-01-01T00:10:00.000Z',
      job: { id: jobId(ns, 'j') },
    });
  });
});

describe('column lineage', () => {
  it('creates DERIVES edges input → output per job, and fields the schema facet does not list', async () => {
    const ns = uniquePrefix('cll');
    await svc.app.ingestor.ingest(
      itemsOf([runEvent(ns, { job: 'agg', inputs: ['src'], outputs: ['dst'], columns: { dst: { total: ['src.amount', 'src.fee'] } } })]),
    );
    const dump = await dumpNamespaces(svc.app, ns);
    const derives = dump.rels.filter((r) => r.type === 'DERIVES');
    assert.deepEqual(
      derives.map((r) => [r.from, r.to, r.props.jobId, r.props.types, r.props.subtypes]),
      [
        [fieldId(ns, 'src', 'amount'), fieldId(ns, 'dst', 'total'), jobId(ns, 'agg'), ['DIRECT'], ['IDENTITY']],
        [fieldId(ns, 'src', 'fee'), fieldId(ns, 'dst', 'total'), jobId(ns, 'agg'), ['DIRECT'], ['IDENTITY']],
      ],
    );
    const hasField = dump.rels.filter((r) => r.type === 'HAS_FIELD').map((r) => [r.from, r.to]);
    assert.deepEqual(hasField, [
      [datasetId(ns, 'dst'), fieldId(ns, 'dst', 'total')],
      [datasetId(ns, 'src'), fieldId(ns, 'src', 'amount')],
      [datasetId(ns, 'src'), fieldId(ns, 'src', 'fee')],
    ]);
  });
});
