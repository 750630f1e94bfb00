import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Read priority (src/cpu-turns.ts): while GraphQL reads execute, ingestion's CPU work gives way to
 * them, and never stops. Asserted: with eight readers looping lineage walks the whole time, a
 * 300-event batch and 40 single events sent at once are all stored and projected (none refused),
 * the reads all answer 200, and /metrics shows turns deferred behind the reads (the priority was
 * in force, not idle); without readers nothing is deferred. And the bound on what waits: with
 * reads executing and a pause of 100 ms between tasks, bodies past MAX_BACKLOG waiting tasks are
 * answered 503 with Retry-After, the ones taken are all stored, and the refused ones are stored when
 * sent again. Timings are printed, not asserted.
 */
let svc: TestService;
let ns: string;
const LINEAGE = 'query($id: ID!) { lineage(nodeId: $id, depth: 5, direction: UPSTREAM) { nodes { id } truncated } }';

/** Eight readers walking lineage of `ids` on `on` until `stop()` says so; resolves with their statuses. */
function readers(on: TestService, ids: string[], stop: () => boolean): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  return Promise.all(
    Array.from({ length: 8 }, async (_, r) => {
      for (let i = r; !stop(); i += 8) {
        const res = await on.post('/graphql', JSON.stringify({ query: LINEAGE, variables: { id: ids[i % ids.length] } }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  ).then(() => statuses);
}

before(async () => {
  svc = await startService();
  ns = uniquePrefix('read-priority');
  const seed = Array.from({ length: 30 }, (_, i) => runEvent(ns, { job: `seed${i}`, inputs: [`d${i}`], outputs: [`d${i + 1}`] }));
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(seed));
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
});
after(async () => {
  await svc?.close();
});

/** The counts of tributary_ingest_cpu_turns_total by kind. */
async function turns(): Promise<Record<string, number>> {
  const text = await (await fetch(`${svc.baseUrl}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^tributary_ingest_cpu_turns_total\{kind="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe('read priority: ingestion gives way to reads and goes on', () => {
  it('stores and projects every event sent while eight readers walk lineage, and says it deferred turns for them', async () => {
    const before = await turns();
    let reading = true;
    const statuses = new Map<number, number>();
    let reads = 0;
    const query = 'query($id: ID!) { lineage(nodeId: $id, depth: 5, direction: UPSTREAM) { nodes { id } truncated } }';
    const readers = Array.from({ length: 8 }, async (_, r) => {
      for (let i = r; reading; i += 8) {
        const res = await svc.post('/graphql', JSON.stringify({ query, variables: { id: `dataset:${ns}:d${30 - (i % 10)}` } }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        reads++;
      }
    });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    // Few jobs and datasets: the shared test database's other tests (PROFILE budgets) count them.
    const batch = Array.from({ length: 300 }, (_, i) => runEvent(ns, { job: `batch${i % 10}`, inputs: [`d${i % 30}`], outputs: [`b${i % 40}`] }));
    const singles = Array.from({ length: 40 }, (_, i) => runEvent(ns, { job: `single${i % 4}`, inputs: [`b${i}`], outputs: [`s${i}`] }));
    const [batchRes, ...singleRes] = await Promise.all([svc.post('/api/v1/lineage/batch', JSON.stringify(batch)), ...singles.map((e) => svc.postEvent(e))]);
    const ingestMs = performance.now() - t0;
    const during = await turns();
    reading = false;
    await Promise.all(readers);

    assert.equal(batchRes!.status, 200, JSON.stringify(batchRes!.body).slice(0, 300));
    assert.deepEqual(batchRes!.body.summary, { received: 300, successful: 300, failed: 0 });
    assert.equal(batchRes!.body.projected, true);
    for (const r of singleRes) assert.equal(r.status, 201, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual([...statuses.keys()], [200], `every read answered 200: ${JSON.stringify([...statuses])}`);
    const found = await svc.graphql<{ dataset: { id: string } | null }>('query($id: ID!) { dataset(id: $id) { id } }', { id: `dataset:${ns}:s39` });
    assert.equal(found.data?.dataset?.id, `dataset:${ns}:s39`, 'the last single event is in the graph');
    assert.ok(during.yielded! > before.yielded!, `turns deferred behind the reads: ${before.yielded} → ${during.yielded}`);
    assert.ok(during.tasks! - before.tasks! >= 340 * 2, `each event parsed and validated as a task: ${during.tasks! - before.tasks!} tasks`);
    process.stdout.write(`# 340 events stored and projected in ${Math.round(ingestMs)} ms while ${reads} reads ran; ${during.yielded! - before.yielded!} turns deferred\n`);

    const quiet = await turns();
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(Array.from({ length: 50 }, (_, i) => runEvent(ns, { job: 'quiet', outputs: [`q${i % 5}`] }))));
    assert.equal(res.status, 200);
    assert.equal((await turns()).yielded, quiet.yielded, 'no reads executing: nothing deferred');
  });

  it('answers 503 with Retry-After to bodies past the bound on waiting work, stores every body it took, and the refused ones when sent again', async () => {
    const slow = await startService({ TRIBUTARY_READ_PRIORITY_MS: '100', TRIBUTARY_INGEST_MAX_WAITING: '500' });
    try {
      const bns = uniquePrefix('read-priority-backlog');
      const seed = await slow.post('/api/v1/lineage/batch', JSON.stringify(Array.from({ length: 10 }, (_, i) => runEvent(bns, { job: `s${i}`, inputs: [`d${i}`], outputs: [`d${i + 1}`] }))));
      assert.equal(seed.status, 200);
      let reading = true;
      const reads = readers(slow, Array.from({ length: 10 }, (_, i) => `dataset:${bns}:d${i + 1}`), () => !reading);
      await new Promise((r) => setTimeout(r, 200));
      // 6 batches of 400 small events: 2,400 parse tasks against a bound of 500.
      const bodies = Array.from({ length: 6 }, (_, b) => JSON.stringify(Array.from({ length: 400 }, (_, i) => runEvent(bns, { job: `b${b}`, outputs: [`o${b}_${i % 10}`] }))));
      // Sent 300 ms apart, so that each body's tasks are queued before the next arrives; the accepted
      // ones are answered only once reads stop (their tasks wait, one per 100 ms, until then).
      const sent: Promise<Response>[] = [];
      for (const body of bodies) {
        sent.push(fetch(`${slow.baseUrl}/api/v1/lineage/batch`, { method: 'POST', headers: { 'content-type': 'application/json', 'tributary-wait': 'none' }, body }));
        await new Promise((r) => setTimeout(r, 300));
      }
      reading = false;
      const statuses = await reads;
      const first = await Promise.all(sent);
      const refused = first.flatMap((res, b) => (res.status === 503 ? [b] : []));
      for (const [b, res] of first.entries()) {
        const text = await res.text();
        if (res.status === 503) {
          assert.ok(res.headers.get('retry-after'), 'a 503 says when to retry');
          assert.match(text, /waiting to be parsed or validated/);
        } else {
          assert.equal(res.status, 200, text.slice(0, 300));
          assert.deepEqual(JSON.parse(text).summary, { received: 400, successful: 400, failed: 0 }, `batch ${b}`);
        }
      }
      assert.ok(refused.length > 0 && refused.length < 6, `some bodies refused, not all: ${refused.length} of 6`);
      assert.deepEqual([...statuses.keys()], [200]);
      for (const b of refused) {
        const again = await slow.post('/api/v1/lineage/batch', bodies[b]!, { 'tributary-wait': 'none' });
        assert.equal(again.status, 200, `batch ${b} sent again`);
        assert.deepEqual(again.body.summary, { received: 400, successful: 400, failed: 0 });
      }
      const id = `dataset:${bns}:o${refused[refused.length - 1]}_9`;
      let found: string | undefined;
      for (let i = 0; i < 240 && !found; i++) {
        found = (await slow.graphql<{ dataset: { id: string } | null }>('query($id: ID!) { dataset(id: $id) { id } }', { id })).data?.dataset?.id;
        if (!found) await new Promise((r) => setTimeout(r, 500));
      }
      assert.equal(found, id, 'a refused batch, sent again, is in the graph');
      process.stdout.write(`# backlog bound: ${refused.length} of 6 batches refused while reads ran\n`);
    } finally {
      await slow.close();
    }
  });
});
