import { Readable } from 'node:stream';

/**
 * The JSON document `{"<key>":[...items]}` as a byte stream. Each item is serialized when the reader
 * asks for more (backpressure), in batches of about `batchChars`: an answer of tens of megabytes is
 * never one string, and an item's objects can be collected as soon as it is written (a 20,000-node
 * Marquez lineage answer is 36 MB). `items` is consumed once. An exception while producing an item
 * ends the stream with that error: the client sees a cut response, never a document that parses.
 */
export function jsonArrayStream(key: string, items: Iterable<unknown>, batchChars = 256 * 1024): Readable {
  function* chunks(): Generator<string> {
    let out = `{${JSON.stringify(key)}:[`;
    let first = true;
    for (const item of items) {
      out += first ? JSON.stringify(item) : `,${JSON.stringify(item)}`;
      first = false;
      if (out.length >= batchChars) {
        yield out;
        out = '';
      }
    }
    yield `${out}]}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}
