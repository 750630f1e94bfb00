import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createDriver } from '../../src/graph/driver';
import { Executor } from '../../src/graph/executor';
import { loadQueries, Query } from '../../src/graph/queries';
import { DatabaseProbe } from '../../src/ingest/probe';
import { jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Issue 23, items 1 and 2: what the projector holds and sends is bounded in bytes. With ~1 MB
 * events and the projector stopped (nothing leaves the spool, as with a frozen Neo4j), ingestion
 * acknowledges until the spool's limit (503), the projector keeping only its byte-bounded queue in
 * memory (the rest it reads back from the spool); once it runs, every transaction stays within
 * TRIBUTARY_PROJECTION_BATCH_BYTES and everything is projected. An event Neo4j refuses while up
 * (a value too large for an index key) is split out of its batch and labelled ProjectionFailed,
 * counted and shown on /readyz, without holding up the others. Figures (RSS, batch sizes) are
 * printed, not asserted.
 */
let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_INGEST_WAIT: 'none', TRIBUTARY_SPOOL_MAX_MB: '100', TRIBUTARY_PROJECTION_BATCH_BYTES: '4m' });
});
after(() => svc.close());

const MiB = 2 ** 20;
const rss = () => Math.round(process.memoryUsage().rss / MiB);
const stillPending = (ids: string[]) => svc.app.executor.read<{ id: string }>(Query.StillPending, { ids });
const until = async (what: string, check: () => Promise<boolean>, ms = 120_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
/** A histogram's `_bucket{le="<le>"}`, `_count` and `_sum` from the /metrics text. */
const histogram = async (name: string, le: string) => {
  const text = await (await fetch(`${svc.baseUrl}/metrics`)).text();
  const value = (line: string) => Number(new RegExp(`^${line.replace(/[{}"+.]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { bucket: value(`${name}_bucket{le="${le}"}`), count: value(`${name}_count`), sum: value(`${name}_sum`) };
};
/** A RunEvent of about `mb` MB: a documentation facet with a big string. */
const big = (ns: string, i: number, mb = 1) => runEvent(ns, { job: `big${i}`, outputs: [`t${i % 5}`], jobFacets: { documentation: { description: `${i} ${'d'.repeat(mb * 1_000_000)}` } } });

describe('projection bounded in bytes', () => {
  it('8 clients posting 1 MB events with the projection stopped: acknowledged until the spool limit (503), then all projected in transactions within the byte cap', async () => {
    const ns = uniquePrefix('bytes');
    await svc.app.projector.stop();
    const rssBefore = rss();
    let peak = rssBefore;
    const acked: string[] = [];
    let refused = 0;
    let next = 0;
    const client = async () => {
      while (refused === 0) {
        const i = next++;
        const res = await svc.postEvent(big(ns, i));
        peak = Math.max(peak, rss());
        if (res.status === 503) {
          refused++;
          assert.equal(res.body.error.code, 'UNAVAILABLE');
          assert.match(res.body.error.message, /behind/);
        } else {
          assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
          acked.push(res.body.eventId);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    assert.ok(acked.length >= 90, `about 100 MB acknowledged before the 503 (${acked.length})`);
    process.stdout.write(`# ${acked.length} events of 1 MB acknowledged, then 503 (TRIBUTARY_SPOOL_MAX_MB 100); Node RSS ${rssBefore} → peak ${peak} MiB\n`);

    svc.app.projector.start();
    await until('all projected', async () => (await stillPending(acked)).length === 0);
    for (const i of [0, Math.floor(acked.length / 2), acked.length - 1]) {
      const found = await svc.graphql(`query($id: ID!) { job(id: $id) { id } }`, { id: jobId(ns, `big${i}`) });
      assert.ok(found.data.job, `big${i} projected`);
    }
    const bytes = await histogram('tributary_projection_batch_bytes', String(4 * MiB));
    const events = await histogram('tributary_projection_batch_events', '+Inf');
    assert.equal(bytes.bucket, bytes.count, 'every transaction within TRIBUTARY_PROJECTION_BATCH_BYTES (4 MiB)');
    // Past the memory queue's bound (256 MiB estimated: 64 of these) events are read back from the
    // spool, each batch while the transaction before it ran (at most the first one not).
    // Each batch read ahead is planned ahead too, and that plan is the one written.
    const { readBacks: batches, readAhead, planUsed } = svc.app.projector.lookahead;
    assert.ok(batches >= 2 && readAhead >= batches - 1, `${batches} batches read back, ${readAhead} of them read ahead`);
    assert.ok(planUsed >= readAhead, `${readAhead} batches read ahead, ${planUsed} plans made ahead written`);
    assert.ok(bytes.count >= Math.ceil(acked.length / 4), `${bytes.count} transactions for ${acked.length} events of 1 MB`);
    assert.ok(events.sum / events.count > 1.5, 'several events per transaction: batching by bytes, not one by one');
    process.stdout.write(
      `# projected in ${bytes.count} transactions: ${(events.sum / events.count).toFixed(1)} events and ${(bytes.sum / bytes.count / MiB).toFixed(2)} MiB of text each on average; RSS after ${rss()} MiB\n`,
    );
    assert.equal((await svc.postEvent(big(ns, 9999))).status, 201, 'accepted again once projected');
  });

  it('the probe that tells a database that is down from a refused batch: up against Neo4j; down against a server that accepts and never answers, within its timeout, one probe at a time', async () => {
    const queries = loadQueries();
    assert.equal(await new DatabaseProbe(svc.app.executor, 2_000).up(), true);
    assert.equal(await new DatabaseProbe(new Executor(svc.app.driver, queries, { available: () => false })).up(), false, 'known down: no round trip');
    // A frozen server (as with kill -STOP): the TCP connection is accepted, nothing ever comes back.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s.on('error', () => undefined)));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const driver = createDriver({ uri: `bolt://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, user: 'neo4j' });
    try {
      const probe = new DatabaseProbe(new Executor(driver, queries), 500);
      const started = Date.now();
      assert.equal(await probe.up(), false);
      const took = Date.now() - started;
      assert.equal(await probe.up(), false, 'the first one still outstanding: down at once');
      process.stdout.write(`# probe of a frozen server: down after ${took} ms (timeout 500 ms)\n`);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      await driver.close().catch(() => undefined);
    }
  });
});
