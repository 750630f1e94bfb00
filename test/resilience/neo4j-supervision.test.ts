import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { Neo4jSupervisor } from '../../src/graph/embedded/supervisor';
import { Query } from '../../src/graph/queries';
import { idPrefix, jobId } from '../../src/ids';
import { EntityKind } from '../../src/lineage/types';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * The embedded Neo4j killed (SIGKILL of its JVM) five times in a row while 16 retrying clients ingest 3,000
 * events one request each: every acknowledged event is stored, the supervisor brings Neo4j back by
 * itself each time (the recovery times are printed: figures for the README's Reliability section),
 * ingestion goes on acknowledging into the spool while it is down (a 503 with Retry-After is the
 * only other answer allowed), and every acknowledged event is projected afterwards. Then a supervisor
 * allowed no restart gives up, and /healthz says so.
 */
const log = createLogger('error');
const pct = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(0) : '-');
const config = loadConfig();
const home = path.join(config.embedded.home, `test-supervised-${process.pid}`);
/** SIGKILLs in a row, each once the previous one has healed. */
const KILLS = 5;

let supervisor: Neo4jSupervisor;
let app: App;
let base: string;
before(async () => {
  supervisor = new Neo4jSupervisor({ ...config.embedded, home, port: 0, heap: '512m', pageCache: '128m' }, log, { maxRestarts: 5 });
  const uri = await supervisor.start();
  app = await createApp({ ...config, ingest: { ...config.ingest, spoolDir: path.join(home, 'spool') }, neo4j: { uri, user: 'neo4j', retryMs: 3000 }, planWarmUp: 'off' }, log, new Metrics(false), supervisor);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
});
after(async () => {
  await app?.close();
  await supervisor?.stop();
});

