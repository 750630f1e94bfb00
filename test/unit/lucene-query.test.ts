import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors';
import { luceneQuery, rankedQuery } from '../../src/lineage/catalog-service';

describe('luceneQuery (search text → the only thing that reaches Lucene)', () => {
  it('splits like the indexed words of names, each word a required prefix', () => {
    assert.equal(luceneQuery('paid_orders'), '+paid* +orders*');
    assert.equal(luceneQuery('eval_shop.main.paid_orders'), '+eval* +shop* +main* +paid* +orders*');
    assert.equal(luceneQuery('  Orders cust-i '), '+orders* +cust* +i*');
    assert.equal(luceneQuery('a:b (c) *?"'), '+a* +b* +c*');
    assert.equal(luceneQuery('straße.日本_orders'), '+straße* +日* +本* +orders*');
  });

  it('refuses text without a word, more than 20 words, or a word Lucene cannot expand', () => {
    const bad = (t: string, re: RegExp) => assert.throws(() => luceneQuery(t), (e: unknown) => e instanceof AppError && re.test(e.message), t);
    bad('-- ** ::', /letter or digit/);
    bad(Array.from({ length: 21 }, (_, i) => `w${i}`).join(' '), /more than 20 words/);
    bad('x'.repeat(201), /at most 200 characters/);
    assert.equal(luceneQuery('x'.repeat(200)), `+${'x'.repeat(200)}*`);
  });

  it('rankedQuery adds optional, boosted exact and prefix clauses on the whole name, escaped; none for text with spaces or too long', () => {
    assert.equal(rankedQuery('Eval_Shop.main'), '+eval* +shop* +main* name:eval_shop.main^20 name:eval_shop.main*^10');
    assert.equal(rankedQuery('s3://lake/x-y'), '+s3* +lake* +x* +y* name:s3\\:\\/\\/lake\\/x\\-y^20 name:s3\\:\\/\\/lake\\/x\\-y*^10');
    assert.equal(rankedQuery('paid orders'), '+paid* +orders*');
    assert.equal(rankedQuery('x'.repeat(201).replace(/x{101}$/, '.'.repeat(101))), luceneQuery('x'.repeat(100)));
  });
});
