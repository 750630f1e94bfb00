import { createHash, createHmac } from 'node:crypto';
import type { AlertSettings } from '../config';
import type { CoverageFigures } from '../lineage/coverage-service';
import { compare, coverageBy, snapshotCoverage, type EdgeState, type Snapshot } from '../lineage/diff-compare';
import type { DiffService } from '../lineage/diff-service';
import { CoverageScope, DiffChangeKind, type ChangeCause } from '../lineage/types';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { Repeat } from './repeat';

/**
 * Coverage-drop alerts. Every `intervalS` a check reads the watched scope's current lineage (one
 * snapshot, as the lineage diff reads it) and compares it with the previous check's: an alert is
 * raised when a job → output edge went from column level to dataset level, or when a column-level
 * share (the scope's, an engine's or a namespace's within it) dropped by more than `drop`. The
 * first check after start is the baseline (nothing to compare with). Comparing states, not event
 * times, a regression is reported once, whenever its events arrive.
 *
 * Delivery is separate from checking: alerts wait in a bounded queue and are POSTed one at a time
 * with retries (network errors, timeouts, 429 and 5xx; `attempts` tries, backoff doubling from
 * `backoffMs`, at most 10 minutes); another 4xx or a redirect fails the alert at once. Checks only
 * read, on their own schedule, so neither a slow webhook nor a failing check ever holds up
 * ingestion; stop() aborts a delivery in flight. A check that fails keeps the previous baseline.
 */

export interface AlertPayload {
  type: 'tributary.coverage.drop';
  /** The same for the same findings (receivers may deduplicate on it). */
  id: string;
  checkedAt: string;
  previousCheckAt: string;
  scope: CoverageScope;
  value: string | null;
  summary: string;
  coverage: { before: CoverageFigures; after: CoverageFigures };
  drops: ShareDrop[];
  /** At most 100 (regressionCount says how many in all), by job id then dataset id. */
  regressions: Regression[];
  regressionCount: number;
  /** True when the scope had more edges than TRIBUTARY_MAX_COVERAGE_EDGES: figures and regressions are partial. */
  truncated: boolean;
}

export interface ShareDrop {
  /** The whole watched scope (SCOPE), or one engine or job namespace within it. */
  group: 'SCOPE' | 'ENGINE' | 'NAMESPACE';
  key: string;
  before: number;
  after: number;
  delta: number;
  edgesBefore: number;
  edgesAfter: number;
}

export interface Regression {
  jobId: string;
  datasetId: string;
  fromRunId: string | null;
  toRunId: string | null;
  cause: ChangeCause | null;
  fromProducer: string | null;
  toProducer: string | null;
  /** Explorer path of the job's lineage (relative to the service's address). */
  explorerPath: string;
}

const MAX_QUEUED = 20;
const MAX_REGRESSIONS = 100;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longest wait between two attempts, whatever the backoff doubles to. */
const MAX_WAIT_MS = 600_000;

export class CoverageAlerts {
  private readonly schedule: Repeat;
  private running: Promise<AlertPayload | null> | null = null;
  private previous: { snapshot: Snapshot; at: string } | null = null;
  private readonly queue: AlertPayload[] = [];
  private delivering: Promise<void> | null = null;
  /** Aborted by stop(): ends a delivery attempt or a wait between attempts at once. */
  private halt = new AbortController();

