// Purpose: the jobs of a scope whose lineage nobody reports (lineageUnknown: Tributary's job facet,
//   e.g. a Kafka Connect connector of a class the collector does not map), retired jobs left out;
//   most recently seen first, then by id; at most $limit, and how many there are.
//   Scope: ALL (through the lineageUnknown index), NAMESPACE, JOB (an id) or ENGINE.
// Parameters: $scope ('ALL' | 'NAMESPACE' | 'JOB' | 'ENGINE'), $value (namespace, job id or engine; '' for ALL),
//   $limit
// Columns: total (integer), jobs: list of {jobId, namespace, engine, reason, lastSeen}
// Warm-up: {"scope": ["ALL"], "value": [""], "limit": [1]}
CALL () {
  WITH 1 AS one WHERE $scope = 'ALL'
  MATCH (j:Job) WHERE j.lineageUnknown IS NOT NULL RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'NAMESPACE'
  MATCH (j:Job) WHERE j.namespace = $value AND j.lineageUnknown IS NOT NULL RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'JOB'
  MATCH (j:Job {id: $value}) WHERE j.lineageUnknown IS NOT NULL RETURN j
  UNION
  WITH 1 AS one WHERE $scope = 'ENGINE'
  MATCH (j:Job) WHERE j.engine = $value AND j.lineageUnknown IS NOT NULL RETURN j
}
WITH j WHERE j.retiredAt IS NULL
WITH j ORDER BY j.lastSeen DESC, j.id
WITH collect({jobId: j.id, namespace: j.namespace, engine: coalesce(j.engine, 'other'), reason: j.lineageUnknown, lastSeen: j.lastSeen}) AS jobs
RETURN size(jobs) AS total, jobs[0..toInteger($limit)] AS jobs
