// Purpose: the latest run of each job (latest lastSeen event time, ties by run id) (DataLoader batch).
// Parameters: $ids: list of job ids
// Columns: jobId, runId (run node id)
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (:Job {id: id})<-[:RUN_OF]-(r:Run)
WITH id, r ORDER BY r.lastSeen DESC, r.id DESC
WITH id, head(collect(r.id)) AS runId
RETURN id AS jobId, runId
