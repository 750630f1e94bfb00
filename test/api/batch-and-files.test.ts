import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { GroupCommitter } from '../../src/ingest/group-commit';
import { ingestNdjson } from '../../src/ingest/ndjson';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_MAX_BATCH_EVENTS: '20' });
});
after(() => svc.close());

describe('POST /api/v1/lineage/batch', () => {
  it('stores the good events and reports each bad one by index', async () => {
    const ns = uniquePrefix('batch');
    const good = [runEvent(ns, { job: 'a', outputs: ['x'] }), runEvent(ns, { job: 'b', inputs: ['x'], outputs: ['y'] })];
    const bad = { ...runEvent(ns, { job: 'c' }), run: { runId: 'not-a-uuid' } };
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify([good[0], bad, good[1], 42]));
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'partial_success');
    assert.deepEqual(res.body.summary, { received: 4, successful: 2, failed: 2 });
    assert.deepEqual(res.body.failed_events.map((f: { index: number }) => f.index), [1, 3]);
    assert.equal(res.body.failed_events[0].details[0].reason, 'INVALID_RUN_ID');
    const q = await svc.graphql(`query($id: ID!) { job(id: $id) { inputs { name } outputs { name } } }`, { id: `job:${ns}:b` });
    assert.deepEqual(q.data.job, { inputs: [{ name: 'x' }], outputs: [{ name: 'y' }] });
  });

  it('answers success for an all-good batch, also as {"events": [...]}, and recognises re-sent events', async () => {
    const ns = uniquePrefix('batch-ok');
    const events = [runEvent(ns, { job: 'a', outputs: ['x'] })];
    const first = await svc.post('/api/v1/lineage/batch', JSON.stringify({ events }));
    assert.deepEqual(first.body, { status: 'success', summary: { received: 1, successful: 1, failed: 0 }, failed_events: [], projected: true });
    // The same event sent alone is a duplicate: identity is the canonical JSON, not the bytes.
    const single = await svc.post('/api/v1/lineage', JSON.stringify(events[0], null, 2));
    assert.equal(single.body.duplicate, true);
  });

  it('rejects a body that is not an array (400) and too many events (413)', async () => {
    const notArray = await svc.post('/api/v1/lineage/batch', JSON.stringify({ eventTime: 'x' }));
    assert.equal(notArray.status, 400);
    const many = Array.from({ length: 21 }, () => runEvent(uniquePrefix('many'), { job: 'j' }));
    const tooMany = await svc.post('/api/v1/lineage/batch', JSON.stringify(many));
    assert.equal(tooMany.status, 413);
    assert.equal(tooMany.body.error.code, 'LIMIT_EXCEEDED');
  });
});

describe('group commit', () => {
  it('commits events that arrive while a transaction is in flight together, acking each after commit', async () => {
    const committer = new GroupCommitter((items) => svc.app.ingestor.ingest(items));
    const ns = uniquePrefix('group');
    const events = Array.from({ length: 50 }, (_, i) => runEvent(ns, { job: `j${i}`, outputs: [`d${i}`] }));
    const outcomes = await Promise.all(events.map((e) => committer.submit({ raw: JSON.stringify(e), value: e })));
    assert.ok(outcomes.every((o) => o.ok && !o.duplicate));
    // The first event commits alone; the 49 submitted meanwhile go in the next transaction.
    assert.deepEqual(committer.counters, { batches: 2, events: 50, largestBatch: 49 });
    const stored = await svc.graphql(`query($id: ID!) { dataset(id: $id) { producers { name } } }`, { id: `dataset:${ns}:d49` });
    assert.deepEqual(stored.data.dataset.producers, [{ name: 'j49' }]);
  });

  it('serves concurrent HTTP clients with 201 each', async () => {
    const ns = uniquePrefix('concurrent');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => svc.postEvent(runEvent(ns, { job: `c${i}`, inputs: ['shared_topic'], outputs: [`out${i}`] }))),
    );
    assert.deepEqual([...new Set(results.map((r) => r.status))], [201]);
    const consumers = await svc.graphql(`query($id: ID!) { dataset(id: $id) { consumers { name } } }`, { id: `dataset:${ns}:shared_topic` });
    assert.equal(consumers.data.dataset.consumers.length, 40);
  });
});

describe('NDJSON ingestion (file transport format)', () => {
  it('ingests line by line, skipping blank lines and reporting bad lines by number', async () => {
    const ns = uniquePrefix('ndjson');
    const c = JSON.stringify(runEvent(ns, { job: 'c', inputs: ['x'] }));
    const lines = [
      JSON.stringify(runEvent(ns, { job: 'a', outputs: ['x'] })),
      '',
      '{not json',
      JSON.stringify({ ...runEvent(ns, { job: 'b' }), eventTime: 'yesterday' }),
      c,
      c, // the same event twice
    ];
    const summary = await ingestNdjson(Readable.from([lines.join('\n') + '\n']), svc.app.ingestor, { batchSize: 2 });
    assert.equal(summary.lines, 5);
    assert.equal(summary.stored, 2);
    assert.equal(summary.duplicates, 1);
    assert.equal(summary.rejected, 2);
    assert.deepEqual(summary.reasons, [
      { reason: 'INVALID_EVENT_TIME eventTime', count: 1 },
      { reason: 'NOT_JSON', count: 1 },
    ]);
    assert.deepEqual(summary.examples, [
      { line: 3, reason: 'NOT_JSON' },
      { line: 4, reason: 'INVALID_EVENT_TIME eventTime' },
    ]);
  });
});
