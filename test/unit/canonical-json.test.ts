import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../src/ingest/stored-event';
import { docsOf, manifest } from '../support/corpus';
import { SIZES, stream } from '../../bench/generator';

/**
 * An event's id hashes its canonical JSON: canonicalJson must keep giving the bytes of this
 * definition (keys by the built-in sort, each value by JSON.stringify) for every input, or events
 * stored before would no longer be recognised as duplicates.
 */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => reference(v) ?? '').join(',')}]`;
  const o = value as Record<string, unknown>;
  const parts = Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${reference(o[k])}`);
  return `{${parts.join(',')}}`;
}

/** A deterministic pseudo-random value: keys in any order and number, index-like, unicode and surrogate keys. */
function randomValue(seed: number, depth = 0): unknown {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s);
  const pool = ['a', 'b', 'B', '_x', '10', '2', '0', 'é', 'ß', '\u{1F600}', '\uFFFF', 'name', 'namespace', 'field', '', 'a b', 'a"b', '\\'];
  const kind = depth > 3 ? next() % 4 : next() % 7;
  switch (kind) {
    case 0:
      return `s${next() % 100}é\n"`;
    case 1:
      return next() / 7;
    case 2:
      return next() % 2 === 0;
    case 3:
      return null;
    case 4:
    case 5: {
      const o: Record<string, unknown> = {};
      const n = next() % 24; // past the insertion sort's 16 keys too
      for (let i = 0; i < n; i++) o[`${pool[next() % pool.length]!}${next() % 3 === 0 ? next() % 30 : ''}`] = randomValue(next(), depth + 1);
      return o;
    }
    default:
      return Array.from({ length: next() % 4 }, () => randomValue(next(), depth + 1));
  }
}

describe('canonical JSON (event ids)', () => {
  it('gives the definition’s bytes for every corpus document', () => {
    let n = 0;
    for (const row of manifest()) {
      for (const d of docsOf(row.file)) {
        if (d.value === undefined) continue;
        assert.equal(canonicalJson(d.value), reference(d.value), `${row.file}#${d.index}`);
        n++;
      }
    }
    assert.ok(n > 800, `corpus documents compared: ${n}`);
  });

  it('gives the definition’s bytes for the bench generator’s events and 5,000 random values', () => {
    let i = 0;
    for (const e of stream({ ...SIZES.S!, seed: 7 })) {
      assert.equal(canonicalJson(e), reference(e));
      if (++i === 300) break;
    }
    for (let seed = 1; seed <= 5000; seed++) {
      const v = randomValue(seed);
      assert.equal(canonicalJson(v), reference(v), `seed ${seed}`);
    }
  });

  it('sorts by UTF-16 code units: index-like keys, case, surrogate pairs against U+FFFF', () => {
    assert.equal(canonicalJson({ '2': 1, '10': 2, b: 3, B: 4 }), '{"10":2,"2":1,"B":4,"b":3}');
    assert.equal(canonicalJson({ '\uFFFF': 1, '\u{1F600}': 2 }), '{"\u{1F600}":2,"\uFFFF":1}');
    assert.equal(canonicalJson({ z: [{ y: 1, x: undefined }], a: null }), '{"a":null,"z":[{"y":1}]}');
  });
});
