import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * The HTTP ingestion contract (src/http/ingest-routes.ts): 201 once stored; the graph shows the
 * event after the background projector has projected it; `Tributary-Wait: projected` (or
 * `?wait=projected`) answers only then. Acknowledged events survive a SIGKILL of the service
 * (the next process on the same spool projects what was left). Lag figures are printed, not asserted.
 */
let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_INGEST_WAIT: 'none' });
});
after(() => svc.close());

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const jobExists = async (ns: string, name: string) =>
  (await svc.graphql(`query($id: ID!) { job(id: $id) { id } }`, { id: jobId(ns, name) })).data?.job !== null;
const stillPending = (ids: string[]) => svc.app.executor.read<{ id: string }>(Query.StillPending, { ids });
const until = async (what: string, check: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('HTTP ingestion contract', () => {
  it('201 means stored; the projection follows in the background (lag printed)', async () => {
    const ns = uniquePrefix('contract-lag');
    const ids: string[] = [];
    let next = 0;
    const events = Array.from({ length: 400 }, (_, i) => runEvent(ns, { job: `j${i % 40}`, inputs: [`in${i % 9}`], outputs: [`out${i % 40}`] }));
    const client = async () => {
      for (let i = next++; i < events.length; i = next++) {
        const res = await svc.postEvent(events[i]);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(typeof res.body.projected, 'boolean');
        ids.push(res.body.eventId);
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    // Correctness, not speed (the lag is printed): generous, since other files load the machine too.
    await until('all projected', async () => (await stillPending(ids)).length === 0, 120_000);
    for (let j = 0; j < 40; j++) assert.ok(await jobExists(ns, `j${j}`));
    const { records } = await svc.app.driver.executeQuery(
      'UNWIND $ids AS id MATCH (e:Event {id: id}) RETURN collect(duration.inSeconds(datetime(e.receivedAt), datetime(e.projectedAt)).milliseconds) AS lags',
      { ids },
    );
    const lags = (records[0]!.get('lags') as { toNumber(): number }[]).map((l) => l.toNumber());
    assert.equal(lags.length, 400);
    process.stdout.write(`# projection lag over 400 events from 8 clients: p50 ${pct(lags, 0.5)} ms, p99 ${pct(lags, 0.99)} ms, max ${pct(lags, 1)} ms\n`);
  });

  it('Tributary-Wait: projected (or ?wait=projected) answers once the graph shows the event', async () => {
    const ns = uniquePrefix('contract-wait');
    for (const [i, send] of [
      (e: unknown) => svc.post('/api/v1/lineage', JSON.stringify(e), { 'tributary-wait': 'projected' }),
      (e: unknown) => svc.post('/api/v1/lineage?wait=projected', JSON.stringify(e)),
      (e: unknown) => svc.post('/api/v1/lineage/batch', JSON.stringify([e]), { 'Tributary-Wait': 'Projected' }),
    ].entries()) {
      const res = await send(runEvent(ns, { job: `w${i}`, outputs: ['t'] }));
      assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
      assert.equal(res.body.projected, true);
      assert.ok(await jobExists(ns, `w${i}`), `job w${i} is in the graph when the answer arrives`);
    }
    const again = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'w0', outputs: ['t'] })), { 'tributary-wait': 'projected' });
    assert.equal(again.status, 201);
    const bad = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'bad' })), { 'tributary-wait': 'forever' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /none or projected/);
    assert.equal(await jobExists(ns, 'bad'), false, 'a refused request stored nothing');
    assert.equal(svc.app.projector.waitingOn(), 0, 'answered waits leave nothing behind');
  });

  it('hostile waits: 100 concurrent, a repeated parameter, a huge header value, unicode', async () => {
    const ns = uniquePrefix('contract-hostile');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => svc.post('/api/v1/lineage?wait=projected', JSON.stringify(runEvent(ns, { job: `c${i % 10}`, outputs: [`t${i}`] })))),
    );
    assert.deepEqual([...new Set(answers.map((a) => `${a.status} ${a.body.projected}`))], ['201 true']);
    assert.equal(svc.app.projector.waitingOn(), 0);
    const repeated = await svc.post('/api/v1/lineage?wait=projected&wait=none', JSON.stringify(runEvent(ns, { job: 'rep', outputs: ['t'] })));
    assert.deepEqual([repeated.status, repeated.body.projected], [201, true], 'the first value counts');
    for (const value of ['x'.repeat(8000), 'projecté', '']) {
      const res = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'h', outputs: ['t'] })), { 'tributary-wait': value });
      assert.equal(res.status, 400, value.slice(0, 20));
      assert.ok(res.body.error.message.length < 200, 'the value is clipped in the message');
    }
  });

  it('a wait that times out is 202 (stored, not yet projected); the event is projected all the same', async () => {
    const ns = uniquePrefix('contract-timeout');
    const slow = await startService({ TRIBUTARY_INGEST_WAIT: 'projected', TRIBUTARY_WAIT_TIMEOUT_MS: '300' });
    try {
      await slow.app.projector.stop();
      const res = await slow.postEvent(runEvent(ns, { job: 'late', outputs: ['t'] }));
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.projected, false);
      assert.deepEqual((await stillPending([res.body.eventId])).map((r) => r.id), [res.body.eventId]);
      // The lag is visible at once, read at scrape time.
      const metrics = await (await fetch(`${slow.baseUrl}/metrics`)).text();
      assert.match(metrics, /^tributary_projection_queued_events 1$/m);
      assert.ok(Number(/^tributary_projection_lag_seconds (\S+)$/m.exec(metrics)?.[1]) > 0.2, metrics.slice(0, 200));
      const ready = (await (await fetch(`${slow.baseUrl}/readyz`)).json()) as { status: string; projectionLagMs: number };
      assert.equal(ready.status, 'ready', 'a lag under TRIBUTARY_MAX_PROJECTION_LAG_MS');
      assert.ok(ready.projectionLagMs > 200);
      slow.app.projector.start();
      await until('projected once the projector runs', () => jobExists(ns, 'late'));
    } finally {
      await slow.close();
    }
  });

  it('refuses with 503 and Retry-After, storing nothing, while the unprojected spool exceeds TRIBUTARY_SPOOL_MAX_MB; accepts again once projected', async () => {
    const ns = uniquePrefix('contract-full');
    const full = await startService({ TRIBUTARY_INGEST_WAIT: 'none', TRIBUTARY_SPOOL_MAX_MB: '1' });
    try {
      await full.app.projector.stop();
      const big = (i: number) => runEvent(ns, { job: `big${i}`, outputs: ['t'], jobFacets: { documentation: { description: 'é'.repeat(60_000) } } });
      let accepted = 0;
      let refused: { status: number; body: any } | null = null;
      for (let i = 0; i < 40 && !refused; i++) {
        const res = await full.postEvent(big(i));
        if (res.status === 201) accepted++;
        else refused = res;
      }
      assert.ok(refused, 'refused before 40 events of 120 KB');
      assert.equal(refused.status, 503);
      assert.equal(refused.body.error.code, 'UNAVAILABLE');
      assert.match(refused.body.error.message, /behind/);
      const res = await fetch(`${full.baseUrl}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(big(99)) });
      assert.equal(res.headers.get('retry-after'), '5');
      full.app.projector.start();
      await until('the spool projected', async () => full.app.projector.lagMs() === 0, 60_000);
      assert.ok(await jobExists(ns, `big${accepted - 1}`), 'every accepted event is projected');
      assert.equal((await full.postEvent(big(100))).status, 201, 'accepted again');
    } finally {
      await full.close();
    }
  });

  it('an event an earlier version left Pending in Neo4j and that no longer validates is labelled ProjectionFailed, never retried forever', async () => {
    const id = `event:${uniquePrefix('contract-failed')}`;
    await svc.app.driver.executeQuery(
      "CREATE (e:Event:Pending {id: $id, raw: '{\"not\": \"an event\"}', receivedAt: '2000-01-01T00:00:00.000Z'})",
      { id },
    );
    await until('swept', async () => (await stillPending([id])).length === 0);
    const { records } = await svc.app.driver.executeQuery('MATCH (e:Event {id: $id}) RETURN e:ProjectionFailed AS failed, e.projectionError AS error', { id });
    assert.equal(records[0]!.get('failed'), true);
    assert.match(records[0]!.get('error'), /no longer valid/);
    await svc.app.driver.executeQuery('MATCH (e:Event {id: $id}) DELETE e', { id });
  });

  it('an event that failed to project earlier and is stored again (Kafka redelivery, a file, another process) is projected and loses the ProjectionFailed label', async () => {
    // The same process dedupes a repeat it saw recently before the spool; the store-and-project path
    // (the Kafka worker's and the projector's) meets the stored event itself.
    const ns = uniquePrefix('contract-resent');
    const raw = JSON.stringify(runEvent(ns, { job: 'resent', outputs: ['t'] }));
    const store = async () => (await svc.app.ingestor.ingest([{ raw, value: JSON.parse(raw) }]))[0]!;
    const first = await store();
    assert.ok(first.ok);
    const id = first.eventId;
    // As if its projection had failed (stored, labelled, the graph without its job).
    await svc.app.driver.executeQuery("MATCH (e:Event {id: $id}) SET e:ProjectionFailed, e.projectionError = 'earlier failure'", { id });
    await svc.app.driver.executeQuery('MATCH (j:Job {id: $job}) DETACH DELETE j', { job: jobId(ns, 'resent') });
    const again = await store();
    assert.ok(again.ok && again.duplicate);
    const { records } = await svc.app.driver.executeQuery('MATCH (e:Event {id: $id}) RETURN e:ProjectionFailed AS failed, e.projectionError AS error', { id });
    assert.deepEqual([records[0]!.get('failed'), records[0]!.get('error')], [false, null]);
    assert.ok(await jobExists(ns, 'resent'), 'projected again');
  });

  it('acknowledged events survive a SIGKILL of the service: the next process projects what was left', async () => {
    const ns = uniquePrefix('contract-kill');
    const port = await freePort();
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-kill-'));
    const child = spawn(process.execPath, [path.resolve(__dirname, '..', '..', 'src', 'main.js'), 'api'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', TRIBUTARY_PLAN_WARMUP: 'false', TRIBUTARY_PROJECTION_BATCH: '1', TRIBUTARY_SPOOL_DIR: spoolDir, TRIBUTARY_LOG_LEVEL: 'error' },
      stdio: 'ignore',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await until('the child is ready', async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, 60_000);
      const acked: string[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, c) => {
          for (let i = c; i < 200; i += 8) {
            const res = await fetch(`${base}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(runEvent(ns, { job: `k${i}`, outputs: ['t'] })) });
            assert.equal(res.status, 201);
            acked.push(((await res.json()) as { eventId: string }).eventId);
          }
        }),
      );
      child.kill('SIGKILL');
      const left = (await stillPending(acked)).length;
      // The next process on the same spool projects what the killed one acknowledged.
      const next = await startService({ TRIBUTARY_SPOOL_DIR: spoolDir });
      try {
        await until('all projected after the kill', async () => (await stillPending(acked)).length === 0, 60_000);
        for (let i = 0; i < 200; i += 37) assert.ok(await jobExists(ns, `k${i}`), `k${i}`);
        process.stdout.write(`# SIGKILL after 200 acknowledged events: ${left} were still pending; all 200 in the graph after the next start\n`);
      } finally {
        await next.close();
      }
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
