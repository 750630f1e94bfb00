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
 * in force, not idle); without readers nothing is deferred. Timings are printed, not asserted.
 */
let svc: TestService;
let ns: string;

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
    const batch = Array.from({ length: 300 }, (_, i) => runEvent(ns, { job: `batch${i}`, inputs: [`d${i % 30}`], outputs: [`b${i}`] }));
    const singles = Array.from({ length: 40 }, (_, i) => runEvent(ns, { job: `single${i}`, inputs: [`b${i}`], outputs: [`s${i}`] }));
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
    const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(Array.from({ length: 50 }, (_, i) => runEvent(ns, { job: `quiet${i}`, outputs: [`q${i}`] }))));
    assert.equal(res.status, 200);
    assert.equal((await turns()).yielded, quiet.yielded, 'no reads executing: nothing deferred');
  });
});
