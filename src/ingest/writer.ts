/**
 * The projection writer: in one process, one projection transaction at a time, in the order they
 * asked (FIFO), whoever asks (the spool's projector, the Kafka worker, re-projection).
 *
 * Why one: a projection transaction MERGEs shared nodes (datasets, jobs, fields) and recomputes
 * figures derived from the graph (coverage of output edges, current IO, job versions); two at once
 * in one process would contend for the same locks (deadlocks, retried, wasted work) for no gain on
 * the machine's cores that the other work (acknowledging, validating, planning the next batch)
 * does not already use. Callers do their CPU work (validation, planning) before asking, so it
 * overlaps the transaction in flight.
 */
export class ProjectionWriter {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private done = 0;

  /** Runs `work` once every transaction asked for before it has finished (succeeded or failed). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.waiting++;
    const start = () => {
      this.waiting--;
      return work().finally(() => this.done++);
    };
    const run = this.tail.then(start, start);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Transactions finished (committed or not) since the process started; it moves before their
   * callers go on. Answers derived from the graph and kept in memory are current for this process's
   * writes while it has not moved (src/marquez/namespace-list.ts).
   */
  get finished(): number {
    return this.done;
  }

  /** Transactions waiting for their turn (not counting the one in flight). */
  get queued(): number {
    return this.waiting;
  }
}
