// Purpose: record that runs (and their jobs) wrote datasets, in data-flow direction:
//   (:Run)-[:OUTPUT_TO]->(:Dataset) for RunEvents and (:Job)-[:PRODUCES]->(:Dataset) for every
//   event. Same edge properties as merge-inputs.cypher (declared is always true). Output facets:
//   merge-facets.cypher. Job, run and dataset nodes must exist.
//   OUTPUT_TO also keeps what the run reported about the output (unions over its events, sorted;
//   see IoRow in src/ingest/plan-rows.ts): fields (schema paths), cllFields, cllWhole, cllPairs.
//   An OUTPUT_TO written before these were kept stays without them (null: not recorded) until a
//   reproject rebuilds it, so a list is never a partial union.
// Sorted set unions are written as a sorted COLLECT with adjacent duplicates dropped: inside a
//   COLLECT subquery, `RETURN DISTINCT n ORDER BY n` costs Neo4j 5.26 transaction memory quadratic in
//   the list (2,000 strings: 431 MB; a wide table's column lineage failed on a 1 GiB heap).
// Parameters: $rows: list of {runId (null for JobEvents), jobId, datasetId, declared, firstSeen, lastSeen,
//   fields, cllFields, cllWhole, cllPairs}
//   The run's ioFrom is the earliest time it reported IO (min), for lineage as of a past time.
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (d:Dataset {id: x.datasetId})
MATCH (j:Job {id: x.jobId})
MERGE (j)-[p:PRODUCES]->(d)
SET p.firstSeen = CASE WHEN p.firstSeen IS NULL OR x.firstSeen < p.firstSeen THEN x.firstSeen ELSE p.firstSeen END,
    p.lastRunId = CASE WHEN x.runId IS NOT NULL AND (p.lastRunAt IS NULL OR x.lastSeen > p.lastRunAt
                            OR (x.lastSeen = p.lastRunAt AND x.runId > p.lastRunId))
                       THEN x.runId ELSE p.lastRunId END,
    p.lastRunAt = CASE WHEN x.runId IS NOT NULL AND (p.lastRunAt IS NULL OR x.lastSeen > p.lastRunAt)
                       THEN x.lastSeen ELSE p.lastRunAt END,
    p.staticAt = CASE WHEN x.runId IS NULL AND (p.staticAt IS NULL OR x.lastSeen > p.staticAt)
                      THEN x.lastSeen ELSE p.staticAt END,
    p.lastSeen = CASE WHEN p.lastSeen IS NULL OR x.lastSeen > p.lastSeen THEN x.lastSeen ELSE p.lastSeen END
WITH d, x
CALL (d, x) {
  WITH d, x WHERE x.runId IS NOT NULL
  MATCH (r:Run {id: x.runId})
  MERGE (r)-[e:OUTPUT_TO]->(d)
  WITH r, e, x, e.firstSeen IS NULL OR e.fields IS NOT NULL AS recording,
       COLLECT { UNWIND coalesce(e.fields, []) + x.fields AS n RETURN n ORDER BY n } AS fields,
       COLLECT { UNWIND coalesce(e.cllFields, []) + x.cllFields AS n RETURN n ORDER BY n } AS cllFields,
       COLLECT { UNWIND coalesce(e.cllPairs, []) + x.cllPairs AS n RETURN n ORDER BY n } AS cllPairs
  SET e.fields = CASE WHEN recording THEN [i IN range(0, size(fields) - 1) WHERE i = 0 OR fields[i] <> fields[i - 1] | fields[i]] END,
      e.cllFields = CASE WHEN recording THEN [i IN range(0, size(cllFields) - 1) WHERE i = 0 OR cllFields[i] <> cllFields[i - 1] | cllFields[i]] END,
      e.cllPairs = CASE WHEN recording THEN [i IN range(0, size(cllPairs) - 1) WHERE i = 0 OR cllPairs[i] <> cllPairs[i - 1] | cllPairs[i]] END,
      e.cllWhole = CASE WHEN recording THEN coalesce(e.cllWhole, false) OR x.cllWhole END
  SET e.firstSeen = CASE WHEN e.firstSeen IS NULL OR x.firstSeen < e.firstSeen THEN x.firstSeen ELSE e.firstSeen END,
      e.lastSeen = CASE WHEN e.lastSeen IS NULL OR x.lastSeen > e.lastSeen THEN x.lastSeen ELSE e.lastSeen END,
      r.ioFrom = CASE WHEN r.ioFrom IS NULL OR x.firstSeen < r.ioFrom THEN x.firstSeen ELSE r.ioFrom END
}
