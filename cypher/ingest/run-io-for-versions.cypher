// Purpose: what identifies the job version of each given run: its job, the datasets the run read
//   and wrote (sorted ids) and its source code signature. Read inside the projection transaction,
//   after the run's edges were written.
// Parameters: $runIds: list of run ids
// Columns: runId, jobId (the lowest id of the run's jobs: a run id some producers reuse across jobs
//   belongs to one version), inputs
//   (sorted dataset ids), outputs (sorted dataset ids), codeSig (or null)
// Warm-up: {"runIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $runIds AS id
MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
WITH r, min(j.id) AS jobId
RETURN r.id AS runId, jobId,
       COLLECT { MATCH (d:Dataset)-[:INPUT_TO]->(r) RETURN d.id ORDER BY d.id } AS inputs,
       COLLECT { MATCH (r)-[:OUTPUT_TO]->(d:Dataset) RETURN d.id ORDER BY d.id } AS outputs,
       r.codeSig AS codeSig
