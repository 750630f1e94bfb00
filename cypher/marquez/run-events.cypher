// Purpose: the stored RunEvents of one run, oldest first (event time, then id), for Marquez's run
//   facets (GET /api/v1/jobs/runs/{id}/facets): the job and run facets as each event sent them.
// Parameters: $runId: run node id; $limit: most events read
// Columns: raw (the JSON text as received)
// Warm-up: {"runId": ["-"], "limit": [1000]}
MATCH (e:Event {runId: $runId})
RETURN e.raw AS raw
ORDER BY e.eventTime, e.id
LIMIT toInteger($limit)
