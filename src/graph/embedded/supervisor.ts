import type { EmbeddedNeo4jSettings } from '../../config';
import type { Logger } from '../../log';
import { freePort, startEmbeddedNeo4j, type EmbeddedNeo4j } from './neo4j';

/**
 * Supervision of the embedded Neo4j by the process that started it. When the JVM dies (killed,
 * crashed, out of memory), the death is logged with its exit code or signal, and Neo4j is started
 * again on the same port and store (Neo4j recovers its store from the transaction log) after a
 * backoff of 1, 2, 4, ... seconds (at most 30); after `maxRestarts` failed attempts in a row the
 * supervisor gives up, logs it as an error, and `recoverable()` turns false (`/healthz` answers 503:
 * the process needs a restart from outside). While Neo4j is down, `available()` is false, so requests
 * fail at once (UNAVAILABLE, HTTP 503 with Retry-After) instead of waiting on connection attempts;
 * the driver reconnects by itself once Neo4j answers again. A JVM that is alive but does not answer
 * (frozen: SIGSTOP, a stuck disk, an endless GC) is told by the liveness probe (`hung`); once it has
 * not answered for `hangKillMs` it is killed (SIGKILL) and so restarted like one that died.
 */
export type SupervisorState = 'starting' | 'up' | 'down' | 'failed' | 'stopped';

export class Neo4jSupervisor {
  private current: EmbeddedNeo4j | null = null;
  private state: SupervisorState = 'starting';
  private restarts = 0;
  /** When the current JVM came up. */
  private upSince = 0;
  private readonly restartedListeners: (() => void)[] = [];
  private stopping = false;
  /** Deaths and recoveries so far, with the time to recover (for logs, metrics and tests). */
  readonly history: { diedAt: number; code: number | null; signal: string | null; recoveredAfterMs: number | null }[] = [];

  constructor(
    private readonly settings: EmbeddedNeo4jSettings,
    private readonly log: Logger,
    private readonly options: { maxRestarts: number; maxBackoffMs?: number; hangKillMs?: number } = { maxRestarts: 5 },
  ) {}

  /** Calls `listener` each time a restarted Neo4j is up. */
  onRestarted(listener: () => void): void {
    this.restartedListeners.push(listener);
  }

  /** The liveness probe's word that Neo4j has not answered for `unresponsiveMs`: past hangKillMs, the JVM is killed (and restarted). */
  hung(unresponsiveMs: number): void {
    const limit = this.options.hangKillMs ?? 0;
    // A JVM restarted meanwhile gets the whole grace of its own.
    if (limit <= 0 || unresponsiveMs < limit || this.state !== 'up' || !this.current?.pid || Date.now() - this.upSince < limit) return;
    this.log.error('embedded Neo4j has not answered; killing it to restart it', { unresponsiveMs, pid: this.current.pid });
    try {
      process.kill(this.current.pid, 'SIGKILL');
    } catch (err) {
      this.log.warn('could not kill the unresponsive Neo4j', { error: err });
    }
  }

  /** Starts Neo4j (the port fixed from here on, so the driver's URI stays valid); resolves with its Bolt URI. */
  async start(): Promise<string> {
    const port = this.settings.port === 0 ? await freePort() : this.settings.port;
    const neo4j = await startEmbeddedNeo4j({ ...this.settings, port }, this.log);
    this.watch(neo4j);
    return neo4j.uri;
  }

  available(): boolean {
    return this.state === 'up';
  }

  recoverable(): boolean {
    return this.state !== 'failed';
  }

  get status(): SupervisorState {
    return this.state;
  }

  /** The running JVM's pid (null while down). */
  get pid(): number | null {
    return this.state === 'up' ? (this.current?.pid ?? null) : null;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.state = 'stopped';
    await this.current?.stop();
  }

  private watch(neo4j: EmbeddedNeo4j): void {
    this.current = neo4j;
    this.state = 'up';
    this.upSince = Date.now();
    void neo4j.exited.then(({ code, signal }) => {
      if (this.stopping || this.current !== neo4j) return;
      this.state = 'down';
      const death = { diedAt: Date.now(), code, signal, recoveredAfterMs: null as number | null };
      this.history.push(death);
      this.log.error('embedded Neo4j died; restarting it', { code, signal, pid: neo4j.pid, deaths: this.history.length });
      void this.restart(neo4j.port, death);
    });
  }

  private async restart(port: number, death: { diedAt: number; recoveredAfterMs: number | null }): Promise<void> {
    for (let attempt = 1; attempt <= this.options.maxRestarts; attempt++) {
      const wait = Math.min(this.options.maxBackoffMs ?? 30_000, 1000 * 2 ** (attempt - 1));
      await new Promise((r) => setTimeout(r, wait));
      if (this.stopping) return;
      try {
        const neo4j = await startEmbeddedNeo4j({ ...this.settings, port }, this.log);
        if (this.stopping) {
          await neo4j.stop();
          return;
        }
        death.recoveredAfterMs = Date.now() - death.diedAt;
        this.restarts++;
        this.log.info('embedded Neo4j restarted', { attempt, recoveredAfterMs: death.recoveredAfterMs, pid: neo4j.pid });
        this.watch(neo4j);
        for (const listener of this.restartedListeners) listener();
        return;
      } catch (err) {
        this.log.warn('embedded Neo4j restart failed', { attempt, of: this.options.maxRestarts, error: err });
      }
    }
    this.state = 'failed';
    this.log.error(`embedded Neo4j could not be restarted after ${this.options.maxRestarts} attempts; giving up (restart Tributary)`, {
      home: this.settings.home,
    });
  }
}
