import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOLT_WRITE_BYTES, enlargeBoltWrites } from '../../src/graph/bolt-writes';

/** The driver's Chunker, replaced by src/graph/bolt-writes.ts, fills 64 KB chunks: a driver upgrade that changes its internals fails here. */
describe('bolt write size', () => {
  it('a 10 KB message reaches the socket in one write, framed as one Bolt chunk', () => {
    assert.equal(enlargeBoltWrites(), true, 'the driver internals are the expected shape');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Chunker } = require('neo4j-driver-bolt-connection/lib/channel') as { Chunker: new (ch: unknown) => any };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { alloc } = require('neo4j-driver-bolt-connection/lib/channel') as { alloc: (n: number) => any };
    const writes: Buffer[] = [];
    const chunker = new Chunker({ write: (b: { _buffer: Buffer }) => writes.push(Buffer.from(b._buffer)) });
    const payload = alloc(10_000);
    for (let i = 0; i < 10_000; i++) payload.writeUInt8(i % 251);
    payload.reset();
    chunker.writeBytes(payload);
    chunker.messageBoundary();
    chunker.flush();
    assert.equal(writes.length, 1, `one socket write (${writes.map((w) => w.length).join(', ')})`);
    assert.equal(writes[0]!.readUInt16BE(0), 10_000, 'one chunk holding the whole message');
    assert.equal(writes[0]!.length, 2 + 10_000 + 2, 'chunk header, message, end marker');
    assert.ok(BOLT_WRITE_BYTES <= 65_535, 'Bolt chunk sizes are 16-bit');
  });
});
