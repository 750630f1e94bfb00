/**
 * A task run on a schedule: first after `firstInMs`, then `intervalMs` after each run ends (never
 * two at once; a slow run pushes the next one back). Timers are unref'd: they never keep the
 * process alive. stop() only clears the timer; awaiting a run in flight is the caller's business.
 */
export class Repeat {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(firstInMs: number): void {
    if (this.timer) return;
    const tick = () => {
      void this.task().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, this.intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, firstInMs).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
