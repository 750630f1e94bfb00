// Purpose: the lineage of a scope's jobs at one time, edge by edge, for lineage diffs and
//   coverage-drop checks. A job's edges at $at are those of its latest run that had reported IO by
//   then (run.ioFrom <= $at, ties by run id: the rule of lineage `asOf`), plus static edges from
//   JobEvents first seen by then; with $at null, its current edges (the latest IO report, run or
//   JobEvent: what `lineage` and `coverage` answer now).
//   For every output edge, the deciding run (as in ingest/refresh-output-coverage.cypher, limited
//   to runs with ioFrom <= $at): the latest run of the job writing the dataset that reported column
//   lineage into it or completed, with what it reported (null lists: not recorded, see below). The
//   latest one is kept on PRODUCES (decidedRunId): found by id when it is not after $at, else the
//   job's runs writing the dataset are searched (their number bounds the cost of a past time).
//   Recorded reports (fields, cllFields, cllPairs) are what the run's events said about the
//   dataset (merge-inputs / merge-outputs); null on static edges and on runs projected before they
//   were kept. For those, `anyCll`, `anyFields` and `anyWithInputs` give the column lineage of the
//   job into the dataset seen by $at (any time, DERIVES / INFLUENCES edges, names not joined), and
//   with $at null the figures kept on PRODUCES (those coverage reports).
//   Scope: ALL, NAMESPACE, JOB (an id) or ENGINE, chosen as in coverage-edges.cypher.
//   The runs' full reports (schema fields, column-lineage pairs) are not read here, only whether
//   they exist: a diff reads them for the few edges whose runs differ (run-reports.cypher).
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value ('' for ALL), $at (ISO time or null),
//   $limit: maximum rows
// Columns: jobId, namespace, engine, direction ('INPUT' | 'OUTPUT'), datasetId, runId (null: static edge),
//   recorded (the run's report of the dataset exists); OUTPUT rows also (else null): decidedRunId,
//   decidedRecorded, cllFields, cllWhole, reportedFields (distinct fields in the run's schema and the
//   deciding run's column lineage), anyCll, anyFields, anyWithInputs. Ordered by jobId, direction, datasetId.
// Warm-up: {"scope": ["ALL"], "value": [""], "at": ["2000-01-01T00:00:00.000Z", null], "limit": [1]}
CALL () {
  WITH 1 AS one WHERE $scope = 'ALL'
  MATCH (j:Job) WHERE j.namespace IS NOT NULL RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'NAMESPACE'
  MATCH (j:Job) WHERE j.namespace = $value RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'JOB'
  MATCH (j:Job {id: $value}) RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'ENGINE'
  MATCH (j:Job) WHERE j.engine = $value RETURN j
}
WITH j, CASE WHEN $at IS NULL THEN j.ioRunId
             ELSE COLLECT { MATCH (j)<-[:RUN_OF]-(q:Run) WHERE q.ioFrom <= $at
                            RETURN q.id ORDER BY q.ioFrom DESC, q.id DESC LIMIT 1 }[0] END AS ioRunId
