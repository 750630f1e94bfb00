import type { Logger } from '../log';

/**
 * Whether Neo4j answers at all, known without asking it per request: a probe (a trivial query with
 * its own short timeout) runs every `intervalMs`. After `failuresToDown` probes in a row fail or
 * time out, the database counts as unresponsive: `responsive()` turns false (requests fail at once
 * with UNAVAILABLE, /readyz answers 503 from this state), `onDown` runs once (the executor gives up
 * the calls in flight), and `onHung` is told how long it has been unresponsive after every further
 * failed probe (the embedded supervisor kills a JVM that stays frozen). The first probe that
 * answers makes it responsive again. A frozen database (SIGSTOP, a full GC, a hung disk) and a dead
 * one look the same from here: neither answers.
 */
export interface LivenessOptions {
  intervalMs: number;
  /** A probe slower than this counts as failed. */
  timeoutMs: number;
  failuresToDown: number;
}

export const DEFAULT_LIVENESS: LivenessOptions = { intervalMs: 1_000, timeoutMs: 2_000, failuresToDown: 2 };

export interface LivenessHooks {
  onDown?: () => void;
  onHung?: (unresponsiveMs: number) => void;
}

export class Liveness {
  private failures = 0;
  private unresponsiveSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private probing: Promise<void> | null = null;

  constructor(
    /** Resolves when the database answered; rejects (or outlives timeoutMs) when it did not. */
    private readonly probe: (timeoutMs: number) => Promise<void>,
    private readonly log: Logger,
    private readonly hooks: LivenessHooks = {},
    private readonly options: LivenessOptions = DEFAULT_LIVENESS,
  ) {}

  /** False while the last `failuresToDown` probes failed. */
  responsive(): boolean {
    return this.unresponsiveSince === null;
  }

  /** Milliseconds the database has not answered (0 while responsive). */
  unresponsiveForMs(): number {
    return this.unresponsiveSince === null ? 0 : Date.now() - this.unresponsiveSince;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.probing;
  }

  /** One probe now (tests, and the schedule). */
  async check(): Promise<boolean> {
    const ok = await withTimeout(this.probe(this.options.timeoutMs), this.options.timeoutMs).then(
      () => true,
      () => false,
    );
    if (ok) {
      if (this.unresponsiveSince !== null) this.log.info('Neo4j answers again', { unresponsiveMs: Date.now() - this.unresponsiveSince });
      this.failures = 0;
      this.unresponsiveSince = null;
      return true;
    }
    this.failures++;
    if (this.failures >= this.options.failuresToDown) {
      if (this.unresponsiveSince === null) {
        // It has not answered since the first failed probe of this run.
        this.unresponsiveSince = Date.now() - (this.failures - 1) * this.options.intervalMs - this.options.timeoutMs;
        this.log.warn('Neo4j does not answer; requests fail at once with UNAVAILABLE until it does', { probes: this.failures });
        this.hooks.onDown?.();
      }
      this.hooks.onHung?.(this.unresponsiveForMs());
    }
    return false;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.probing = this.check().then(() => this.schedule());
    }, this.options.intervalMs);
    this.timer.unref();
  }
}

/** `work`, or a rejection once `ms` have passed without it settling. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
