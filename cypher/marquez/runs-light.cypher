// Purpose: the light Run Marquez puts on a job node of its table lineage (JobData.latestRun): the run,
//   its job and its job version, without facets or dataset versions (Marquez 0.50 leaves them out
//   there too), so a lineage answer of thousands of jobs reads one row per job (batch).
// Parameters: $ids: list of run node ids
// Columns: run: {id, runId, state, startedAt, endedAt, firstSeen, lastSeen, nominalStartTime, nominalEndTime,
//   facets: []}, job: {id, namespace, name}, versionId (or null), inputs: [], outputs: []; ids not found are absent
UNWIND $ids AS id
MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
WITH r, j ORDER BY j.id
WITH r, head(collect(j)) AS j
RETURN r {.id, .runId, .state, .startedAt, .endedAt, .firstSeen, .lastSeen, .nominalStartTime, .nominalEndTime, facets: []} AS run,
       j {.id, .namespace, .name} AS job,
       COLLECT { MATCH (r)-[:OF_VERSION]->(v:JobVersion) RETURN v.id LIMIT 1 }[0] AS versionId,
       [] AS inputs, [] AS outputs
