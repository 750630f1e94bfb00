// Purpose: the job → output dataset edges of a scope, for coverage: whether the job reports column
//   lineage into that output (a DERIVES edge of the job into one of its fields, or an INFLUENCES
//   edge into the dataset), how many output fields there are and how many have at least one column
//   dependency through the job (every field, when an INFLUENCES edge affects the whole output), and the times the
//   edge and its column lineage were seen (for trends). History edges (current = false) included.
//   The per-edge figures are kept on PRODUCES by ingest/refresh-output-coverage.cypher; an edge
//   written before that existed (no outputFields yet) gets them computed here, the same way.
//   Scope: ALL (every job, through the namespace index), NAMESPACE, JOB (an id) or ENGINE.
//   readsNothing: the job has no current input (a CREATE TABLE, a seed, a generator); collected:
//   its lineage was collected by Tributary (collectedBy), not reported by a producer.
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value (namespace, job id or engine; '' for ALL),
//   $limit: maximum edges
// Columns: jobId, readsNothing, collected, namespace, engine, datasetId, current, firstSeen, lastSeen, outputFields, fieldsWithInputs,
//   cllFirstSeen, cllLastSeen (null when no column lineage)
// Warm-up: {"scope": ["ALL"], "value": [""], "limit": [1]}
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
WITH j, NOT EXISTS { MATCH (:Dataset)-[f:FEEDS]->(j) WHERE coalesce(f.current, true) } AS readsNothing
MATCH (j)-[p:PRODUCES]->(d:Dataset)
CALL (j, p, d) {
  // Only for an edge without kept figures (otherwise no rows reach the aggregation: 0 and nulls).
  WITH j, p, d WHERE p.outputFields IS NULL
  CALL (j, d) {
    OPTIONAL MATCH (:Field)-[i:INFLUENCES {jobId: j.id}]->(d)
    RETURN min(i.firstSeen) AS influencedFirst, max(i.lastSeen) AS influencedLast
  }
  OPTIONAL MATCH (d)-[:HAS_FIELD]->(f:Field)
  OPTIONAL MATCH (:Field)-[c:DERIVES {jobId: j.id}]->(f)
  // No grouping keys: one row even when the edge keeps its figures (then 0 and nulls, unused).
  WITH count(DISTINCT f) AS fields, count(DISTINCT CASE WHEN c IS NOT NULL THEN f END) AS derived,
       min(c.firstSeen) AS derivedFirst, max(c.lastSeen) AS derivedLast,
       min(influencedFirst) AS influencedFirst, max(influencedLast) AS influencedLast
  RETURN fields AS legacyFields, CASE WHEN influencedFirst IS NULL THEN derived ELSE fields END AS legacyWithInputs,
         CASE WHEN derivedFirst IS NULL OR influencedFirst < derivedFirst THEN influencedFirst ELSE derivedFirst END AS legacyFirst,
         CASE WHEN derivedLast IS NULL OR influencedLast > derivedLast THEN influencedLast ELSE derivedLast END AS legacyLast
}
WITH j, p, d, readsNothing, p.outputFields IS NULL AS legacy, legacyFields, legacyWithInputs, legacyFirst, legacyLast
RETURN j.id AS jobId, readsNothing, j.collectedBy IS NOT NULL AS collected, j.namespace AS namespace, coalesce(j.engine, 'other') AS engine, d.id AS datasetId,
       coalesce(p.current, true) AS current, p.firstSeen AS firstSeen, p.lastSeen AS lastSeen,
       CASE WHEN legacy THEN legacyFields ELSE p.outputFields END AS outputFields,
       CASE WHEN legacy THEN legacyWithInputs ELSE p.fieldsWithInputs END AS fieldsWithInputs,
       CASE WHEN legacy THEN legacyFirst ELSE p.cllFirstSeen END AS cllFirstSeen,
       CASE WHEN legacy THEN legacyLast ELSE p.cllLastSeen END AS cllLastSeen
ORDER BY jobId, datasetId
LIMIT toInteger($limit)