  constructor(
    private readonly diff: DiffService,
    private readonly settings: AlertSettings,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {
    this.schedule = new Repeat(() => this.check(), this.settings.intervalS * 1000);
  }

  /** Checks after `firstInMs` (the baseline; default 5 s, or intervalS if shorter), then every intervalS. */
  start(firstInMs = Math.min(5_000, this.settings.intervalS * 1000)): void {
    if (this.schedule.running) return;
    if (this.halt.signal.aborted) this.halt = new AbortController();
    this.schedule.start(firstInMs);
  }

  /** Stops checking and delivering at once (an attempt in flight is aborted); undelivered alerts are logged and counted as dropped. */
  async stop(): Promise<void> {
    this.schedule.stop();
    await this.running;
    this.halt.abort();
    await this.delivering;
    if (this.queue.length) {
      this.metrics.alerts.inc({ outcome: 'dropped' }, this.queue.length);
      this.log.warn('coverage alerts not delivered at shutdown', { count: this.queue.length, ids: this.queue.map((a) => a.id) });
    }
    this.queue.length = 0;
  }

  /** One check now (or the one in flight): the alert it queued, or null. */
  check(): Promise<AlertPayload | null> {
    this.running ??= this.compute().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async compute(): Promise<AlertPayload | null> {
    const { scope, value } = this.settings;
    try {
      const at = new Date().toISOString();
      const read = () => this.diff.snapshot(scope as CoverageScope, value, null);
      const first = await read();
      const previous = this.previous;
      if (!previous) {
        this.previous = { snapshot: first, at };
        this.metrics.alertChecks.inc({ outcome: 'baseline' });
        return null;
      }
      const snapshot = await settled(previous.snapshot, first, read);
      if (!snapshot) {
        // The next check compares with the same baseline: nothing that changed meanwhile is lost.
        this.metrics.alertChecks.inc({ outcome: 'unsettled' });
        this.log.info('coverage-drop check: the scope kept changing between reads; the next check compares with the last settled one', { reads: MAX_READS });
        return null;
      }
      const alert = await this.findings(previous, { snapshot, at });
      // Only a complete check moves the baseline: after a failure the next one compares with the last good one.
      this.previous = { snapshot, at };
      this.metrics.alertChecks.inc({ outcome: alert ? 'alerted' : 'quiet' });
      if (alert) this.enqueue(alert);
      return alert;
    } catch (err) {
      this.metrics.alertChecks.inc({ outcome: 'failed' });
      this.log.warn('coverage-drop check failed; the next check compares with the last good one', { error: err });
      return null;
    }
  }

  private async findings(before: { snapshot: Snapshot; at: string }, after: { snapshot: Snapshot; at: string }): Promise<AlertPayload | null> {
    const changes = compare(before.snapshot, after.snapshot).changes.filter((c) => c.kind === DiffChangeKind.GRANULARITY_REGRESSED);
    const shown = changes.slice(0, MAX_REGRESSIONS);
    await this.diff.explain(shown);
    // A truncated snapshot holds a different subset of the scope each time: its shares are not comparable.
    const partial = before.snapshot.truncated || after.snapshot.truncated;
    const drops = partial ? [] : this.drops(before.snapshot, after.snapshot);
    if (changes.length === 0 && drops.length === 0) return null;
    const regressions: Regression[] = shown.map((c) => ({
      jobId: c.jobId!,
      datasetId: c.datasetId!,
      fromRunId: c.fromRunId,
      toRunId: c.toRunId,
      cause: c.cause,
      fromProducer: c.fromProducer,
      toProducer: c.toProducer,
      explorerPath: `/lineage?node=${encodeURIComponent(c.jobId!)}&up=1&down=1`,
    }));
    const findings = { drops, regressions, regressionCount: changes.length };
    const id = createHash('sha256').update(JSON.stringify(findings)).digest('hex').slice(0, 32);
    const parts = [
      changes.length ? `column lineage lost on ${changes.length} job → output edge${changes.length === 1 ? '' : 's'}` : null,
      ...drops.map((d) => `${d.group === 'SCOPE' ? 'coverage' : `${d.group.toLowerCase()} ${d.key}`} ${pct(d.before)} → ${pct(d.after)}`),
      partial ? 'partial: the scope has more edges than TRIBUTARY_MAX_COVERAGE_EDGES, share drops not compared' : null,
    ].filter(Boolean);
    return {
      type: 'tributary.coverage.drop',
      id,
      checkedAt: after.at,
      previousCheckAt: before.at,
      scope: this.settings.scope as CoverageScope,
      value: this.settings.value,
      summary: parts.join('; '),
      coverage: { before: snapshotCoverage('before', before.snapshot), after: snapshotCoverage('after', after.snapshot) },
      ...findings,
      truncated: partial,
    };
  }

  /** Groups whose column-level share dropped by more than the threshold (groups with edges before only). */
  private drops(a: Snapshot, b: Snapshot): ShareDrop[] {
    const out: ShareDrop[] = [];
    const check = (group: ShareDrop['group'], x: CoverageFigures, y: CoverageFigures | undefined) => {
      const after = y?.columnLevelShare ?? 0;
      const delta = Math.round((after - x.columnLevelShare) * 10_000) / 10_000;
      if (x.edges > 0 && -delta > this.settings.drop) {
        out.push({ group, key: x.key, before: x.columnLevelShare, after, delta, edgesBefore: x.edges, edgesAfter: y?.edges ?? 0 });
      }
    };
    const scope = this.settings.value ?? 'all';
    check('SCOPE', snapshotCoverage(scope, a), snapshotCoverage(scope, b));
    for (const [group, of] of [['ENGINE', (e: EdgeState) => e.engine], ['NAMESPACE', (e: EdgeState) => e.namespace]] as const) {
      const [x, y] = [coverageBy(a, of), coverageBy(b, of)];
      for (const key of [...x.keys()].sort()) check(group, x.get(key)!, y.get(key));
    }
    return out;
  }


  private enqueue(alert: AlertPayload): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.metrics.alerts.inc({ outcome: 'dropped' });
      this.log.error('coverage alert dropped: the delivery queue is full (is the webhook down?)', { id: alert.id });
      return;
    }
    this.queue.push(alert);
    this.delivering ??= this.drain().finally(() => {
      this.delivering = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.halt.signal.aborted) {
      const alert = this.queue[0]!;
      const outcome = await this.deliver(alert);
      if (outcome === 'stopped') return; // left in the queue: stop() logs and counts it
      this.queue.shift();
      this.metrics.alerts.inc({ outcome });
    }
  }

  /** POSTs one alert, retrying as the class comment says: delivered (2xx), failed, or stopped by stop(). */
  private async deliver(alert: AlertPayload): Promise<'delivered' | 'failed' | 'stopped'> {
    const body = JSON.stringify(alert);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'tributary-alerts', 'x-tributary-alert-id': alert.id };
    if (this.settings.secret) headers['x-tributary-signature'] = `sha256=${createHmac('sha256', this.settings.secret).update(body).digest('hex')}`;
    const halt = this.halt.signal;
    for (let attempt = 1; attempt <= this.settings.attempts; attempt++) {
      let retry: boolean;
      let reason: string;
      try {
        // Redirects are not followed (the body would be re-sent elsewhere): a 3xx fails the alert.
        const res = await fetch(this.settings.webhook, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.any([halt, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]) });
        await res.body?.cancel();
        if (res.ok) return 'delivered';
        retry = res.status === 429 || res.status >= 500;
        reason = `HTTP ${res.status}`;
      } catch (err) {
        if (halt.aborted) return 'stopped';
        retry = true;
        reason = (err as Error).message;
      }
      const last = !retry || attempt === this.settings.attempts;
      this.log.warn(last ? 'coverage alert not delivered' : 'coverage alert delivery failed; retrying', { id: alert.id, attempt, reason });
      if (last) return 'failed';
      const wait = Math.min(this.settings.backoffMs * 2 ** (attempt - 1), MAX_WAIT_MS);
      if (!(await sleep(wait, halt))) return 'stopped';
    }
    return 'failed';
  }
}

/** Waits `ms`; false when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Snapshot reads in one check at most (settled). */
export const MAX_READS = 3;

/**
 * The check's snapshot, once it can be trusted. Neo4j reads at read committed: a snapshot read
 * while a projection of the scope commits can miss a job's edges (the job's `ioRunId` already the
 * new run's, that run's edges not yet seen), and a check that took it as its baseline would later
 * report the edges as appeared, not regressed. So a snapshot that differs from the previous
 * check's is read again, and taken once two reads in a row agree; null when none did in
 * MAX_READS (the scope kept changing: the next check compares with the same baseline).
 */
export async function settled(previous: Snapshot, first: Snapshot, read: () => Promise<Snapshot>): Promise<Snapshot | null> {
  if (compare(previous, first).changes.length === 0) return first;
  let last = first;
  for (let reads = 1; reads < MAX_READS; reads++) {
    const next = await read();
    if (compare(last, next).changes.length === 0) return next;
    last = next;
  }
  return null;
}
