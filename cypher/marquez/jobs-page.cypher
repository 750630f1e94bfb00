// Purpose: one page of Marquez's job list (GET /api/v1/jobs, /api/v1/namespaces/{ns}/jobs): the
//   jobs of a namespace (or of all), newest first (lastSeen, then id), soft-deleted jobs left out
//   (an Annotation whose hiddenAt is at or after the job's lastSeen). $states filters on the state
//   of the job's latest run (latest lastSeen, ties by run id) as Marquez names it; jobs never run
//   are always kept. The total counts every visible job of the scope, whatever $states says
//   (Marquez's totalCount ignores lastRunStates).
// Parameters: $namespace: a namespace or null for all; $states: list of Tributary run states
//   (START, RUNNING, COMPLETE, FAIL, ABORT, OTHER) or null for all; $skip, $limit: the page
// Columns: total (integer), ids: list of job ids
// Warm-up: [{"namespace": [null], "states": [null, ["COMPLETE"]], "skip": [0], "limit": [100]}, {"namespace": ["-"], "states": [null, ["COMPLETE"]], "skip": [0], "limit": [100]}]
CALL () {
  UNWIND CASE WHEN $namespace IS NULL THEN [true] ELSE [] END AS everyNamespace
  MATCH (j:Job) WHERE j.namespace IS NOT NULL
  RETURN j
  UNION ALL
  MATCH (j:Job {namespace: $namespace})
  RETURN j
}
WITH j
WHERE NOT EXISTS { MATCH (a:Annotation {id: j.id}) WHERE a.hiddenAt >= j.lastSeen }
WITH j ORDER BY coalesce(j.lastSeen, "") DESC, j.id
WITH collect(j) AS jobs
CALL (jobs) {
  UNWIND jobs AS j
  WITH j, COLLECT { MATCH (j)<-[:RUN_OF]-(r:Run) RETURN r.state ORDER BY r.lastSeen DESC, r.id DESC LIMIT 1 } AS latest
  WHERE $states IS NULL OR size(latest) = 0 OR latest[0] IN $states
  WITH j SKIP toInteger($skip) LIMIT toInteger($limit)
  RETURN collect(j.id) AS ids
}
RETURN size(jobs) AS total, ids
