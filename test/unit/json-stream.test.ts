import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { jsonArrayStream } from '../../src/http/json-stream';

async function text(stream: NodeJS.ReadableStream): Promise<{ body: string; chunks: number }> {
  let body = '';
  let chunks = 0;
  for await (const chunk of stream) {
    body += chunk.toString();
    chunks++;
  }
  return { body, chunks };
}

describe('jsonArrayStream (streamed Marquez lineage answers)', () => {
  it('writes {"key":[...]} that parses to the items, for none, one and many', async () => {
    assert.deepEqual(JSON.parse((await text(jsonArrayStream('graph', []))).body), { graph: [] });
    assert.deepEqual(JSON.parse((await text(jsonArrayStream('graph', [{ id: 'a' }]))).body), { graph: [{ id: 'a' }] });
    const items = Array.from({ length: 1_000 }, (_, i) => ({ id: `dataset:ns:t${i}`, name: 'ünïcode \u2028 "quoted"', n: i, none: null }));
    const { body, chunks } = await text(jsonArrayStream('graph', items, 4_096));
    assert.deepEqual(JSON.parse(body), { graph: items });
    assert.ok(chunks > 10, `a large answer goes out in batches (got ${chunks})`);
  });

  it('builds items only as the reader asks, and stops building when the reader goes away', async () => {
    let built = 0;
    let closed = false;
    function* endless() {
      try {
        for (;;) {
          built++;
          yield { id: built, pad: 'x'.repeat(100) };
        }
      } finally {
        closed = true;
      }
    }
    const stream = jsonArrayStream('graph', endless(), 1_000);
    const first = stream.read() ?? (await once(stream, 'readable'), stream.read());
    assert.ok(first, 'a first batch is readable');
    stream.destroy();
    await once(stream, 'close');
    assert.ok(closed, 'the producer is closed when the stream is destroyed');
    assert.ok(built < 10_000, `only what was read (and buffered) was built: ${built}`);
  });

  it('ends with an error, never a document that parses, when building an item fails', async () => {
    function* failing() {
      yield { id: 1 };
      throw new Error('row went missing');
    }
    await assert.rejects(text(jsonArrayStream('graph', failing(), 1)), /row went missing/);
  });
});
