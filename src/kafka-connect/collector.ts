import type { IngestItem, IngestOutcome } from '../ingest/ingestor';
import type { Logger } from '../log';
import { configHashOf, connectorEvent, endEvent, parseListing, runIdOf, runState, type ConnectorSnapshot } from './events';
import type { MappingContext } from './mapping';

/**
 * The Kafka Connect collector: every `intervalMs`, for each Connect cluster, one
 * `GET /connectors?expand=info&expand=status`, turned into OpenLineage events (events.ts) that go
 * through the normal ingestion path. Only what changed is sent: a connector's event when its run,
 * state, tasks or lineage differ from what was last sent; the end of a run when its connector is
 * gone or runs another configuration. What was last sent starts from the graph (`restore`: each
 * connector job's latest run), so a restarted collector ends the runs of connectors deleted while
 * it was away and continues each run chain (events.ts runIdOf) instead of starting a new one.
 *
 * Contract: a cluster that is down, slow (`timeoutMs`), answers an error, garbage or more than
 * `maxBodyBytes` costs that cluster's round only: logged, counted, retried next round, and what
 * was last sent stands (an unreachable cluster ends no run). Nothing here throws into its caller.
 */

export interface ConnectCluster {
  /** Names the jobs: kafka-connect://<name>/<connector>. */
  name: string;
  /** REST base URL, e.g. http://connect-1:8083. */
  url: string;
  /** The Kafka namespace of the cluster's topics: kafka://<the workers' bootstrap servers>. */
  kafkaNamespace: string;
  /** Basic-auth credentials, "user:password". */
  basicAuth?: string;
}

export interface CollectorOptions {
  clusters: ConnectCluster[];
  intervalMs: number;
  timeoutMs: number;
  maxBodyBytes: number;
  ingest(items: IngestItem[]): Promise<IngestOutcome[]>;
  /** Topic names Tributary knows under a Kafka namespace (for `topics.regex`). */
  knownTopics(kafkaNamespace: string): Promise<string[]>;
  /** The latest run of each connector job of a cluster that is not retired, as stored (none: start empty). */
  restore?(cluster: string): Promise<Map<string, LastRun>>;
  log?: Logger;
  /** Called once per cluster round with its outcome (for /metrics). */
  onRound?(cluster: string, outcome: RoundOutcome): void;
}

export type RoundOutcome =
  | { ok: true; connectors: number; sent: number; skipped: number; unknown: number }
  | { ok: false; reason: 'UNREACHABLE' | 'TIMEOUT' | 'HTTP_ERROR' | 'TOO_LARGE' | 'GARBAGE' | 'INGEST_FAILED'; message: string };

/** A connector's latest run as the graph has it. */
export interface LastRun {
  runId: string;
  /** Its configHash (kafkaConnect run facet); null when unknown. */
  configHash: string | null;
  /** The run has ended (COMPLETE, FAIL, ABORT). */
  ended: boolean;
}

interface Sent extends LastRun {
  /** The last event sent for it, without its time; null when restored (the next round resends). */
  fingerprint: string | null;
}

