/**
 * neo4j-driver 6 hands the socket every 1,400 bytes of a request as a separate write (its Chunker's
 * fixed buffer), so a 5 KB event costs four system calls and a 300 KB projection batch over two
 * hundred, each also a wake-up on the server side. Measured here (one client, one event per request):
 * those writes were 2.3 of 9.5 CPU seconds in Node. Bolt allows chunks of up to 65,535 bytes;
 * `enlargeBoltWrites` makes the driver fill chunks of that size before writing, without changing a
 * byte of the protocol (a message is still flushed when it is complete).
 *
 * It replaces the driver's internal Chunker class with a subclass that only passes a larger buffer
 * size, and returns false (changing nothing) when the driver's internals are not the expected
 * shape; test/unit/bolt-writes.test.ts fails on a driver upgrade that breaks it.
 */
export const BOLT_WRITE_BYTES = 65_535;

let applied: boolean | null = null;

export function enlargeBoltWrites(): boolean {
  if (applied !== null) return applied;
  applied = false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const chunking = require('neo4j-driver-bolt-connection/lib/channel/chunking') as { Chunker?: new (channel: unknown, size?: number) => object };
    const Original = chunking.Chunker;
    if (typeof Original !== 'function' || Original.length !== 2) return applied;
    class LargerChunker extends Original {
      constructor(channel: unknown, size?: number) {
        super(channel, size ?? BOLT_WRITE_BYTES);
      }
    }
    chunking.Chunker = LargerChunker;
    applied = true;
  } catch {
    // another driver layout: keep its default
  }
  return applied;
}
