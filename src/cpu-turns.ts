import { performance } from 'node:perf_hooks';

/**
 * Ingestion's CPU work (parsing a body, validating and hashing each event, planning the next
 * projection batch) run in short turns of the event loop, giving way to reads.
 *
 * Node.js handles socket events (a GraphQL request arriving, Neo4j answering one step of a walk) in
 * the event loop's poll phase. Work given to `run` is done in the check phase (setImmediate)
 * instead, in the order it was given, at most `budgetMs` of it per turn (a task is never cut:
 * tasks are one event's worth, or five events' plans), so I/O is looked at between turns. The
 * projector's tasks (reading back and planning its next batch) go before the others: they make
 * acknowledged events visible, where new bodies only add to the work.
 *
 * Read priority: while `reading()` holds (GraphQL, REST coverage or Marquez API requests
 * executing, src/http/lanes.ts), a turn runs one task and the next turn comes `readPauseMs` later,
 * the loop waiting for sockets meanwhile. On two cores a depth-5 lineage read during sixteen
 * clients' ingestion waited at each of its seven round trips to Neo4j behind ingestion's CPU work
 * (9 ms per query seen by Node.js against 0.7 ms in Neo4j); with the pause, ingestion slows for as
 * long as reads execute (acknowledged and projected, measured in bench/README.md) and never stops:
 * one task per pause at least. `readPauseMs` 0 turns read priority off. What waits is bounded:
 * past TRIBUTARY_INGEST_MAX_WAITING tasks (40,000: 20 batches of 1,000 events, each task holding its
 * body), ingestion refuses new bodies with 503 (src/http/ingest-routes.ts).
 *
 * Contract: every task runs exactly once, on the main thread, in submission order within its
 * queue (`first` ahead of the rest); its value or its throw settles its own promise only. With
 * nothing else to do and no read executing the loop turns at once, so work given to an idle
 * process waits for nothing.
 */
export class CpuTurns {
  /** Tasks of the projection (planning the next batch): served before `queue`, whose work only adds to the projection's. */
  private readonly first: Task[] = [];
  private readonly queue: Task[] = [];
  private scheduled = false;
  private reading: () => boolean = () => false;
  /** Turns taken, tasks run, and turns deferred behind reads since start (metrics, tests). */
  readonly counts = { turns: 0, tasks: 0, yielded: 0 };

  constructor(
    private readonly readPauseMs = READ_PAUSE_MS,
    private readonly budgetMs = BUDGET_MS,
  ) {}

  /** Whether reads execute now; the HTTP server sets it once its read lanes exist. */
  yieldTo(reading: () => boolean): void {
    this.reading = reading;
  }

  /** Tasks waiting (ingestion refuses new bodies past TRIBUTARY_INGEST_MAX_WAITING: src/http/ingest-routes.ts). */
  get backlog(): number {
    return this.first.length + this.queue.length;
  }

  /** Runs `task` in a turn; `first`: ahead of every task not so marked (the projector's, which makes acknowledged events visible). */
  run<T>(task: () => T, first = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (first ? this.first : this.queue).push({ task, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) this.schedule();
    });
  }

  /** `fn` over every item, in order, each call one task; resolves with the results in order. */
  each<I, T>(items: readonly I[], fn: (item: I, index: number) => T): Promise<T[]> {
    return Promise.all(items.map((item, i) => this.run(() => fn(item, i))));
  }

  private yielding(): boolean {
    return this.readPauseMs > 0 && this.reading();
  }

  private schedule(): void {
    this.scheduled = true;
    if (this.yielding()) {
      this.counts.yielded++;
      setTimeout(this.turn, this.readPauseMs);
    } else {
      setImmediate(this.turn);
    }
  }

  private readonly turn = (): void => {
    this.counts.turns++;
    const until = this.yielding() ? 0 : performance.now() + this.budgetMs;
    do {
      const t = this.first.shift() ?? this.queue.shift();
      if (!t) break;
      this.counts.tasks++;
      try {
        t.resolve(t.task());
      } catch (err) {
        t.reject(err);
      }
    } while (performance.now() < until);
    // Cleared only now: a task that gives another task runs it in a later turn, never in a second one scheduled beside this.
    this.scheduled = false;
    if (this.backlog > 0) this.schedule();
  };
}

/** A turn's budget: two milliseconds is a few events' validation, or a few events' plans. */
export const BUDGET_MS = 2;
/** While reads execute, the pause between two tasks (TRIBUTARY_READ_PRIORITY_MS). */
export const READ_PAUSE_MS = 2;

type Task = { task: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void };

/** What the ingestion path needs of CpuTurns. */
export type Turns = Pick<CpuTurns, 'run' | 'each' | 'backlog'>;

/** Runs tasks at once, in order (tests, tools, one-shot commands: no reads to give way to). */
export const IMMEDIATE: Turns = {
  backlog: 0,
  run: <T>(task: () => T): Promise<T> => Promise.resolve().then(task),
  each: <I, T>(items: readonly I[], fn: (item: I, index: number) => T): Promise<T[]> => Promise.resolve().then(() => items.map(fn)),
};