CALL (j, ioRunId) {
  MATCH (r:Run {id: ioRunId})-[o:OUTPUT_TO]->(d:Dataset)
  RETURN 'OUTPUT' AS direction, d, r.id AS runId, o.fields AS fields
  UNION ALL
  MATCH (d:Dataset)-[i:INPUT_TO]->(r:Run {id: ioRunId})
  RETURN 'INPUT' AS direction, d, r.id AS runId, i.fields AS fields
  UNION ALL
  MATCH (j)-[p:PRODUCES]->(d:Dataset)
  WHERE ($at IS NULL AND j.ioRunId IS NULL AND p.current) OR ($at IS NOT NULL AND p.lastRunId IS NULL AND p.firstSeen <= $at)
  RETURN 'OUTPUT' AS direction, d, null AS runId, null AS fields
  UNION ALL
  MATCH (d:Dataset)-[f:FEEDS]->(j)
  WHERE ($at IS NULL AND j.ioRunId IS NULL AND f.current) OR ($at IS NOT NULL AND f.lastRunId IS NULL AND f.firstSeen <= $at)
  RETURN 'INPUT' AS direction, d, null AS runId, null AS fields
}
WITH j, direction, d, runId, fields ORDER BY j.id, direction, d.id
LIMIT toInteger($limit)
CALL (j, d, direction, fields) {
  WITH j, d WHERE direction = 'OUTPUT'
  OPTIONAL MATCH (j)-[p:PRODUCES]->(d)
  OPTIONAL MATCH (latest:Run {id: p.decidedRunId})
  // The deciding run at $at: the latest one overall (kept on PRODUCES by refresh-output-coverage)
  // when it had reported IO by then; none when none decides now ('': being deciding never ends);
  // otherwise (after $at, or not kept yet) the runs of the job writing d are searched.
  CALL (j, d, p, latest) {
    WITH latest WHERE latest IS NOT NULL AND ($at IS NULL OR latest.ioFrom <= $at)
    RETURN latest AS r
    UNION
    WITH j, d, p, latest WHERE latest IS NULL OR ($at IS NOT NULL AND latest.ioFrom > $at)
    OPTIONAL MATCH (q:Run)-[o:OUTPUT_TO]->(d)
    WHERE coalesce(p.decidedRunId, '-') <> '' AND (q)-[:RUN_OF]->(j) AND ($at IS NULL OR q.ioFrom <= $at)
      AND (o.cllWhole OR size(coalesce(o.cllFields, [])) > 0 OR q.state = 'COMPLETE')
    WITH q ORDER BY q.ioFrom DESC, q.id DESC LIMIT 1
    RETURN q AS r
  }
  OPTIONAL MATCH (r)-[o:OUTPUT_TO]->(d)
  // Column lineage seen by $at, only where the deciding run's report is not there to say it.
  CALL (j, d, o) {
    WITH j, d, o WHERE $at IS NOT NULL AND (o IS NULL OR o.fields IS NULL)
    RETURN size(COLLECT { MATCH (d)-[:HAS_FIELD]->(f:Field) WHERE f.firstSeen <= $at RETURN f }) AS fieldsByThen,
           size(COLLECT { MATCH (d)-[:HAS_FIELD]->(f:Field)<-[c:DERIVES {jobId: j.id}]-(:Field) WHERE c.firstSeen <= $at
                          RETURN DISTINCT f }) AS derivedByThen,
           EXISTS { MATCH (:Field)-[i:INFLUENCES {jobId: j.id}]->(d) WHERE i.firstSeen <= $at } AS influencedByThen
    UNION
    WITH o WHERE $at IS NULL OR (o IS NOT NULL AND o.fields IS NOT NULL)
    RETURN 0 AS fieldsByThen, 0 AS derivedByThen, false AS influencedByThen
  }
  RETURN r.id AS decidedRunId, o IS NOT NULL AND o.fields IS NOT NULL AS decidedRecorded,
         o.cllFields AS cllFields, o.cllWhole AS cllWhole,
         size(COLLECT { UNWIND coalesce(fields, []) + coalesce(o.cllFields, []) AS n RETURN DISTINCT n }) AS reportedFields,
         CASE WHEN $at IS NULL THEN coalesce(p.fieldsWithInputs, 0) > 0 ELSE derivedByThen > 0 OR influencedByThen END AS anyCll,
         CASE WHEN $at IS NULL THEN coalesce(p.outputFields, 0) ELSE fieldsByThen END AS anyFields,
         CASE WHEN $at IS NULL THEN coalesce(p.fieldsWithInputs, 0)
              WHEN influencedByThen THEN fieldsByThen ELSE derivedByThen END AS anyWithInputs
  UNION
  WITH j, d WHERE direction = 'INPUT'
  RETURN null AS decidedRunId, null AS decidedRecorded, null AS cllFields, null AS cllWhole, null AS reportedFields,
         null AS anyCll, null AS anyFields, null AS anyWithInputs
}
RETURN j.id AS jobId, j.namespace AS namespace, coalesce(j.engine, 'other') AS engine, direction, d.id AS datasetId,
       runId, fields IS NOT NULL AS recorded, decidedRunId, decidedRecorded, cllFields, cllWhole, reportedFields,
       anyCll, anyFields, anyWithInputs
