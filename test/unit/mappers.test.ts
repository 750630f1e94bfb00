import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { toPlain } from '../../src/graph/mappers';

describe('toPlain (the one value mapper)', () => {
  it('turns lossless Integers into numbers, and one beyond 2^53 into its exact decimal string', () => {
    assert.deepEqual(toPlain({ n: neo4j.int(42), list: [neo4j.int(-7)], nested: { m: neo4j.int(0) } }), { n: 42, list: [-7], nested: { m: 0 } });
    assert.equal(toPlain(neo4j.int('9007199254740993')), '9007199254740993');
  });

  it('keeps strings, booleans, floats and nulls, and gives temporal values as ISO strings', () => {
    assert.deepEqual(toPlain({ s: 'x', b: true, f: 1.5, z: null, u: undefined }), { s: 'x', b: true, f: 1.5, z: null, u: null });
    const dt = new neo4j.types.DateTime(2024, 5, 1, 12, 0, 0, 0, 0);
    assert.equal(toPlain(dt), '2024-05-01T12:00:00Z');
  });
});
