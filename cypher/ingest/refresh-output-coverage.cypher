// Purpose: the column-lineage coverage figures of job → output dataset edges, kept on PRODUCES so
//   that coverage reads one property set per edge instead of walking fields: outputFields (fields
//   of the dataset by name, counting the fields of its SYMLINKed names (up to 2 symlinks away) as
//   one set: a field reported under the path and the catalog name is one field),
//   fieldsWithInputsEver (of them, those with any column dependency through this job under any of
//   the names: a DERIVES edge of the job into them, or, for every field, an INFLUENCES edge of the
//   job into the dataset or one of its names), cllFirstSeen / cllLastSeen (min / max over those
//   edges; null without column lineage), and fieldsWithInputs (below). Fields that are metadata
//   columns of their dataset's table format ($metadata, by its storageLayer: Iceberg's _file, _pos,
//   ...) are not output fields.
//   Column lineage counts as of the job's latest *deciding* run for the edge: the latest run (by
//   ioFrom, then id) of the job writing the dataset that reported column lineage into it or
//   completed (a run still going may send its column lineage with its COMPLETE event). When that
//   run recorded what it reported (OUTPUT_TO.fields not null), fieldsWithInputs is its output
//   fields with inputs (every field with a dataset-level dependency), 0 without column lineage: a
//   producer that stops sending columnLineage makes the edge dataset level. Otherwise (no deciding
//   run, a JobEvent edge, or a run projected before reports were kept) fieldsWithInputsEver. The
//   deciding run's id is kept as p.decidedRunId ('': none decides), for lineage diffs.
//
//   Maintained incrementally (issue 28), each part only where the batch's writes can change it, so
//   a batch costs what its events touch, not the job's history or the dataset's width; every figure
//   stays a function of the graph (arrival order never matters):
//   - counts (outputFields, fieldsWithInputsEver, cllFirstSeen/LastSeen) of every producer of every
//     name of a dataset whose counts' inputs changed: column lineage or a dataset-level dependency
//     into it, a symlink, a storage facet ($countDatasetIds), or a field created in it
//     (merge-fields.cypher flags the dataset coverageStale, cleared here); also of an edge never
//     counted (fieldsWithInputsEver null: new, or projected before this was kept);
//   - the decision of every edge the batch's runs or output rows write: only runs of the batch can
//     change whether a run decides (its state, its report, its ioFrom are written by its own
//     events), so the new deciding run is the latest of the one recorded and the edge's deciding
//     runs in the batch; the edge's runs are all read again only when the recorded one is itself
//     in the batch (its ioFrom may have moved, or its state left COMPLETE) or none was ever
//     recorded (null). Each edge looks at its own runs of the batch only: a batch costs its size,
//     not its size squared;
//   - fieldsWithInputs of every edge of either part.
// Parameters: $countDatasetIds: dataset ids (above); $fieldDatasetIds: datasets the batch reported fields of;
//   $edges: list of {jobId, datasetId} of the batch's output rows; $runIds: runs of the batch;
//   $metadata: metadata columns of table formats, {storageLayer: [names]} (src/lineage/metadata-columns.ts);
//   none of the lists is empty: [NO_NODE_ID] (src/ids.ts) or one edge of NO_NODE_ID ids for none, which matches nothing
// Columns: none
// Warm-up: {"countDatasetIds": [{"listOf": "-", "sizes": [1]}], "fieldDatasetIds": [{"listOf": "-", "sizes": [1]}], "edges": [{"listOf": {"jobId": "-"}, "sizes": [1]}], "runIds": [{"listOf": "-", "sizes": [1]}], "metadata": [{"iceberg": ["_file"]}]}
// Warm-up transaction: after-write
CALL () {
  UNWIND $fieldDatasetIds AS id
  MATCH (s:Dataset {id: id}) WHERE s.coverageStale
  REMOVE s.coverageStale
  RETURN collect(id) AS stale
}
CALL (stale) {
  UNWIND $countDatasetIds + stale AS id
  MATCH (:Dataset {id: id})-[:SYMLINK*0..2]-(:Dataset)<-[p:PRODUCES]-(:Job)
  RETURN collect(DISTINCT p) AS counted
}
CALL () {
  // The edges the batch wrote, each with its runs in the batch (every one, and those that decide).
  CALL () {
    UNWIND $runIds AS rid
    MATCH (r:Run {id: rid})-[o:OUTPUT_TO]->(:Dataset)<-[p:PRODUCES]-(:Job)<-[:RUN_OF]-(r)
    RETURN p, r, o.cllWhole OR size(coalesce(o.cllFields, [])) > 0 OR r.state = 'COMPLETE' AS decides
    UNION ALL
    UNWIND $edges AS x
    MATCH (:Job {id: x.jobId})-[p:PRODUCES]->(:Dataset {id: x.datasetId})
    RETURN p, null AS r, false AS decides
  }
  WITH p, collect(r.id) AS batchRuns, collect(CASE WHEN decides THEN r END) AS deciders
  WITH p, startNode(p) AS j, endNode(p) AS d, batchRuns, deciders
  CALL (p, j, d, batchRuns, deciders) {
    WITH p, j, d WHERE p.decidedRunId IS NULL OR p.decidedRunId IN batchRuns
    OPTIONAL MATCH (r:Run)-[o:OUTPUT_TO]->(d)
    WHERE (r)-[:RUN_OF]->(j) AND (o.cllWhole OR size(coalesce(o.cllFields, [])) > 0 OR r.state = 'COMPLETE')
    WITH r ORDER BY r.ioFrom DESC, r.id DESC LIMIT 1
    RETURN r AS deciding
    UNION
    WITH p, batchRuns, deciders WHERE p.decidedRunId IS NOT NULL AND NOT p.decidedRunId IN batchRuns
    OPTIONAL MATCH (recorded:Run {id: p.decidedRunId})
    RETURN reduce(best = recorded, r IN deciders |
             CASE WHEN best IS NULL OR r.ioFrom > best.ioFrom OR (r.ioFrom = best.ioFrom AND r.id > best.id) THEN r ELSE best END) AS deciding
  }
  SET p.decidedRunId = coalesce(deciding.id, '')
  RETURN collect(p) AS decided
}
WITH counted + [p IN decided WHERE p.fieldsWithInputsEver IS NULL] AS recount, counted + decided AS touched
CALL (recount) {
  UNWIND recount AS p
  WITH DISTINCT p, startNode(p) AS j, endNode(p) AS d
  CALL (p, j, d) {
    WITH j, COLLECT { MATCH (d)-[:SYMLINK*0..2]-(n:Dataset) RETURN DISTINCT n } AS names
    UNWIND names AS n
    OPTIONAL MATCH (n)-[:HAS_FIELD]->(f:Field)
    WHERE NOT f.name IN coalesce($metadata[toLower(coalesce(n.storageLayer, ''))], [])
    OPTIONAL MATCH (:Field)-[c:DERIVES {jobId: j.id}]->(f)
    WITH j, names, count(DISTINCT f.name) AS outputFields, count(DISTINCT CASE WHEN c IS NOT NULL THEN f.name END) AS derived,
         min(c.firstSeen) AS derivedFirst, max(c.lastSeen) AS derivedLast
    UNWIND names AS n
    OPTIONAL MATCH (:Field)-[i:INFLUENCES {jobId: j.id}]->(n)
    WITH outputFields, derived, derivedFirst, derivedLast, min(i.firstSeen) AS influencedFirst, max(i.lastSeen) AS influencedLast
    RETURN outputFields, CASE WHEN influencedFirst IS NULL THEN derived ELSE outputFields END AS ever,
           CASE WHEN derivedFirst IS NULL OR influencedFirst < derivedFirst THEN influencedFirst ELSE derivedFirst END AS cllFirstSeen,
           CASE WHEN derivedLast IS NULL OR influencedLast > derivedLast THEN influencedLast ELSE derivedLast END AS cllLastSeen
  }
  SET p.outputFields = outputFields, p.fieldsWithInputsEver = ever, p.cllFirstSeen = cllFirstSeen, p.cllLastSeen = cllLastSeen
}
UNWIND touched AS p
WITH DISTINCT p, endNode(p) AS d
OPTIONAL MATCH (:Run {id: p.decidedRunId})-[o:OUTPUT_TO]->(d)
SET p.fieldsWithInputs = CASE WHEN o IS NULL OR o.fields IS NULL THEN p.fieldsWithInputsEver
                              WHEN o.cllWhole THEN p.outputFields
                              ELSE size(o.cllFields) END
