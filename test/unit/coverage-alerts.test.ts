import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AlertSettings } from '../../src/config';
import { CoverageAlerts } from '../../src/http/coverage-alerts';
import { toSnapshot, type DiffChange, type Snapshot, type SnapshotRow } from '../../src/lineage/diff-compare';
import type { DiffService } from '../../src/lineage/diff-service';
import { IoDirection } from '../../src/lineage/types';
import { createLogger } from '../../src/log';
import { Metrics } from '../../src/metrics';

/**
 * The alert scheduler's own rules, without Neo4j: the snapshots come from a stand-in for the diff
 * service (the Cypher behind it is tested in test/api/lineage-diff.test.ts and coverage-alerts.test.ts).
 */
const edge = (jobId: string, cll: boolean): SnapshotRow => ({
  jobId,
  namespace: 'ns',
  engine: 'spark',
  direction: IoDirection.OUTPUT,
  datasetId: `dataset:ns:${jobId}`,
  runId: 'run:1',
  recorded: true,
  decidedRunId: cll ? 'run:1' : 'run:2',
  decidedRecorded: true,
  cllFields: cll ? ['a'] : [],
  cllWhole: false,
  reportedFields: 1,
  anyCll: cll,
  anyFields: 1,
  anyWithInputs: cll ? 1 : 0,
});
const snap = (rows: SnapshotRow[], truncated = false): Snapshot => toSnapshot(rows, null, truncated);

/** A diff service answering the given snapshots in turn; `explain` fails while `failExplain` > 0. */
function standIn(snapshots: Snapshot[], failExplain = 0) {
  let i = 0;
  return {
    snapshot: async () => snapshots[Math.min(i++, snapshots.length - 1)]!,
    explain: async (changes: DiffChange[]) => {
      if (failExplain-- > 0) throw new Error('transaction timed out');
      for (const c of changes) c.cause = null;
    },
  } as unknown as DiffService;
}

let server: http.Server;
let url: string;
let answer = 503;
let received = 0;
before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const settings = (over: Partial<AlertSettings> = {}): AlertSettings => ({
  webhook: url, scope: 'ALL', value: null, intervalS: 3600, drop: 0.05, attempts: 1, backoffMs: 10, secret: null, ...over,
});
const count = async (m: Metrics, outcome: string) => (await m.alerts.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

describe('coverage-drop alerts (scheduler)', () => {
  it('a check that fails after reading keeps the previous baseline: the regression is alerted by the next one', async () => {
    const m = new Metrics(false);
    const before = snap([edge('a', true), edge('b', true)]);
    const afterUpgrade = snap([edge('a', false), edge('b', true)]);
    const alerts = new CoverageAlerts(standIn([before, afterUpgrade, afterUpgrade], 1), settings(), m, createLogger('error'));
    assert.equal(await alerts.check(), null, 'baseline');
    assert.equal(await alerts.check(), null, 'failed while explaining');
    const alert = await alerts.check();
    assert.equal(alert?.regressionCount, 1);
    assert.equal(alert?.regressions[0]?.jobId, 'a');
    await alerts.stop();
  });

  it('a snapshot missing an edge for one read (read while a projection committed) is read again: no baseline without it, no alert of it as appeared', async () => {
    const m = new Metrics(false);
    const whole = snap([edge('a', true), edge('b', true)]);
    const torn = snap([edge('b', true)]);
    const upgraded = snap([edge('a', false), edge('b', true)]);
    const alerts = new CoverageAlerts(standIn([whole, torn, whole, whole, upgraded]), settings(), m, createLogger('error'));
    assert.equal(await alerts.check(), null, 'baseline');
    assert.equal(await alerts.check(), null, 'the torn read, read again twice: whole both times, quiet');
    assert.equal((await m.alertChecks.get()).values.find((v) => v.labels.outcome === 'quiet')?.value, 1);
    const alert = await alerts.check();
    assert.equal(alert?.regressionCount, 1, 'compared with the whole snapshot: a regression, not an edge that appeared');
    assert.equal(alert?.regressions[0]?.jobId, 'a');
    await alerts.stop();
  });

  it('a scope that changes at every read is unsettled after MAX_READS: the baseline stays for the next check', async () => {
    const m = new Metrics(false);
    const snaps = [snap([edge('a', true)]), snap([edge('a', true), edge('b', true)]), snap([edge('a', true), edge('c', true)]), snap([edge('a', true), edge('d', true)]), snap([edge('a', false)])];
    const alerts = new CoverageAlerts(standIn(snaps), settings(), m, createLogger('error'));
    assert.equal(await alerts.check(), null, 'baseline');
    assert.equal(await alerts.check(), null, 'three reads, no two alike');
    assert.equal((await m.alertChecks.get()).values.find((v) => v.labels.outcome === 'unsettled')?.value, 1);
    const alert = await alerts.check();
    assert.equal(alert?.regressionCount, 1, 'compared with the first baseline');
    await alerts.stop();
  });

  it('with a truncated snapshot, regressions still count but share drops are not compared', async () => {
    const m = new Metrics(false);
    const alerts = new CoverageAlerts(standIn([snap([edge('a', true), edge('b', true)], true), snap([edge('a', false), edge('b', true)], true)]), settings(), m, createLogger('error'));
    await alerts.check();
    const alert = await alerts.check();
    assert.equal(alert?.regressionCount, 1);
    assert.deepEqual(alert?.drops, []);
    assert.equal(alert?.truncated, true);
    assert.match(alert!.summary, /partial/);
    await alerts.stop();
  });

  it('stop() ends a delivery waiting out a long backoff, and counts the alert as dropped', async () => {
    answer = 503;
    received = 0;
    const m = new Metrics(false);
    const alerts = new CoverageAlerts(standIn([snap([edge('a', true)]), snap([edge('a', false)])]), settings({ attempts: 5, backoffMs: 600_000 }), m, createLogger('error'));
    await alerts.check();
    assert.ok(await alerts.check());
    while (received === 0) await new Promise((r) => setTimeout(r, 20));
    await alerts.stop(); // would wait 10 minutes for the second attempt if the wait were not aborted
    assert.equal(received, 1);
    assert.equal(await count(m, 'dropped'), 1);
    assert.equal(await count(m, 'failed'), 0);
  });

  it('a redirect fails the alert at once, without retrying', async () => {
    answer = 302;
    received = 0;
    const m = new Metrics(false);
    const alerts = new CoverageAlerts(standIn([snap([edge('a', true)]), snap([edge('a', false)])]), settings({ attempts: 5, backoffMs: 10 }), m, createLogger('error'));
    await alerts.check();
    await alerts.check();
    while ((await count(m, 'failed')) === 0) await new Promise((r) => setTimeout(r, 20));
    assert.equal(received, 1);
    await alerts.stop();
  });
});
