import type { Executor } from '../graph/executor';

/**
 * Tells a database that is down from a transaction it refused: after a failed write, `up()` asks
 * Neo4j a trivial read (cypher/health/ping.cypher). True when it answers within `timeoutMs`; false
 * when the executor knows it is down (the embedded one restarting), the read fails, or it does not
 * answer in time (a frozen server). At most one probe is outstanding: while an earlier one has not
 * settled (a server that accepts connections and answers nothing), the answer is false at once, so
 * repeated probes never pile up connections.
 */
export class DatabaseProbe {
  private pending: Promise<unknown> | null = null;

  constructor(
    private readonly executor: Executor,
    private readonly timeoutMs = 5_000,
  ) {}

  async up(): Promise<boolean> {
    if (!this.executor.up() || this.pending) return false;
    const read = this.executor.ping(this.timeoutMs).finally(() => {
      if (this.pending === read) this.pending = null;
    });
    this.pending = read;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    try {
      return await Promise.race([read.then(() => true, () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
