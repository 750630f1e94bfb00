import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config';
import { startService, type TestService } from '../support/app';
import { runEvent, type RunSpec } from '../support/events';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

/**
 * Coverage-drop alerts (src/http/coverage-alerts.ts) on their real schedule (checks every second)
 * against a webhook receiver in this test: a producer upgrade that stops sending column lineage
 * gives exactly one alert naming the job, the edge and the cause (delivered after the receiver
 * refused the first attempt with 503); later checks with nothing changed send none, and neither
 * does a run still going without its column lineage yet. A webhook that is down costs ingestion
 * nothing.
 */
const SECRET = 'a-test-secret-of-32-characters!!';
const producer = (v: string) => `https://github.com/OpenLineage/OpenLineage/tree/${v}/integration/spark`;
const schema = (...names: string[]) => ({ schema: { _producer: 't', _schemaURL: 't', fields: names.map((name) => ({ name, type: 'string' })) } });

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver answering 503 to the first `failFirst` requests, then 204. */
async function receiver(failFirst: number): Promise<{ url: string; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = got.length < failFirst ? 503 : 204;
      got.push({ status, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((r) => server.close(() => r())) };
}

function ev(ns: string, spec: RunSpec & { runId: string }, version: string) {
  return { ...runEvent(ns, { ...spec, runId: isolatedRunId(ns, spec.runId) }), producer: producer(version) };
}

const baseline = (ns: string) => [
  ev(ns, { job: 'orders', eventTime: '2024-04-01T10:00:00Z', runId: '31111111-0000-4000-8000-000000000001', inputs: ['src'], outputs: ['out'],
    datasetFacets: { out: schema('a') }, columns: { out: { a: ['src.x'] } } }, '1.52.0'),
  ev(ns, { job: 'billing', eventTime: '2024-04-01T10:00:00Z', runId: '31111111-0000-4000-8000-000000000002', inputs: ['src'], outputs: ['bill'],
    datasetFacets: { bill: schema('b') }, columns: { bill: { b: ['src.y'] } } }, '1.52.0'),
];

async function metric(svc: TestService, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${svc.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const checks = async (svc: TestService) =>
  (await metric(svc, 'tributary_alert_checks_total', 'outcome="quiet"')) + (await metric(svc, 'tributary_alert_checks_total', 'outcome="alerted"'));

let plain: TestService;
before(async () => {
  plain = await startService();
});
after(async () => {
  await plain?.close();
});

describe('coverage-drop alerts', () => {
  it('one alert for a producer upgrade that stopped sending column lineage, none when nothing changed', async () => {
    const ns = uniquePrefix('alerts');
    for (const e of baseline(ns)) assert.equal((await plain.postEvent(e)).status, 201);
    const hook = await receiver(1);
    const svc = await startService({
      TRIBUTARY_ALERT_WEBHOOK: hook.url,
      TRIBUTARY_ALERT_SCOPE: 'NAMESPACE',
      TRIBUTARY_ALERT_SCOPE_VALUE: ns,
      TRIBUTARY_ALERT_INTERVAL_S: '1',
      TRIBUTARY_ALERT_BACKOFF_MS: '50',
      TRIBUTARY_ALERT_SECRET: SECRET,
    });
    try {
      await until('the baseline check', async () => (await metric(svc, 'tributary_alert_checks_total', 'outcome="baseline"')) === 1);
      await until('a quiet check', async () => (await checks(svc)) >= 1);
      assert.equal(hook.got.length, 0, 'no alert while nothing changed');

      // The upgrade: orders' next run, under 1.53.0, without column lineage.
      const upgraded = ev(ns, { job: 'orders', eventTime: '2024-04-02T10:00:00Z', runId: '32222222-0000-4000-8000-000000000001', inputs: ['src'], outputs: ['out'],
        datasetFacets: { out: schema('a') } }, '1.53.0');
      assert.equal((await svc.postEvent(upgraded)).status, 201);
      await until('the alert delivered', async () => hook.got.some((r) => r.status === 204));

      assert.deepEqual(hook.got.map((r) => r.status), [503, 204], 'refused once, delivered on the retry');
      const [first, delivered] = hook.got as [Received, Received];
      assert.equal(first.body, delivered.body, 'the retry sends the same alert');
      assert.equal(delivered.headers['x-tributary-signature'], `sha256=${createHmac('sha256', SECRET).update(delivered.body).digest('hex')}`);
      const alert = JSON.parse(delivered.body);
      assert.equal(delivered.headers['x-tributary-alert-id'], alert.id);
      assert.equal(alert.type, 'tributary.coverage.drop');
      assert.equal(alert.scope, 'NAMESPACE');
      assert.equal(alert.value, ns);
      assert.equal(alert.regressionCount, 1);
      assert.deepEqual(alert.regressions, [{
        jobId: `job:${ns}:orders`,
        datasetId: `dataset:${ns}:out`,
        fromRunId: `run:${isolatedRunId(ns, '31111111-0000-4000-8000-000000000001')}`,
        toRunId: `run:${isolatedRunId(ns, '32222222-0000-4000-8000-000000000001')}`,
        cause: 'PRODUCER_VERSION_CHANGED',
        fromProducer: producer('1.52.0'),
        toProducer: producer('1.53.0'),
        explorerPath: `/lineage?node=${encodeURIComponent(`job:${ns}:orders`)}&up=1&down=1`,
      }]);
      assert.deepEqual(alert.drops.map((d: { group: string; key: string; before: number; after: number }) => [d.group, d.key, d.before, d.after]), [
        ['SCOPE', ns, 1, 0.5],
        ['ENGINE', 'spark', 1, 0.5],
        ['NAMESPACE', ns, 1, 0.5],
      ]);
      assert.equal(alert.coverage.before.columnLevel, 2);
      assert.equal(alert.coverage.after.columnLevel, 1);
      assert.match(alert.summary, /column lineage lost on 1 job → output edge; coverage 100\.0% → 50\.0%/);

      // Nothing changes, then a run starts without its column lineage yet (it comes with COMPLETE): no alert.
      const running = ev(ns, { job: 'billing', eventType: 'START', eventTime: '2024-04-02T11:00:00Z', runId: '32222222-0000-4000-8000-000000000002',
        inputs: ['src'], outputs: ['bill'] }, '1.52.0');
      assert.equal((await svc.postEvent(running)).status, 201);
      const seen = await checks(svc);
      await until('three more checks', async () => (await checks(svc)) >= seen + 3);
      assert.equal(hook.got.length, 2, 'still one alert (two attempts)');
      assert.equal(await metric(svc, 'tributary_alerts_total', 'outcome="delivered"'), 1);
    } finally {
      await svc.close();
      await hook.close();
    }
  });

  it('a webhook that is down fails the alert after its attempts and never slows ingestion', async () => {
    const ns = uniquePrefix('alertsdown');
    for (const e of baseline(ns)) assert.equal((await plain.postEvent(e)).status, 201);
    const gone = await receiver(0);
    await gone.close(); // nothing listens on its port any more
    const svc = await startService({
      TRIBUTARY_ALERT_WEBHOOK: gone.url,
      TRIBUTARY_ALERT_SCOPE: 'NAMESPACE',
      TRIBUTARY_ALERT_SCOPE_VALUE: ns,
      TRIBUTARY_ALERT_INTERVAL_S: '1',
      TRIBUTARY_ALERT_ATTEMPTS: '3',
      TRIBUTARY_ALERT_BACKOFF_MS: '50',
    });
    try {
      await until('the baseline check', async () => (await metric(svc, 'tributary_alert_checks_total', 'outcome="baseline"')) === 1);
      const upgraded = ev(ns, { job: 'orders', eventTime: '2024-04-02T10:00:00Z', runId: '32222222-0000-4000-8000-000000000001', inputs: ['src'], outputs: ['out'] }, '1.53.0');
      assert.equal((await svc.postEvent(upgraded)).status, 201);
      await until('the alert given up', async () => (await metric(svc, 'tributary_alerts_total', 'outcome="failed"')) === 1);
      // Ingestion meanwhile and after: accepted and projected as usual.
      for (let i = 0; i < 5; i++) {
        const e = ev(ns, { job: `more${i}`, eventTime: '2024-04-03T10:00:00Z', runId: `3333333${i}-0000-4000-8000-000000000001`, inputs: ['src'], outputs: [`o${i}`] }, '1.53.0');
        assert.equal((await svc.postEvent(e)).status, 201);
      }
      const cov = await svc.graphql(`query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges columnLevel } } }`, { ns });
      assert.deepEqual((cov.data as any).coverage.overall, { edges: 7, columnLevel: 1 });
    } finally {
      await svc.close();
    }
  });

  it('refuses an alert configuration that cannot work, at start', async () => {
    assert.throws(() => loadConfig({ TRIBUTARY_ALERT_WEBHOOK: 'ftp://x/hook' }), ConfigError);
    assert.throws(() => loadConfig({ TRIBUTARY_ALERT_WEBHOOK: 'http://x/hook', TRIBUTARY_ALERT_SCOPE: 'ENGINE' }), /TRIBUTARY_ALERT_SCOPE_VALUE/);
    assert.throws(() => loadConfig({ TRIBUTARY_ALERT_WEBHOOK: 'http://x/hook', TRIBUTARY_ALERT_SECRET: 'short' }), ConfigError);
    assert.equal(loadConfig({}).alerts, null);
    assert.equal(loadConfig({ TRIBUTARY_ALERT_WEBHOOK: 'https://hooks.example.com/x' }).alerts?.drop, 0.05);
  });
});
