// Purpose: the stored RunEvents of several runs, oldest first within each (event time, then id), for
//   what Marquez keeps per run and Tributary per node: the dataset facets each run's events sent for
//   the datasets it wrote (Marquez's dataset versions).
// Parameters: $runIds: run node ids; $limit: most events read per run
// Columns: runId, raws: list of the events' JSON texts as received
// Warm-up: {"runIds": [{"listOf": "-", "sizes": [1]}], "limit": [1000]}
UNWIND $runIds AS runId
CALL (runId) {
  MATCH (e:Event {runId: runId})
  WITH e ORDER BY e.eventTime, e.id
  LIMIT toInteger($limit)
  RETURN collect(e.raw) AS raws
}
RETURN runId, raws
