import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMetadataColumn, metadataParam, METADATA_COLUMNS } from '../../src/lineage/metadata-columns';

describe('metadata columns of table formats', () => {
  it('are the format\'s names on a dataset whose storage facet names the format, case-insensitively', () => {
    assert.equal(isMetadataColumn('iceberg', '_file'), true);
    assert.equal(isMetadataColumn('ICEBERG', '_pos'), true);
    assert.equal(isMetadataColumn('delta', '_metadata'), true);
    // Delta has no _pos; a table without a storage facet has no metadata columns; names are exact.
    assert.equal(isMetadataColumn('delta', '_pos'), false);
    assert.equal(isMetadataColumn(null, '_file'), false);
    assert.equal(isMetadataColumn(undefined, '_file'), false);
    assert.equal(isMetadataColumn('iceberg', '_FILE'), false);
    assert.equal(isMetadataColumn('iceberg', 'file'), false);
  });

  it('never take a hostile storageLayer for a format (prototype keys, unicode, huge)', () => {
    for (const layer of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', ' iceberg', 'ıceberg', 'x'.repeat(100_000)]) {
      assert.equal(isMetadataColumn(layer, '_file'), false, layer.slice(0, 20));
      assert.equal(isMetadataColumn(layer, 'includes'), false);
    }
  });

  it('are the step queries\' parameter unless asked for ({} then)', () => {
    assert.deepEqual(metadataParam(true), {});
    assert.equal(metadataParam(false), METADATA_COLUMNS);
    assert.ok(METADATA_COLUMNS.iceberg!.includes('_last_updated_sequence_number'));
  });
});
