import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { IngestItem, IngestOutcome } from '../../src/ingest/ingestor';
import { KafkaConnectCollector, type ConnectCluster, type LastRun, type RoundOutcome } from '../../src/kafka-connect/collector';

/**
 * The collector's rounds against an HTTP server that answers as a Connect worker does, and as a
 * broken one does (down, hanging, 500, garbage, huge, cut mid-answer). Its output is what it hands
 * to ingestion; the real worker and the real ingestion are the kafka tier's test.
 */

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let answer: Answer = (_q, res) => res.end('{}');
let server: http.Server;
let base = '';
before(async () => {
  server = http.createServer((q, r) => answer(q, r));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const listing = (connectors: Record<string, { cls: string; config?: Record<string, string>; state?: string; type?: string }>) =>
  Object.fromEntries(
    Object.entries(connectors).map(([name, c]) => [
      name,
      {
        info: { name, type: c.type ?? 'sink', config: { 'connector.class': c.cls, name, ...c.config }, tasks: [{ connector: name, task: 0 }] },
        status: { name, connector: { state: c.state ?? 'RUNNING', worker_id: 'w:8083' }, tasks: [{ id: 0, state: c.state ?? 'RUNNING', worker_id: 'w:8083' }], type: c.type ?? 'sink' },
      },
    ]),
  );
const json = (body: unknown): Answer => (_q, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};

function collector(cluster: Partial<ConnectCluster> = {}, limits: { timeoutMs?: number; maxBodyBytes?: number } = {}, restore?: Map<string, LastRun>) {
  const sent: Record<string, any>[] = [];
  const rounds: RoundOutcome[] = [];
  const c = new KafkaConnectCollector({
    clusters: [{ name: 'prod', url: base, kafkaNamespace: 'kafka://broker-1:9092', ...cluster }],
    intervalMs: 60_000,
    timeoutMs: limits.timeoutMs ?? 2_000,
    maxBodyBytes: limits.maxBodyBytes ?? 1_000_000,
    ingest: async (items: IngestItem[]): Promise<IngestOutcome[]> => {
      sent.push(...items.map((i) => i.value as Record<string, any>));
      return items.map((_, n) => ({ ok: true, eventId: String(n), kind: 'RunEvent', duplicate: false }));
    },
    knownTopics: async () => ['pg.shop.orders', 'audit'],
    onRound: (_c, o) => rounds.push(o),
    restore: restore ? async () => restore : undefined,
  });
  return { c, sent, rounds };
}

const SINK = 'org.apache.kafka.connect.file.FileStreamSinkConnector';

describe('the Kafka Connect collector', () => {
  it('sends each connector once, then only what changes: a new state, a new configuration (the old run completed), a deleted connector (its run aborted)', async () => {
    const { c, sent } = collector();
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'pg.shop.orders', file: '/a.jsonl' } }, custom: { cls: 'com.example.Mystery' } }));
    const first = await c.roundAll();
    assert.deepEqual(first.get('prod'), { ok: true, connectors: 2, sent: 2, skipped: 0, unknown: 1 });
    assert.deepEqual(sent.map((e) => [e.eventType, e.job.name, e.run.facets.kafkaConnect.lineage]), [['RUNNING', 'archive', 'MAPPED'], ['RUNNING', 'custom', 'UNKNOWN']]);
    assert.deepEqual((await c.roundAll()).get('prod'), { ok: true, connectors: 2, sent: 0, skipped: 0, unknown: 1 });
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'pg.shop.orders', file: '/a.jsonl' }, state: 'PAUSED' }, custom: { cls: 'com.example.Mystery' } }));
    await c.roundAll();
    assert.equal(sent.at(-1)!.run.facets.kafkaConnect.state, 'PAUSED');
    const runBefore = sent.at(-1)!.run.runId;
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'pg.shop.orders', file: '/b.jsonl' } } }));
    sent.length = 0;
    await c.roundAll();
    assert.deepEqual(sent.map((e) => [e.eventType, e.job.name, e.run.runId === runBefore]), [['COMPLETE', 'archive', true], ['RUNNING', 'archive', false], ['ABORT', 'custom', false]]);
    assert.deepEqual(sent[1]!.outputs, [{ namespace: 'file', name: '/b.jsonl' }]);
    // The replaced run ends before the new one starts, so the new one is the job's latest whatever the run ids.
    assert.ok(Date.parse(sent[0]!.eventTime) < Date.parse(sent[1]!.eventTime), `${sent[0]!.eventTime} < ${sent[1]!.eventTime}`);
  });

  it('a failed connector ends its run; its recovery, and a configuration that comes back, start new runs', async () => {
    const { c, sent } = collector();
    const a = { topics: 'audit', file: '/a' };
    const rounds = [
      listing({ archive: { cls: SINK, config: a } }),
      listing({ archive: { cls: SINK, config: a, state: 'FAILED' } }),
      listing({ archive: { cls: SINK, config: a, state: 'FAILED' } }),
      listing({ archive: { cls: SINK, config: a } }),
      listing({ archive: { cls: SINK, config: { ...a, file: '/b' } } }),
      listing({ archive: { cls: SINK, config: a } }),
      listing({ archive: { cls: SINK, config: { ...a, 'openlineage.integration.enabled': 'true' } } }),
    ];
    for (const body of rounds) {
      answer = json(body);
      await c.roundAll();
    }
    const runs = sent.map((e) => `${e.eventType}:${e.run.runId.slice(0, 8)}`);
    const [r1, r2, r3, r4] = [...new Set(sent.map((e) => e.run.runId))];
    assert.deepEqual(
      sent.map((e) => [e.eventType, e.run.runId]),
      [['RUNNING', r1], ['FAIL', r1], ['RUNNING', r2], ['COMPLETE', r2], ['RUNNING', r3], ['COMPLETE', r3], ['RUNNING', r4], ['COMPLETE', r4]],
      runs.join(' '),
    );
    assert.equal(new Set([r1, r2, r3, r4]).size, 4, 'the configuration that came back is a run of its own');
  });

  it('starts from what the graph says: a connector deleted while Tributary was away is ended and its job retired; a running one goes on in the same run', async () => {
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'audit', file: '/a' } } }));
    const probe = collector();
    await probe.c.roundAll();
    const archiveRun = probe.sent[0]!.run.runId as string;
    const configHash = probe.sent[0]!.run.facets.kafkaConnect.configHash as string;
    const restore = new Map<string, LastRun>([
      ['archive', { runId: archiveRun, configHash, ended: false }],
      ['gone', { runId: '0b2d3f4e-0000-8000-8000-000000000001', configHash: 'x', ended: false }],
      ['gone-failed', { runId: '0b2d3f4e-0000-8000-8000-000000000002', configHash: 'x', ended: true }],
    ]);
    const { c, sent } = collector({}, {}, restore);
    await c.roundAll();
    assert.deepEqual(
      sent.map((e) => [e.eventType ?? 'JobEvent', e.job.name, e.run?.runId ?? null, Boolean(e.job.facets?.retired?.reason)]),
      [['RUNNING', 'archive', archiveRun, false], ['ABORT', 'gone', '0b2d3f4e-0000-8000-8000-000000000001', true], ['JobEvent', 'gone-failed', null, true]],
    );
    sent.length = 0;
    await c.roundAll();
    assert.deepEqual(sent, [], 'the restored state is replaced by what was sent');
  });

  it('a cluster that is down, hangs, fails, answers garbage, too much or stops mid-answer costs its round only, and ends no run', async () => {
    const { c, sent, rounds } = collector({}, { timeoutMs: 500, maxBodyBytes: 10_000 });
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'audit', file: '/a' } } }));
    await c.roundAll();
    const cases: [string, Answer][] = [
      ['TIMEOUT', () => undefined],
      ['HTTP_ERROR', (_q, res) => {
        res.statusCode = 500;
        res.end('{"error_code":500}');
      }],
      ['GARBAGE', (_q, res) => res.end('<html>proxy error</html>')],
      ['GARBAGE', json(['not', 'connectors'])],
      ['TOO_LARGE', json(listing(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`c${i}`, { cls: SINK }]))))],
      ['TIMEOUT', (_q, res) => {
        res.write('{"archive": {"info": ');
        // …and nothing more.
      }],
      ['UNREACHABLE', (q) => q.socket.destroy()],
    ];
    for (const [reason, a] of cases) {
      answer = a;
      const out = (await c.roundAll()).get('prod')!;
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.reason, reason, JSON.stringify(out));
    }
    const down = collector({ url: 'http://127.0.0.1:1' });
    assert.equal((await down.c.roundAll()).get('prod')!.ok, false);
    // Nothing was ended while the cluster could not be read; when it answers again, nothing is resent.
    assert.equal(sent.length, 1);
    answer = json(listing({ archive: { cls: SINK, config: { topics: 'audit', file: '/a' } } }));
    assert.deepEqual((await c.roundAll()).get('prod'), { ok: true, connectors: 1, sent: 0, skipped: 0, unknown: 0 });
    assert.equal(rounds.length, cases.length + 2);
    server.closeAllConnections();
  });

  it('reads 10,000 connectors in one round, and a topics.regex against the topics Tributary knows', async () => {
    const { c, sent } = collector({}, { maxBodyBytes: 50_000_000 });
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`sink-${i}`, { cls: SINK, config: { 'topics.regex': i === 0 ? 'pg\\..*' : 'nothing-.*', file: `/out/${i}` } }]));
    answer = json(listing(many));
    const out = (await c.roundAll()).get('prod')!;
    assert.deepEqual(out, { ok: true, connectors: 10_000, sent: 10_000, skipped: 0, unknown: 0 });
    assert.deepEqual(sent[0]!.inputs, [{ namespace: 'kafka://broker-1:9092', name: 'pg.shop.orders' }]);
    assert.deepEqual(sent[1]!.inputs, []);
    assert.match(sent[1]!.run.facets.kafkaConnect.notes[0], /matches none of the 2 topics/);
  });

  it('sends basic-auth credentials when configured, and keeps stopping clean', async () => {
    let auth: string | undefined;
    answer = (q, res) => {
      auth = q.headers.authorization;
      json({})(q, res);
    };
    const { c } = collector({ basicAuth: 'tributary:s3cret' });
    c.start();
    await new Promise((r) => setTimeout(r, 200));
    await c.stop();
    assert.equal(auth, `Basic ${Buffer.from('tributary:s3cret').toString('base64')}`);
  });
});