describe('a supervised embedded Neo4j', () => {
  it('is killed five times in a row during a 3,000-event ingest: 0 acknowledged events lost, back by itself each time', async () => {
    const ns = uniquePrefix('supervised');
    const events = Array.from({ length: 3000 }, (_, i) => JSON.stringify(runEvent(ns, { job: `j${i % 50}`, inputs: [`in${i % 7}`], outputs: [`out${i % 50}`] })));
    const acknowledged = new Set<string>();
    const refusals: number[] = [];
    let acknowledgedWhileDown = 0;
    const other = new Map<string, number>();
    let next = 0;
    const client = async () => {
      for (let i = next++; i < events.length; i = next++) {
        for (;;) {
          const started = performance.now();
          const res = await fetch(`${base}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: events[i] }).catch(() => null);
          if (res?.status === 201) {
            if (supervisor.status !== 'up') acknowledgedWhileDown++;
            acknowledged.add(((await res.json()) as { eventId: string }).eventId);
            break;
          }
          if (res?.status === 503) {
            assert.equal(res.headers.get('retry-after'), '5');
            refusals.push(performance.now() - started);
          }
          else {
            const key = `${res?.status ?? 'network error'} ${res ? (await res.text()).slice(0, 120) : ''}`;
            other.set(key, (other.get(key) ?? 0) + 1);
          }
          await res?.body?.cancel().catch(() => {});
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    // Reads while Neo4j is down: the lineage diff (two snapshots, then run reports) over REST and GraphQL.
    const diffAnswers: number[] = [];
    // Marquez's table lineage (src/marquez), sent just before the kill so that it is in flight when
    // Neo4j dies: 503 in Marquez's error shape with Retry-After, or 200 (404, also in Marquez's
    // shape, while the projection has not reached the dataset yet: the first kill can come before
    // the first projected batch, whose plans compile on a cold Neo4j).
    const marquezAnswers: string[] = [];
    const marquezLineage = async () => {
      const res = await fetch(`${base}/api/v1/lineage?nodeId=${encodeURIComponent(`dataset:${ns}:out0`)}&depth=20`).catch(() => null);
      const text = res ? await res.text() : '';
      if (res?.status === 200) marquezAnswers.push(Array.isArray((JSON.parse(text) as { graph?: unknown }).graph) ? '200' : `200 without a graph: ${text.slice(0, 100)}`);
      else if (res?.status === 503 || res?.status === 404) {
        const body = JSON.parse(text) as { code?: unknown; message?: unknown };
        const shaped = body.code === res.status && typeof body.message === 'string' && (res.status === 404 || res.headers.get('retry-after') === '5');
        marquezAnswers.push(shaped ? String(res.status) : `${res.status} not in Marquez's shape: ${text.slice(0, 100)}`);
      } else marquezAnswers.push(`${res?.status ?? 'network error'} ${text.slice(0, 100)}`);
    };
    const diffNow = async () => {
      const rest = await fetch(`${base}/api/v1/lineage/diff?scope=NAMESPACE&value=${encodeURIComponent(ns)}&from=2020-01-01T00:00:00Z`);
      diffAnswers.push(rest.status);
      await rest.body?.cancel();
      const gql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ lineageDiff(from: "2020-01-01T00:00:00Z", scope: NAMESPACE, value: ${JSON.stringify(ns)}) { changes { total } } }` }),
      });
      diffAnswers.push(gql.status);
      await gql.body?.cancel();
    };
    const killer = async () => {
      for (let k = 0; k < KILLS; k++) {
        while (acknowledged.size < (events.length / (KILLS + 1)) * (k + 1)) await new Promise((r) => setTimeout(r, 100));
        const pid = supervisor.pid!;
        const inFlight = marquezLineage();
        process.kill(pid, 'SIGKILL');
        await Promise.all([inFlight, diffNow()]);
        await marquezLineage();
        const health = await fetch(`${base}/healthz`);
        assert.equal(health.status, 200, 'a recoverable process is live');
        // Back: the supervisor has restarted it and the liveness probe has seen it answer.
        while (supervisor.status !== 'up' || supervisor.pid === pid || !app.executor.up()) await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([...Array.from({ length: 16 }, client), killer()]);
    assert.equal(acknowledged.size, events.length);
    assert.ok(diffAnswers.includes(503), `diffs while Neo4j was down: ${diffAnswers.join(' ')}`);
    assert.ok(diffAnswers.every((st) => st === 503 || st === 200), `a diff answers 503 while Neo4j is down (or 200 once back), never an error: ${diffAnswers.join(' ')}`);
    const afterAll = diffAnswers.length;
    await diffNow();
    assert.deepEqual(diffAnswers.slice(afterAll), [200, 200], 'diffs answer again once Neo4j is back');
    assert.ok(marquezAnswers.includes('503'), `Marquez lineage while Neo4j was down: ${marquezAnswers.join(' ')}`);
    assert.deepEqual(marquezAnswers.filter((a) => !['200', '503', '404'].includes(a)), [], 'Marquez lineage in flight or sent while Neo4j is down answers 503 in Marquez’s shape (or 200, or 404 before the projection)');
    // Projected: the background projector paused while Neo4j was down and caught up by itself.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const pending = await app.executor.read<{ id: string }>(Query.StillPending, { ids: [...acknowledged] });
      if (pending.length === 0) break;
      assert.ok(Date.now() < deadline, `${pending.length} acknowledged events still not projected after 2 minutes`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const [stored] = await app.executor.read<{ events: number }>(Query.CountEvents, {
      jobPrefix: idPrefix(EntityKind.JOB, ns),
      datasetPrefix: idPrefix(EntityKind.DATASET, ns),
    });
    assert.equal(stored!.events, events.length, 'every acknowledged event is stored');
    const marquezAfter = marquezAnswers.length;
    await marquezLineage();
    assert.deepEqual(marquezAnswers.slice(marquezAfter), ['200'], 'Marquez lineage answers once Neo4j is back and the events are projected');
    const jobs = await app.executor.read<{ job: { id: string } }>(Query.JobsById, { ids: Array.from({ length: 50 }, (_, j) => jobId(ns, `j${j}`)) });
    assert.equal(jobs.length, 50, 'every job of the stream is in the graph');
    assert.equal(supervisor.history.length, KILLS, 'it healed after each kill');
    assert.deepEqual([...other], [], 'while Neo4j is down, ingestion answers 201 (the spool) or 503, nothing else');
    assert.ok(supervisor.history.every((d) => d.signal === 'SIGKILL' && d.recoveredAfterMs !== null));
    process.stdout.write(
      `# recovered after ${supervisor.history.map((d) => `${(d.recoveredAfterMs! / 1000).toFixed(1)} s`).join(', ')}; ` +
        `${acknowledgedWhileDown} events acknowledged while Neo4j was down (the spool); ${refusals.length} requests answered 503 (Retry-After: 5), in ${pct(refusals, 0.5)} ms (median), ${pct(refusals, 0.95)} ms (p95), ` +
        `${pct(refusals, 1)} ms (slowest: in flight when Neo4j died); other answers: ${JSON.stringify([...other])}\n`,
    );
  });

  it('gives up after its restart attempts, and /healthz says the process cannot recover', async () => {
    const failing = new Neo4jSupervisor({ ...config.embedded, home: `${home}-giveup`, port: 0, heap: '512m', pageCache: '128m' }, log, {
      maxRestarts: 0,
    });
    await failing.start();
    try {
      process.kill(failing.pid!, 'SIGKILL');
      while (failing.status !== 'failed') await new Promise((r) => setTimeout(r, 100));
      assert.equal(failing.recoverable(), false);
      assert.equal(failing.available(), false);
    } finally {
      await failing.stop();
    }
  });
});
