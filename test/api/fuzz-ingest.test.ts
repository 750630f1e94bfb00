import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { docsOf, isAccepted, manifest } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { rng } from '../support/generate';
import { isolate, uniquePrefix } from '../support/isolate';
import { mutate } from '../support/mutate';


/**
 * Ingestion fuzzing: the 149 corpus events Tributary accepts, mutated (test/support/mutate.ts, seeded), sent
 * one per request and in batches. Every answer is 201/200 or a 4xx JSON error with a code, never a
 * 5xx; no request takes 10 s; the service is healthy afterwards. `npm test` sends FUZZ_EVENTS
 * (default 2,000) events; `npm run test:fuzz` 20,000.
 */
const COUNT = Number(process.env.FUZZ_EVENTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe(`ingestion fuzz (${COUNT} mutated corpus events, seed ${SEED})`, () => {
  it('answers every event with 2xx or a 4xx JSON error, never 5xx, never hangs', async () => {
    const prefix = uniquePrefix('fuzz');
    const bases = manifest()
      .flatMap((r) => docsOf(r.file))
      .filter((d) => isAccepted(d.value))
      .map((d) => isolate(d.value as Record<string, unknown>, prefix));
    assert.equal(bases.length, 149);
    // The unmutated events first (every one accepted): the query plans are compiled before timing starts.
    const warm = await svc.post('/api/v1/lineage/batch', JSON.stringify(bases));
    assert.equal(warm.body.summary.failed, 0);
    const propertyKeys = async () =>
      (await svc.app.driver.executeQuery('CALL db.propertyKeys() YIELD propertyKey RETURN count(*) AS n')).records[0]!.get('n').toNumber() as number;
    const keysBefore = await propertyKeys();
    const random = rng(SEED);
    const statuses = new Map<number, number>();
    const reasons = new Map<string, number>();
    const slowest = { ms: 0, what: '' };
    let sent = 0;
    let unsendable = 0;
    const send = async (path: string, body: string) => {
      const started = performance.now();
      const res = await fetch(`${svc.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const ms = performance.now() - started;
      if (ms > slowest.ms) Object.assign(slowest, { ms, what: body.slice(0, 200) });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok(res.status < 500, `${res.status} for ${body.slice(0, 300)}: ${text.slice(0, 300)}`);
      const parsed = JSON.parse(text) as { error?: { code: string; details?: { reason?: string }[] }; failed_events?: { details?: { reason?: string }[] }[] };
      if (res.status >= 400) {
        assert.ok(parsed.error?.code, text.slice(0, 300));
        const r = parsed.error.details?.[0]?.reason ?? parsed.error.code;
        reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
      for (const f of parsed.failed_events ?? []) {
        const r = f.details?.[0]?.reason ?? 'other';
        reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
    };
    const texts: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      try {
        texts.push(JSON.stringify(mutate(bases[Math.floor(random() * bases.length)]!, random)));
      } catch {
        unsendable++; // nesting deeper than this process can stringify: never sent
      }
    }
    // A third one event per request (8 clients at a time), the rest in batches of 20.
    const single = texts.slice(0, Math.floor(texts.length / 3));
    const batched = texts.slice(single.length);
    for (let i = 0; i < single.length; i += 8) {
      await Promise.all(single.slice(i, i + 8).map((t) => send('/api/v1/lineage', t)));
      sent += Math.min(8, single.length - i);
    }
    for (let i = 0; i < batched.length; i += 20) {
      await send('/api/v1/lineage/batch', `[${batched.slice(i, i + 20).join(',')}]`);
      sent += Math.min(20, batched.length - i);
    }
    const health = await fetch(`${svc.baseUrl}/readyz`);
    assert.equal(health.status, 200);
    const rss = process.memoryUsage().rss;
    // The mutations invent thousands of facet keys; they were property keys once (3,382 per run).
    const newKeys = (await propertyKeys()) - keysBefore;
    process.stdout.write(
      `# fuzz: ${sent} events sent (${unsendable} too deep to send), answers ${JSON.stringify([...statuses].sort())}, ` +
        `reasons ${JSON.stringify([...reasons].sort((a, b) => b[1] - a[1]).slice(0, 12))}, slowest ${slowest.ms.toFixed(0)} ms (${JSON.stringify(slowest.what.slice(0, 120))}), RSS ${(rss / 2 ** 20).toFixed(0)} MiB, ${newKeys} new property keys\n`,
    );
    assert.ok(newKeys < 50, `${newKeys} property keys appeared: producer-chosen keys must not become property keys`);
    assert.ok(statuses.get(201) && statuses.get(400), 'the mutations both keep and break events');
  });
});
