import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { Neo4jSupervisor } from '../../src/graph/embedded/supervisor';
import { Query } from '../../src/graph/queries';
import { datasetId } from '../../src/ids';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';
import { runEvent } from '../support/events';
import { freezeProcess } from '../support/freeze';
import { uniquePrefix } from '../support/isolate';

/**
 * The embedded Neo4j frozen (SIGSTOP of its JVM: alive, answering nothing) for longer than every
 * deadline while 8 clients post ~1 MB events and others read: the process stays alive and under
 * its memory ceiling, reads answer 503 within their deadline, ingestion answers 201 until the spool
 * is full and then 503 (Retry-After), /readyz and /healthz answer at once; after SIGCONT everything
 * acknowledged is projected. Deadlines are shortened (reads 3 + 2 s, writes 10 s, connections 2 s)
 * so that a 15 s freeze outlasts each of them; the memory settings are the defaults. Figures are
 * printed for the README's Reliability table. Then frozen for good: past TRIBUTARY_NEO4J_HANG_S
 * (25 s here) the supervisor kills the JVM and starts it again, and what was acknowledged meanwhile
 * is projected.
 */
const log = createLogger('error');
const base = loadConfig({
  ...process.env,
  TRIBUTARY_QUERY_TIMEOUT_MS: '3000',
  TRIBUTARY_WRITE_TIMEOUT_MS: '10000',
  TRIBUTARY_NEO4J_TIMEOUT_MS: '2000',
  TRIBUTARY_SPOOL_MAX_MB: '128',
});
const home = path.join(base.embedded.home, `test-frozen-${process.pid}`);
const FREEZE_MS = 15_000;
/** The supervisor's TRIBUTARY_NEO4J_HANG_S here: longer than the first freeze, shorter than the second. */
const HANG_KILL_MS = 25_000;
const READ_DEADLINE_MS = 3000 + 2000;
const RSS_CEILING = 1024 * 2 ** 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const max = (xs: number[]) => (xs.length ? Math.round(Math.max(...xs)) : 0);
const median = (xs: number[]) => (xs.length ? Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!) : 0);

let supervisor: Neo4jSupervisor;
let app: App;
let url: string;
before(async () => {
  supervisor = new Neo4jSupervisor({ ...base.embedded, home, port: 0, heap: '512m', pageCache: '128m' }, log, { maxRestarts: 5, hangKillMs: HANG_KILL_MS });
  const uri = await supervisor.start();
  const config = { ...base, ingest: { ...base.ingest, spoolDir: path.join(home, 'spool'), wait: 'none' as const }, neo4j: { uri, user: 'neo4j', retryMs: 3000 }, planWarmUp: 'off' as const };
  app = await createApp(config, log, new Metrics(false), supervisor);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
});
after(async () => {
  if (supervisor?.pid) process.kill(supervisor.pid, 'SIGCONT');
  await app?.close();
  await supervisor?.stop();
});

/** A timed request: status, milliseconds, Retry-After. */
async function timed(path: string, init?: RequestInit): Promise<{ status: number; ms: number; retryAfter: string | null; body: string }> {
  const started = performance.now();
  const res = await fetch(url + path, { ...init, signal: AbortSignal.timeout(60_000) }).catch(() => null);
  const body = res ? await res.text() : '';
  return { status: res?.status ?? 0, ms: performance.now() - started, retryAfter: res?.headers.get('retry-after') ?? null, body };
}

