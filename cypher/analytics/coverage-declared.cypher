// Purpose: the DECLARED output edges of a scope's jobs, per job: the datasets a job's current SQL
//   statement writes (resolved STRONG by the SQL declarer, cypher/sql/) that its events do not report
//   (no current PRODUCES to the dataset or a SYMLINKed name of it), one per logical dataset (SYMLINKed
//   names count once). Coverage counts them apart
//   (declaredEdges), never as reported lineage. Scope as in coverage-summary.cypher.
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value (namespace, job id or engine; '' for ALL)
// Columns: jobId, engine, namespace, declaredEdges (integer, > 0); by jobId
// Warm-up: {"scope": ["ALL"], "value": [""]}
CALL () {
  WITH 1 AS one WHERE $scope = 'ALL'
  MATCH (j:Job)-[:PARSED_AS]->(:SqlParse) WHERE j.namespace IS NOT NULL RETURN j
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
MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash
WITH j, COUNT {
  MATCH (j)-[:DECLARES {role: 'OUTPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(d:Dataset)
  WHERE NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset)-[:SYMLINK*0..1]-(d) WHERE p.current }
  RETURN DISTINCT reduce(g = d.id, a IN COLLECT { MATCH (d)-[:SYMLINK]-(x:Dataset) RETURN x.id } | CASE WHEN a < g THEN a ELSE g END) AS logical
} AS declaredEdges
WHERE declaredEdges > 0
RETURN j.id AS jobId, coalesce(j.engine, 'other') AS engine, j.namespace AS namespace, declaredEdges
ORDER BY jobId
