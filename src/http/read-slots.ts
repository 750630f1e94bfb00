import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, ErrorCode } from '../errors';

/**
 * Admission for GraphQL requests: at most `limit` execute at once, the others wait in arrival
 * order (at most `maxWaiting`; beyond, 503 at once). Reads are the heavy requests (Neo4j and Node
 * CPU); bounding how many run together keeps the event loop and the cores free enough for
 * ingestion, whose acknowledgements stay fast while dashboards and explorers read.
 */
export class ReadSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Resolves with the release function of a slot (idempotent); UNAVAILABLE when too many wait. */
  async acquire(): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
    } else {
      if (this.waiting.length >= this.maxWaiting) {
        throw new AppError(ErrorCode.UNAVAILABLE, `more than ${this.maxWaiting} GraphQL requests are waiting; retry shortly`);
      }
      // The slot is handed over by release(): `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  /** Requests executing and waiting now. */
  get state(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

/**
 * A slot held for one HTTP request until its response closes. False (and the slot given back at
 * once) when the client went away while the request waited: its 'close' has already fired, so a
 * listener added now would never release the slot.
 */
export async function holdSlot(slots: ReadSlots, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const release = await slots.acquire();
  if (res.destroyed || req.socket?.destroyed) {
    release();
    return false;
  }
  res.once('close', release);
  return true;
}