describe('a frozen embedded Neo4j (SIGSTOP)', () => {
  it('costs no acknowledged event, no crash and no unbounded wait; everything is projected after SIGCONT', async () => {
    const ns = uniquePrefix('frozen');
    const filler = 'x'.repeat(1024 * 1024);
    const event = (i: number) => JSON.stringify(runEvent(ns, { job: `j${i % 20}`, outputs: [`out${i % 20}`], jobFacets: { documentation: { description: `${i} ${filler}` } } }));
    // Seed a dataset to read, projected before the freeze.
    // (On a new store the first projection compiles its plans, which can outlast the 10 s write
    // deadline on a loaded machine: it is retried, so the seed may take longer than one wait.)
    const seeded = await timed('/api/v1/lineage', { method: 'POST', headers: { 'content-type': 'application/json', 'tributary-wait': 'projected' }, body: event(0) });
    assert.ok(seeded.status === 201 || seeded.status === 202, seeded.body);
    const acknowledged = new Set<string>([JSON.parse(seeded.body).eventId]);
    for (const started = Date.now(); ; await sleep(500)) {
      const pending = await app.executor.read<{ id: string }>(Query.StillPending, { ids: [...acknowledged] });
      if (pending.length === 0) break;
      assert.ok(Date.now() - started < 120_000, 'the seed event was not projected within 2 minutes');
    }

    const pid = supervisor.pid!;
    let frozen = true;
    let rssPeak = process.memoryUsage().rss;
    const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100).unref();
    await freezeProcess(pid);
    const frozenAt = Date.now();

    const posts = { ok: 0, refused: 0, other: new Map<string, number>(), refusedWithoutRetryAfter: 0 };
    let next = 1;
    const poster = async () => {
      while (frozen) {
        const r = await timed('/api/v1/lineage', { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(next++) });
        if (r.status === 201) {
          posts.ok++;
          acknowledged.add(JSON.parse(r.body).eventId);
        } else if (r.status === 503) {
          posts.refused++;
          if (r.retryAfter === null) posts.refusedWithoutRetryAfter++;
          await sleep(200);
        } else {
          const key = `${r.status} ${r.body.slice(0, 100)}`;
          posts.other.set(key, (posts.other.get(key) ?? 0) + 1);
        }
      }
    };
    const reads = { graphql: [] as { status: number; ms: number; retryAfter: string | null }[], rest: [] as { status: number; ms: number }[], marquez: [] as { status: number; retryAfter: string | null; body: string }[], typename: [] as number[], ready: [] as { status: number; ms: number }[], health: [] as number[] };
    const reader = async () => {
      const id = datasetId(ns, 'out0');
      while (frozen) {
        const g = await timed('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ dataset(id: ${JSON.stringify(id)}) { name } }` }) });
        reads.graphql.push(g);
        const c = await timed(`/api/v1/coverage?scope=NAMESPACE&value=${encodeURIComponent(ns)}`);
        reads.rest.push(c);
        const m = await timed(`/api/v1/lineage?nodeId=${encodeURIComponent(`dataset:${ns}:out0`)}&depth=20`);
        reads.rest.push(m);
        reads.marquez.push(m);
        await sleep(100);
      }
    };
    const prober = async () => {
      while (frozen) {
        const t = await timed('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
        assert.equal(t.status, 200, t.body);
        reads.typename.push(t.ms);
        const r = await timed('/readyz');
        reads.ready.push(r);
        reads.health.push((await timed('/healthz')).ms);
        await sleep(250);
      }
    };
    const thaw = async () => {
      await sleep(FREEZE_MS);
      frozen = false;
    };
    await Promise.all([...Array.from({ length: 8 }, poster), reader(), reader(), prober(), thaw()]);
    const frozenFor = Date.now() - frozenAt;
    process.kill(pid, 'SIGCONT');

    process.stdout.write(
      `# frozen ${(frozenFor / 1000).toFixed(1)} s: ${posts.ok} × ~1 MB events acknowledged, ${posts.refused} × 503 (spool full); ` +
        `GraphQL reads ${reads.graphql.length} (503: ${reads.graphql.filter((r) => r.status === 503).length}), median ${median(reads.graphql.map((r) => r.ms))} ms, max ${max(reads.graphql.map((r) => r.ms))} ms; ` +
        `REST coverage max ${max(reads.rest.map((r) => r.ms))} ms; { __typename } max ${max(reads.typename)} ms; /readyz max ${max(reads.ready.map((r) => r.ms))} ms; /healthz max ${max(reads.health)} ms; ` +
        `RSS peak ${Math.round(rssPeak / 2 ** 20)} MiB\n`,
    );
    // The whole time: alive, bounded, and answering.
    assert.equal(supervisor.pid, pid, 'a freeze shorter than TRIBUTARY_NEO4J_HANG_S does not restart Neo4j');
    assert.deepEqual([...posts.other], [], 'ingestion answers 201 or 503, nothing else');
    assert.equal(posts.refusedWithoutRetryAfter, 0, 'every 503 says Retry-After');
    assert.ok(posts.ok > 0, 'acknowledged into the spool while Neo4j was frozen');
    assert.ok(posts.refused > 0, `the spool limit was reached (${posts.ok} acknowledged)`);
    const settledReads = [...reads.graphql, ...reads.rest];
    assert.ok(settledReads.every((r) => r.status === 503 || r.status === 200), `reads answer 503 (or 200): ${settledReads.map((r) => r.status).join(' ')}`);
    assert.ok(reads.graphql.some((r) => r.status === 503), 'GraphQL reads are 503 while Neo4j is frozen');
    assert.ok(reads.graphql.filter((r) => r.status === 503).every((r) => r.retryAfter === '5'), 'GraphQL 503s say Retry-After');
    // Marquez's API (src/marquez): 503 in Marquez's error shape, with Retry-After.
    assert.ok(reads.marquez.some((r) => r.status === 503), `Marquez lineage reads are 503 while Neo4j is frozen: ${reads.marquez.map((r) => r.status).join(' ')}`);
    for (const r of reads.marquez.filter((x) => x.status === 503)) {
      assert.equal(r.retryAfter, '5');
      const body = JSON.parse(r.body) as { code?: unknown; message?: unknown };
      assert.equal(body.code, 503, r.body);
      assert.equal(typeof body.message, 'string', r.body);
    }
    assert.ok(max(settledReads.map((r) => r.ms)) < READ_DEADLINE_MS + 2000, `reads end within their deadline (${max(settledReads.map((r) => r.ms))} ms)`);
    assert.ok(reads.ready.some((r) => r.status === 503), '/readyz says not ready while Neo4j is frozen');
    assert.ok(max(reads.ready.map((r) => r.ms)) < 1000, `/readyz answers within a second (${max(reads.ready.map((r) => r.ms))} ms)`);
    assert.ok(rssPeak < RSS_CEILING, `RSS peaked at ${Math.round(rssPeak / 2 ** 20)} MiB, over the 1 GiB ceiling`);

    // After SIGCONT: everything acknowledged is projected.
    const thawedAt = Date.now();
    for (;;) {
      const pending = await app.executor.read<{ id: string }>(Query.StillPending, { ids: [...acknowledged] }).catch(() => null);
      if (pending && pending.length === 0) break;
      assert.ok(Date.now() - thawedAt < 180_000, `${pending?.length ?? '?'} acknowledged events still not projected 3 minutes after SIGCONT`);
      await sleep(500);
    }
    clearInterval(rssTimer);
    process.stdout.write(`# all ${acknowledged.size} acknowledged events projected ${((Date.now() - thawedAt) / 1000).toFixed(1)} s after SIGCONT; RSS peak ${Math.round(rssPeak / 2 ** 20)} MiB\n`);
    const ready = await timed('/readyz');
    assert.equal(ready.status, 200, ready.body);
  });

  it('frozen past TRIBUTARY_NEO4J_HANG_S, it is killed and restarted like one that died; nothing acknowledged is lost', async () => {
    const ns = uniquePrefix('hung');
    const pid = supervisor.pid!;
    const deaths = supervisor.history.length;
    await freezeProcess(pid);
    const frozenAt = Date.now();
    const acknowledged: string[] = [];
    // Acknowledged into the spool the whole time (small events: the spool has room).
    while (supervisor.pid === pid || supervisor.status !== 'up') {
      // Killed soon after the hang limit (the probe runs every 1 to 3 s); the restart takes what a start takes on this machine.
      if (supervisor.history.length === deaths) assert.ok(Date.now() - frozenAt < HANG_KILL_MS + 30_000, 'the frozen JVM was not killed');
      else assert.ok(Date.now() - frozenAt < HANG_KILL_MS + 30_000 + 180_000, `killed, but not restarted (${supervisor.status})`);
      const r = await timed('/api/v1/lineage', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(runEvent(ns, { job: `h${acknowledged.length}`, outputs: ['t'] })) });
      assert.equal(r.status, 201, r.body);
      acknowledged.push(JSON.parse(r.body).eventId);
      await sleep(500);
    }
    const death = supervisor.history[deaths]!;
    assert.equal(death.signal, 'SIGKILL');
    const killedAfter = death.diedAt - frozenAt;
    assert.ok(killedAfter >= HANG_KILL_MS - 1000, `killed after ${killedAfter} ms, not before TRIBUTARY_NEO4J_HANG_S`);
    const restartedAt = Date.now();
    for (;;) {
      const pending = await app.executor.read<{ id: string }>(Query.StillPending, { ids: acknowledged }).catch(() => null);
      if (pending && pending.length === 0) break;
      assert.ok(Date.now() - restartedAt < 120_000, `${pending?.length ?? '?'} acknowledged events not projected 2 minutes after the restart`);
      await sleep(500);
    }
    process.stdout.write(
      `# frozen for good: killed ${(killedAfter / 1000).toFixed(1)} s after SIGSTOP (TRIBUTARY_NEO4J_HANG_S ${HANG_KILL_MS / 1000}), back ${((death.recoveredAfterMs ?? 0) / 1000).toFixed(1)} s later; ` +
        `${acknowledged.length} events acknowledged meanwhile, all projected ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after it was back\n`,
    );
  });
});
