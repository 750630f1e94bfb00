import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventText, packEventText } from '../../src/graph/event-text';

describe('event text as Event nodes keep it (src/graph/event-text.ts)', () => {
  it('packs to bytes that read back as the exact text, unicode and white space included', () => {
    const texts = ['{}', '{ "a" : "€ 𝄞 ü\\n\\u0000" }\n', JSON.stringify({ fields: Array.from({ length: 300 }, (_, i) => ({ name: `c${i}`, type: 'string' })) }), ''];
    for (const text of texts) {
      const packed = packEventText(text);
      assert.ok(packed instanceof Int8Array, 'an Int8Array: the driver sends it as PackStream bytes');
      assert.equal(eventText(packed), text);
      assert.equal(eventText(new Uint8Array(packed.buffer, packed.byteOffset, packed.length)), text, 'as a Uint8Array too');
    }
    const wide = texts[2]!;
    assert.ok(packEventText(wide).length * 5 < Buffer.byteLength(wide), 'a repetitive event compresses');
  });

  it('reads a string (a store written before packing) as it is, and anything else as null', () => {
    assert.equal(eventText('{"eventType":"START"}'), '{"eventType":"START"}');
    for (const v of [null, undefined, 42, [1, 2], { raw: 'x' }]) assert.equal(eventText(v), null);
    assert.equal(eventText(new Int8Array([1, 2, 3, 4, 5])), null, 'bytes that do not inflate: null, not a throw');
  });
});
