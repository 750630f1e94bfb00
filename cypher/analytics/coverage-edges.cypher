// Purpose: the job → output dataset edges of a scope, for coverage: whether the job reports column
//   lineage into that output (a DERIVES edge of the job into one of its fields), how many output
//   fields there are and how many have at least one input field through the job, and the times the
//   edge and its column lineage were seen (for trends). History edges (current = false) included.
//   The per-edge figures are kept on PRODUCES by ingest/refresh-output-coverage.cypher.
//   Scope: ALL (every job, through the namespace index), NAMESPACE, JOB (an id) or ENGINE.
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value (namespace, job id or engine; null for ALL),
//   $limit: maximum edges
// Columns: jobId, namespace, engine, datasetId, current, firstSeen, lastSeen, outputFields, fieldsWithInputs,
//   cllFirstSeen, cllLastSeen (null when no column lineage)
// Warm-up: [{"scope": ["ALL"], "value": [null], "limit": [1]}, {"scope": ["ENGINE"], "value": ["-"], "limit": [1]}]
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
MATCH (j)-[p:PRODUCES]->(d:Dataset)
RETURN j.id AS jobId, j.namespace AS namespace, coalesce(j.engine, 'other') AS engine, d.id AS datasetId,
       coalesce(p.current, true) AS current, p.firstSeen AS firstSeen, p.lastSeen AS lastSeen,
       coalesce(p.outputFields, 0) AS outputFields, coalesce(p.fieldsWithInputs, 0) AS fieldsWithInputs,
       p.cllFirstSeen AS cllFirstSeen, p.cllLastSeen AS cllLastSeen
ORDER BY jobId, datasetId
LIMIT toInteger($limit)
