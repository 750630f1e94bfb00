// Purpose: coverage of a scope summed in the database, per (engine, namespace) of the job, from the
//   figures kept on each job → output edge (PRODUCES: outputFields, fieldsWithInputs, written by
//   ingest/refresh-output-coverage.cypher): current edges, those with column lineage, output fields
//   and fields with inputs. Also every edge (history included) and the edges written before those
//   figures were kept (legacy: the service then computes from coverage-edges.cypher instead).
//   Scope: ALL (every job), NAMESPACE, JOB (an id) or ENGINE, chosen as in coverage-edges.cypher.
//   The current edges of a job that reads nothing (no current input: a CREATE TABLE, a seed, a
//   generator) have no lineage to report at any level: counted apart (noInputEdges), not in the rest;
//   so are those of a job whose lineage Tributary collected (collectedBy: the Kafka Connect
//   collector), which no producer reports (collectedEdges).
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value (namespace, job id or engine; '' for ALL)
// Columns: engine, namespace, allEdges, legacy, edges, columnLevel, outputFields, fieldsWithInputs, noInputEdges,
//   collectedEdges (integers)
// Warm-up: {"scope": ["ALL"], "value": [""]}
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
MATCH (j)-[p:PRODUCES]->(:Dataset)
WITH coalesce(j.engine, 'other') AS engine, j.namespace AS namespace, p, readsNothing, coalesce(p.current, true) AS current,
     j.collectedBy IS NOT NULL AS collected
WITH engine, namespace, p, current AND collected AS collectedEdge, current AND readsNothing AND NOT collected AS noInput,
     current AND NOT readsNothing AND NOT collected AS counted
RETURN engine, namespace,
       count(p) AS allEdges,
       count(CASE WHEN p.outputFields IS NULL THEN 1 END) AS legacy,
       count(CASE WHEN counted THEN 1 END) AS edges,
       count(CASE WHEN counted AND p.fieldsWithInputs > 0 THEN 1 END) AS columnLevel,
       sum(CASE WHEN counted THEN coalesce(p.outputFields, 0) ELSE 0 END) AS outputFields,
       sum(CASE WHEN counted THEN coalesce(p.fieldsWithInputs, 0) ELSE 0 END) AS fieldsWithInputs,
       count(CASE WHEN noInput THEN 1 END) AS noInputEdges,
       count(CASE WHEN collectedEdge THEN 1 END) AS collectedEdges
