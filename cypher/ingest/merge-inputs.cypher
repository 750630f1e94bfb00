// Purpose: record that runs (and their jobs) read datasets, in data-flow direction:
//   (:Dataset)-[:INPUT_TO]->(:Run) for RunEvents and (:Dataset)-[:FEEDS]->(:Job) for every event.
//   Edges keep firstSeen/lastSeen (min/max event time, kept when the job stops reading: history),
//   `declared` (true once any event listed the dataset in `inputs`; false when only column lineage
//   named it); FEEDS also the latest run that read (lastRunId) and, for JobEvents, the latest static
//   report (staticAt). Input facets: merge-facets.cypher. Job, run and dataset nodes must exist.
//   INPUT_TO also keeps `fields`: the schema paths the run's events gave for the input (union,
//   sorted; null on an edge written before they were kept, until a reproject: never partial).
// Sorted set unions are written as a sorted COLLECT with adjacent duplicates dropped: inside a
//   COLLECT subquery, `RETURN DISTINCT n ORDER BY n` costs Neo4j 5.26 transaction memory quadratic in
//   the list (2,000 strings: 431 MB; a wide table's column lineage failed on a 1 GiB heap).
// Parameters: $rows: list of {runId (null for JobEvents), jobId, datasetId, declared, firstSeen, lastSeen, fields}
//   The run's ioFrom is the earliest time it reported IO (min), for lineage as of a past time.
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (d:Dataset {id: x.datasetId})
MATCH (j:Job {id: x.jobId})
MERGE (d)-[f:FEEDS]->(j)
SET f.declared = coalesce(f.declared, false) OR x.declared,
    f.firstSeen = CASE WHEN f.firstSeen IS NULL OR x.firstSeen < f.firstSeen THEN x.firstSeen ELSE f.firstSeen END,
    f.lastRunId = CASE WHEN x.runId IS NOT NULL AND (f.lastRunAt IS NULL OR x.lastSeen > f.lastRunAt
                            OR (x.lastSeen = f.lastRunAt AND x.runId > f.lastRunId))
                       THEN x.runId ELSE f.lastRunId END,
    f.lastRunAt = CASE WHEN x.runId IS NOT NULL AND (f.lastRunAt IS NULL OR x.lastSeen > f.lastRunAt)
                       THEN x.lastSeen ELSE f.lastRunAt END,
    f.staticAt = CASE WHEN x.runId IS NULL AND (f.staticAt IS NULL OR x.lastSeen > f.staticAt)
                      THEN x.lastSeen ELSE f.staticAt END,
    f.lastSeen = CASE WHEN f.lastSeen IS NULL OR x.lastSeen > f.lastSeen THEN x.lastSeen ELSE f.lastSeen END
WITH d, x
CALL (d, x) {
  WITH d, x WHERE x.runId IS NOT NULL
  MATCH (r:Run {id: x.runId})
  MERGE (d)-[e:INPUT_TO]->(r)
  WITH r, e, x, e.firstSeen IS NULL OR e.fields IS NOT NULL AS recording,
       COLLECT { UNWIND coalesce(e.fields, []) + x.fields AS n RETURN n ORDER BY n } AS fields
  SET e.fields = CASE WHEN recording THEN [i IN range(0, size(fields) - 1) WHERE i = 0 OR fields[i] <> fields[i - 1] | fields[i]] END
  SET e.declared = coalesce(e.declared, false) OR x.declared,
      e.firstSeen = CASE WHEN e.firstSeen IS NULL OR x.firstSeen < e.firstSeen THEN x.firstSeen ELSE e.firstSeen END,
      e.lastSeen = CASE WHEN e.lastSeen IS NULL OR x.lastSeen > e.lastSeen THEN x.lastSeen ELSE e.lastSeen END,
      r.ioFrom = CASE WHEN r.ioFrom IS NULL OR x.firstSeen < r.ioFrom THEN x.firstSeen ELSE r.ioFrom END
}
