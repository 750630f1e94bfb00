// Purpose: the column-lineage coverage figures of job → output dataset edges, kept on PRODUCES so
//   that coverage reads one property set per edge instead of walking fields: outputFields (fields
//   of the dataset by name, counting the fields of its SYMLINKed names (up to 2 symlinks away) as
//   one set: a field reported under the path and the catalog name is one field),
//   fieldsWithInputs (of them, those with any column dependency through this job under any of the
//   names: a DERIVES edge of the job into them, or, for every field, an INFLUENCES edge of the job
//   into the dataset or one of its names), cllFirstSeen / cllLastSeen (min / max over those edges;
//   null without column lineage). Fields that are metadata columns of their dataset's table format
//   ($metadata, by its storageLayer: Iceberg's _file, _pos, ...) are not output fields.
//   Recomputed from the graph for every PRODUCES edge into the given datasets, after the batch's
//   fields, outputs and column lineage are written, so the figures depend only on the graph (not
//   on batch order). A batch passes every dataset it wrote an output edge or a field of: a field
//   added to a dataset by another job's event (as a column-lineage input) changes the figures of
//   that dataset's producers too; so does a new symlink, and the producers of every name of a
//   passed dataset are refreshed; so does a storage facet.
//   Column lineage counts as of the job's latest *deciding* run for the edge: the latest run (by
//   ioFrom, then id) of the job writing the dataset that reported column lineage into it or
//   completed (a run still going may send its column lineage with its COMPLETE event). When that
//   run recorded what it reported (OUTPUT_TO.fields not null), fieldsWithInputs is its output
//   fields with inputs (every field with a dataset-level dependency), 0 without column lineage: a
//   producer that stops sending columnLineage makes the edge dataset level. Otherwise (no deciding
//   run, a JobEvent edge, or a run projected before reports were kept) any DERIVES / INFLUENCES of
//   the job into the dataset counts, as before. The deciding run's id is kept as p.decidedRunId ('':
//   none decides), for lineage diffs.
// Parameters: $datasetIds: ids of the datasets with an output edge, a field or a symlink in the batch;
//   $runIds: runs of the batch (their state may have changed: the datasets they wrote are refreshed too);
//   $metadata: metadata columns of table formats, {storageLayer: [names]} (src/lineage/metadata-columns.ts)
// Columns: none
// Warm-up: {"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}], "runIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}], "metadata": [{"iceberg": ["_file"]}]}
UNWIND $datasetIds + COLLECT { UNWIND $runIds AS rid MATCH (:Run {id: rid})-[:OUTPUT_TO]->(w:Dataset) RETURN w.id } AS id
MATCH (:Dataset {id: id})-[:SYMLINK*0..2]-(d:Dataset)<-[p:PRODUCES]-(j:Job)
WITH DISTINCT d, j, p
CALL (d, j) {
  OPTIONAL MATCH (r:Run)-[o:OUTPUT_TO]->(d)
  WHERE (r)-[:RUN_OF]->(j) AND (o.cllWhole OR size(coalesce(o.cllFields, [])) > 0 OR r.state = 'COMPLETE')
  WITH r, o ORDER BY r.ioFrom DESC, r.id DESC LIMIT 1
  RETURN o AS decided, r.id AS decidedRunId
}
CALL (d, j, p, decided) {
  WITH d, j, COLLECT { MATCH (d)-[:SYMLINK*0..2]-(n:Dataset) RETURN DISTINCT n } AS names
  UNWIND names AS n
  OPTIONAL MATCH (n)-[:HAS_FIELD]->(f:Field)
  WHERE NOT f.name IN coalesce($metadata[toLower(coalesce(n.storageLayer, ''))], [])
  OPTIONAL MATCH (:Field)-[c:DERIVES {jobId: j.id}]->(f)
  WITH j, names, count(DISTINCT f.name) AS outputFields, count(DISTINCT CASE WHEN c IS NOT NULL THEN f.name END) AS derived,
       min(c.firstSeen) AS derivedFirst, max(c.lastSeen) AS derivedLast
  UNWIND names AS n
  OPTIONAL MATCH (:Field)-[i:INFLUENCES {jobId: j.id}]->(n)
  WITH outputFields, derived, derivedFirst, derivedLast, min(i.firstSeen) AS influencedFirst, max(i.lastSeen) AS influencedLast
  WITH outputFields, CASE WHEN influencedFirst IS NULL THEN derived ELSE outputFields END AS anyTime,
       CASE WHEN derivedFirst IS NULL OR influencedFirst < derivedFirst THEN influencedFirst ELSE derivedFirst END AS cllFirstSeen,
       CASE WHEN derivedLast IS NULL OR influencedLast > derivedLast THEN influencedLast ELSE derivedLast END AS cllLastSeen
  WITH outputFields, cllFirstSeen, cllLastSeen,
       CASE WHEN decided IS NULL OR decided.fields IS NULL THEN anyTime
            WHEN decided.cllWhole THEN outputFields
            ELSE size(decided.cllFields) END AS fieldsWithInputs
  SET p.outputFields = outputFields, p.fieldsWithInputs = fieldsWithInputs,
      p.cllFirstSeen = cllFirstSeen, p.cllLastSeen = cllLastSeen
}
SET p.decidedRunId = coalesce(decidedRunId, '')
