import type { IncomingMessage, ServerResponse } from 'node:http';
import { unavailable } from '../errors';

/**
 * One admission lane (src/http/lanes.ts says which requests take which): at most `limit` requests
 * execute at once; the others wait, each client (a token's name or an address) in its own queue,
 * and a freed slot goes to the clients in turn (round robin), each client's requests in arrival
 * order. So a client with fifty requests waiting delays another's one request by at most one turn,
 * not fifty. At most `perClient` requests of one client and `maxWaiting` in all may wait; beyond,
 * UNAVAILABLE at once. Bounding how many run together bounds what reads take of Neo4j and of the
 * event loop. While any execute, ingestion's CPU work gives way to them but never stops (one task
 * per pause, src/cpu-turns.ts).
 */
export class ReadSlots {
  private active = 0;
  private waiting = 0;
  /** Each waiting client's queue; Map order is the turn order (the first is served next, then goes last). */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(
    readonly limit: number,
    private readonly maxWaiting: number,
    private readonly perClient: number = maxWaiting,
    /** The lane's name, for refusals. */
    private readonly lane = 'read',
  ) {}

  /**
   * Resolves with the release function of a slot (idempotent). UNAVAILABLE when the client or the
   * lane has too many waiting; rejects with `signal`'s reason when it aborts while waiting (the
   * request then holds no place and no slot).
   */
  async acquire(client = '', signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
    } else {
      const queue = this.queues.get(client) ?? [];
      if (queue.length >= this.perClient) {
        throw unavailable(`this client already has ${this.perClient} requests waiting for the ${this.lane} slots (TRIBUTARY_GRAPHQL_CLIENT_QUEUE); retry shortly`);
      }
      if (this.waiting >= this.maxWaiting) {
        throw unavailable(`more than ${this.maxWaiting} requests are waiting for the ${this.lane} slots (TRIBUTARY_GRAPHQL_QUEUE); retry shortly`);
      }
      signal?.throwIfAborted();
      // The slot is handed over by release(): `active` stays counted.
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { grant: () => (signal?.removeEventListener('abort', leave), resolve()) };
        const leave = () => {
          this.remove(client, waiter);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', leave, { once: true });
        queue.push(waiter);
        this.queues.set(client, queue);
        this.waiting++;
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.next();
      if (next) next.grant();
      else this.active--;
    };
  }

  /** The first waiter of the client whose turn it is; that client then goes last. */
  private next(): Waiter | undefined {
    const first = this.queues.entries().next();
    if (first.done) return undefined;
    const [client, queue] = first.value;
    const waiter = queue.shift()!;
    this.queues.delete(client);
    if (queue.length > 0) this.queues.set(client, queue);
    this.waiting--;
    return waiter;
  }

  private remove(client: string, waiter: Waiter): void {
    const queue = this.queues.get(client);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(client);
    this.waiting--;
  }

  /** Requests executing and waiting now. */
  get state(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting };
  }

  /** Whether a request holds a slot now (read on every turn of ingestion's work: src/cpu-turns.ts). */
  get busy(): boolean {
    return this.active > 0;
  }
}

interface Waiter {
  grant: () => void;
}

/**
 * A slot held for one HTTP request until its response closes. False when the client went away
 * first: while it waited (its place is given up, no slot taken) or as it was admitted (the slot
 * given back at once: its 'close' has already fired, so a listener added now would never release it).
 */
export async function holdSlot(slots: ReadSlots, req: IncomingMessage, res: ServerResponse, client = ''): Promise<boolean> {
  const gone = new AbortController();
  const leave = () => gone.abort();
  res.once('close', leave);
  let release: () => void;
  try {
    release = await slots.acquire(client, gone.signal);
  } catch (err) {
    if (gone.signal.aborted) return false;
    throw err;
  } finally {
    res.off('close', leave);
  }
  if (res.destroyed || req.socket?.destroyed) {
    release();
    return false;
  }
  res.once('close', release);
  return true;
}
