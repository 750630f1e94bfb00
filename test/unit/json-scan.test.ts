import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors';
import { JsonScanner } from '../../src/ingest/json-scan';

/** The incremental scan (src/ingest/json-scan.ts), fed in chunks of every size: element ranges, nesting, structure. */
const scan = (text: string, mode: 'single' | 'batch', maxDepth = 64, chunk = 1) => {
  const bytes = Buffer.from(text);
  const s = new JsonScanner(mode, maxDepth);
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  s.end();
  return { s, slices: s.elements.map((e) => bytes.subarray(e.start, e.end).toString().trim()) };
};

describe('JsonScanner', () => {
  it('cuts a batch into its elements, whatever the strings hold and however the bytes arrive', () => {
    const items = [{ a: '[{,"}]' }, { b: 'é\\"\u2028', c: [1, 2, { d: '}' }] }, 3, 'x,y', null, { e: `${'\\a'.repeat(50)}"]` }];
    const text = ` [ ${items.map((i) => JSON.stringify(i)).join(' ,\n')} ] `;
    for (const chunk of [1, 2, 3, 7, 1000]) {
      const { slices, s } = scan(text, 'batch', 64, chunk);
      assert.equal(s.foundBatch, true);
      assert.deepEqual(slices.map((x) => JSON.parse(x)), items, `chunks of ${chunk}`);
    }
  });

  it('finds the array under a top-level "events" key, and nothing in other shapes', () => {
    const { slices, s } = scan('{"other": [9], "events": [{"x": 1}, {"y": [2]}]}', 'batch');
    assert.equal(s.foundBatch, true);
    assert.deepEqual(slices, ['{"x": 1}', '{"y": [2]}']);
    assert.equal(scan('{"events": 3}', 'batch').s.foundBatch, false);
    assert.equal(scan('"just a string"', 'batch').s.foundBatch, false);
    assert.deepEqual(scan('[]', 'batch').slices, []);
  });

  it('marks empty elements (trailing and doubled commas) so that they fail to parse', () => {
    assert.deepEqual(scan('[1,,2,]', 'batch').slices, ['1', '', '2', '']);
  });

  it('refuses nesting past maxDepth: a whole document with its path, a batch element alone', () => {
    const deep = `{"run": {"facets": {"x": {"v": ${'['.repeat(100)}${']'.repeat(100)}}}}}`;
    assert.throws(
      () => scan(deep, 'single', 64, 5),
      (e: unknown) => e instanceof AppError && e.details[0]!.reason === 'NESTING_TOO_DEEP' && e.details[0]!.path.startsWith('run.facets.x.v[0][0]'),
    );
    const { s } = scan(`[{"ok": 1}, ${deep}, {"ok": 2}]`, 'batch', 64, 9);
    assert.deepEqual(
      s.elements.map((e) => e.error?.reason ?? 'ok'),
      ['ok', 'NESTING_TOO_DEEP', 'ok'],
    );
    assert.ok(s.elements[1]!.error!.path.startsWith('run.facets.x.v[0]'), s.elements[1]!.error!.path);
    assert.doesNotThrow(() => scan(`${'['.repeat(64)}${']'.repeat(64)}`, 'single'));
  });

  it('writes the key each depth holds now, never one an earlier object at that depth held', () => {
    // Depth 2 holds "first" then "longer_key_before", then an array (no key) whose element nests too deep.
    const text = `{"a": {"first": 1, "longer_key_before": 2}, "b": [{"c": 3}], "d": {"e": ${'['.repeat(10)}${']'.repeat(10)}}}`;
    for (const chunk of [1, 4, 1000]) {
      assert.throws(
        () => scan(text, 'single', 4, chunk),
        (e: unknown) => e instanceof AppError && e.details[0]!.path === 'd.e[0][0]',
        `chunks of ${chunk}`,
      );
    }
    const { s } = scan(`[{"x": {"yy": 1}}, {"z": ${'['.repeat(10)}${']'.repeat(10)}}]`, 'batch', 3, 2);
    assert.deepEqual(s.elements.map((e) => e.error?.path ?? 'ok'), ['ok', 'z[0][0]']);
  });

  it('names keys in paths as JSON decodes them (escapes, unicode, long keys), however the chunks cut them', () => {
    const long = 'k'.repeat(300);
    const text = `{"ru\\"n": {"f\\u00e9é": {"${long}": [[[[1]]]]}}}`;
    const paths = new Set<string>();
    for (const chunk of [1, 2, 3, 5, 8, 13, 64, 1000]) {
      assert.throws(
        () => scan(text, 'single', 4, chunk),
        (e: unknown) => e instanceof AppError && e.details[0]!.reason === 'NESTING_TOO_DEEP' && paths.add(e.details[0]!.path) !== undefined,
      );
    }
    assert.deepEqual([...paths], [`ru"n.féé.${'k'.repeat(120 - 'ru"n.féé.'.length)}…`]);
    assert.deepEqual(scan('{"\\u0065vents": [{"x": 1}]}', 'batch', 64, 3).slices, ['{"x": 1}']);
  });

  it('gives the same elements and errors for random documents in random chunks as in one', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const str = () => ['"a"', '"\\\\"', '"\\""', '"}]{["', '"é "', `"${'x'.repeat(rnd(200))}"`][rnd(6)]!;
    const value = (d: number): string => {
      const k = rnd(d > 6 ? 2 : 4);
      if (k === 0) return str();
      if (k === 1) return String(rnd(100));
      if (k === 2) return `[${Array.from({ length: rnd(4) }, () => value(d + 1)).join(',')}]`;
      return `{${Array.from({ length: rnd(4) }, () => `${str()}:${value(d + 1)}`).join(',')}}`;
    };
    for (let n = 0; n < 200; n++) {
      const text = `{"events": [${Array.from({ length: 1 + rnd(4) }, () => value(0)).join(',')}]}`;
      const whole = scan(text, 'batch', 5, 1 << 20).s.elements;
      const bytes = Buffer.from(text);
      const s = new JsonScanner('batch', 5);
      for (let i = 0; i < bytes.length; ) {
        const size = 1 + rnd(40);
        s.push(bytes.subarray(i, i + size));
        i += size;
      }
      s.end();
      assert.deepEqual(s.elements, whole, text);
    }
  });

  it('refuses broken structure: text after the document, a stray bracket, a document cut short, nothing', () => {
    for (const text of ['[1] 2', '{"a": 1}}', '[1, 2', '{"a": "b', '   ']) {
      assert.throws(() => scan(text, 'single'), (e: unknown) => e instanceof AppError && e.status === 415, text);
    }
  });
});
