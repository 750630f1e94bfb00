import { normalizeIP } from '@fastify/rate-limit';

/**
 * The failed-authentication budget (TRIBUTARY_AUTH_FAILURES_PER_MINUTE): how many requests with
 * missing or wrong credentials (401) one client address may make per minute. Once an address has
 * spent it, every request of it that would have its credentials checked is refused with 429 before
 * they are, the right credentials too, until the minute is over: a guesser learns nothing more.
 *
 * Fixed one-minute windows shared by all addresses (every count starts again at 0 when the window
 * ends), so the memory is the addresses that failed in the current minute. IPv6 addresses count by
 * their /64 (as @fastify/rate-limit does), so a client cannot spend one budget per address of its
 * network. At most `maxAddresses` are counted one by one; beyond, the others share one budget, so
 * that a guesser with very many addresses is still limited (legitimate clients among them may then
 * be refused for the rest of the minute).
 *
 * Behind a reverse proxy every client has the proxy's address: they share one budget.
 *
 * `exhausted` and `failed` are synchronous: a caller that checks, verifies and counts without
 * awaiting in between cannot be overtaken by requests that arrived together with it.
 */
export class AuthFailures {
  private counts = new Map<string, number>();
  private windowEnds = 0;

  constructor(
    /** Failures per address per window; 0: no limit. */
    private readonly max: number,
    private readonly windowMs = 60_000,
    private readonly maxAddresses = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The seconds until `address` may try again when it has no failures left; null when it may try now. */
  exhausted(address: string): number | null {
    if (this.max === 0) return null;
    this.roll();
    return (this.counts.get(this.key(address)) ?? 0) >= this.max ? Math.max(1, Math.ceil((this.windowEnds - this.now()) / 1000)) : null;
  }

  /** Counts one failed authentication of `address`. */
  failed(address: string): void {
    if (this.max === 0) return;
    this.roll();
    const key = this.key(address);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private key(address: string): string {
    const normal = normalizeIP(address);
    return this.counts.has(normal) || this.counts.size < this.maxAddresses ? normal : '*';
  }

  private roll(): void {
    const t = this.now();
    if (t < this.windowEnds) return;
    this.counts.clear();
    this.windowEnds = t + this.windowMs;
  }
}