export class KafkaConnectCollector {
  private readonly sent = new Map<string, Map<string, Sent>>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly opts: CollectorOptions) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.roundAll().finally(() => {
        this.running = null;
        if (!this.stopped) this.timer = setTimeout(tick, this.opts.intervalMs);
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One round over every cluster, concurrently (a slow cluster delays no other). */
  async roundAll(now: () => Date = () => new Date()): Promise<Map<string, RoundOutcome>> {
    const out = new Map<string, RoundOutcome>();
    await Promise.all(
      this.opts.clusters.map(async (c) => {
        const outcome = await this.round(c, now()).catch((err: Error): RoundOutcome => ({ ok: false, reason: 'INGEST_FAILED', message: err.message }));
        out.set(c.name, outcome);
        this.opts.onRound?.(c.name, outcome);
        if (!outcome.ok) this.opts.log?.warn('Kafka Connect round failed', { cluster: c.name, url: c.url, reason: outcome.reason, message: outcome.message });
      }),
    );
    return out;
  }

  private async round(c: ConnectCluster, at: Date): Promise<RoundOutcome> {
    const fetched = await this.fetchListing(c);
    if (!fetched.ok) return fetched;
    const { connectors, skipped } = parseListing(fetched.body);
    if (connectors.length === 0 && skipped.length === 1 && skipped[0]!.name === '(answer)') return { ok: false, reason: 'GARBAGE', message: skipped[0]!.reason };
    const knownTopics = connectors.some((s) => s.config['topics.regex'] !== undefined) ? await this.opts.knownTopics(c.kafkaNamespace) : [];
    const last = this.sent.get(c.name) ?? (await this.restored(c.name));
    const next = new Map<string, Sent>();
    const events: Record<string, unknown>[] = [];
    let unknown = 0;
    for (const s of connectors) {
      const step = nextStep(c.name, s, last.get(s.name), { kafkaNamespace: c.kafkaNamespace, knownTopics }, at);
      if (step.unknown) unknown++;
      events.push(...step.events);
      if (step.sent) next.set(s.name, step.sent);
    }
    const present = new Set(connectors.map((s) => s.name));
    for (const [name, before] of last) if (!present.has(name)) events.push(endEvent(c.name, name, before.runId, 'DELETED', at, before.ended));
    if (events.length) {
      const outcomes = await this.opts.ingest(events.map((value) => ({ raw: JSON.stringify(value), value })));
      const failed = outcomes.find((o) => !o.ok);
      // Nothing is remembered as sent unless it was stored: the next round sends it again.
      if (failed && !failed.ok) return { ok: false, reason: 'INGEST_FAILED', message: failed.error.message };
    }
    this.sent.set(c.name, next);
    return { ok: true, connectors: connectors.length, sent: events.length, skipped: skipped.length, unknown };
  }

  /** What the graph says was last sent for a cluster; empty when it cannot say (the round then resends all). */
  private async restored(cluster: string): Promise<Map<string, Sent>> {
    if (!this.opts.restore) return new Map();
    const runs = await this.opts.restore(cluster);
    return new Map([...runs].map(([name, r]) => [name, { ...r, fingerprint: null }]));
  }

  private async fetchListing(c: ConnectCluster): Promise<{ ok: true; body: unknown } | Extract<RoundOutcome, { ok: false }>> {
    const url = `${c.url.replace(/\/+$/, '')}/connectors?expand=info&expand=status`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (c.basicAuth) headers.authorization = `Basic ${Buffer.from(c.basicAuth).toString('base64')}`;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      return { ok: false, reason: timeout ? 'TIMEOUT' : 'UNREACHABLE', message: timeout ? `no answer within ${this.opts.timeoutMs} ms` : String((err as Error).cause ?? (err as Error).message) };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, reason: 'HTTP_ERROR', message: `GET ${url} answered ${res.status}` };
    }
    const text = await readCapped(res, this.opts.maxBodyBytes, this.opts.timeoutMs).catch((err: Error) => err);
    if (text instanceof Error) return { ok: false, reason: text.name === 'TooLarge' ? 'TOO_LARGE' : 'TIMEOUT', message: text.message };
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, reason: 'GARBAGE', message: `GET ${url} answered no JSON (${text.slice(0, 80).replace(/\s+/g, ' ')}…)` };
    }
  }
}

/**
 * What one connector's snapshot sends, given its last run: nothing when nothing changed; its run's
 * event; or the end of the last run (a new configuration) and the first event of the next. A
 * failed run is ended (FAIL) and a recovery starts the next run; a connector Tributary leaves to
 * its own OpenLineage integration (SELF_REPORTED) sends nothing and is not remembered.
 */
function nextStep(cluster: string, s: ConnectorSnapshot, before: Sent | undefined, ctx: MappingContext, at: Date): { events: Record<string, unknown>[]; sent: Sent | null; unknown: boolean } {
  const configHash = configHashOf(s.config);
  const failed = runState(s).state === 'FAILED';
  const sameRun = before !== undefined && before.configHash === configHash && (!before.ended || failed);
  const runId = sameRun ? before.runId : runIdOf(cluster, s, before?.runId ?? null);
  const e = connectorEvent(cluster, s, ctx, at, runId);
  if (e.lineage.status === 'SELF_REPORTED') {
    // Its own integration reports it from now on: a run this collector had open is complete.
    const events = before && !before.ended ? [endEvent(cluster, s.name, before.runId, 'RECONFIGURED', at)] : [];
    return { events, sent: null, unknown: false };
  }
  const unknown = e.lineage.status === 'UNKNOWN';
  const fingerprint = fingerprintOf(e.event);
  const sent: Sent = { runId, configHash, ended: failed, fingerprint };
  // A run that ended stays ended: a failed run that fails again sends nothing new.
  if (sameRun && (before.fingerprint === fingerprint || (before.ended && failed && before.fingerprint === null))) return { events: [], sent, unknown };
  // The run it replaces ends a millisecond before the new one starts: at one time, which run is the
  // job's latest would fall to the run ids (latest-run-of-jobs.cypher).
  const events = before && !sameRun && !before.ended ? [endEvent(cluster, s.name, before.runId, 'RECONFIGURED', new Date(at.getTime() - 1))] : [];
  events.push(e.event);
  return { events, sent, unknown };
}

/** What a round compares: the event without its time. */
function fingerprintOf(event: Record<string, unknown>): string {
  const { eventTime: _t, ...rest } = event;
  return JSON.stringify(rest);
}

/** The body as text, refusing more than `max` bytes (the rest is not read) or a body slower than `timeoutMs`. */
async function readCapped(res: Response, max: number, timeoutMs: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`the answer took longer than ${timeoutMs} ms`), { name: 'Timeout' })), Math.max(0, left));
    });
    const { done, value } = await Promise.race([reader.read(), timeout])
      .catch(async (err: Error) => {
        await reader.cancel().catch(() => undefined);
        throw err;
      })
      .finally(() => clearTimeout(timer));
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw Object.assign(new Error(`the answer is larger than ${max} bytes`), { name: 'TooLarge' });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
