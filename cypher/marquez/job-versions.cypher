// Purpose: one page of a job's versions as Marquez lists them (GET .../jobs/{job}/versions): newest
//   first (lastSeen, then id), each with the datasets it reads and writes and its latest run.
// Parameters: $jobId; $skip, $limit: the page
// Columns: id (JobVersion id), firstSeen, inputs, outputs: lists of {namespace, name} ordered by id,
//   latestRunId (run node id or null)
// Warm-up: {"jobId": ["-"], "skip": [0], "limit": [100]}
MATCH (:Job {id: $jobId})-[:HAS_VERSION]->(v:JobVersion)
WITH v ORDER BY v.lastSeen DESC, v.id DESC
SKIP toInteger($skip) LIMIT toInteger($limit)
RETURN v.id AS id, v.firstSeen AS firstSeen,
       COLLECT { UNWIND coalesce(v.inputs, []) AS i MATCH (d:Dataset {id: i}) WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS inputs,
       COLLECT { UNWIND coalesce(v.outputs, []) AS o MATCH (d:Dataset {id: o}) WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS outputs,
       COLLECT { MATCH (v)<-[:OF_VERSION]-(r:Run) RETURN r.id ORDER BY r.lastSeen DESC, r.id DESC LIMIT 1 }[0] AS latestRunId
