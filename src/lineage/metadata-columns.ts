/**
 * Metadata columns of table formats: values the format computes per row (the data file a row lives
 * in, its position, its partition spec, change-feed columns), not data anyone wrote. Spark exposes
 * them to queries that name them and to its own row-level plans (Iceberg UPDATE, DELETE and MERGE in
 * copy-on-write read `_file` and `_pos`), and openlineage-spark reports what the plan reads: the
 * seed stack's capture (openlineage-spark 1.53.0, Iceberg 1.10.0) lists `_spec_id`, `_partition`,
 * `_file`, `_pos`, `_deleted`, `_row_id` and `_last_updated_sequence_number` in the input schema of
 * a query selecting `_file`, and `_file` among the dataset-wide dependencies of an UPDATE.
 *
 * Contract: a field is a metadata column when its dataset's storage facet names a format here
 * (`storageLayer`, case-insensitive) and the field's name is one of that format's. Decided when
 * read (the storage facet may arrive after the field), so the graph keeps every field as reported;
 * field-level walks (trace, column lineage, blast radius, paths) leave them out unless asked.
 */
export const METADATA_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  // org.apache.iceberg.MetadataColumns (1.10): row metadata and the changelog columns.
  iceberg: ['_file', '_pos', '_deleted', '_spec_id', '_partition', '_row_id', '_last_updated_sequence_number', '_change_type', '_change_ordinal', '_commit_snapshot_id'],
  // Delta 3.3: Spark's file metadata struct (row tracking lives in it), the change data feed
  // columns and Delta's internal row index of deletion vectors.
  delta: ['_metadata', '_change_type', '_commit_version', '_commit_timestamp', '__delta_internal_row_index', '__delta_internal_is_row_deleted'],
};

export function isMetadataColumn(storageLayer: string | null | undefined, fieldName: string): boolean {
  const layer = storageLayer?.toLowerCase() ?? '';
  // Own keys only: a producer's storageLayer may be "constructor" or "__proto__".
  return Object.hasOwn(METADATA_COLUMNS, layer) && METADATA_COLUMNS[layer]!.includes(fieldName);
}

/** The step queries' `$metadata` parameter: the columns to leave out ({} when they are asked for). */
export const metadataParam = (include: boolean): Readonly<Record<string, readonly string[]>> => (include ? {} : METADATA_COLUMNS);
