// Purpose: run lookup by id (DataLoader batch), with the id of its job.
// Parameters: $ids: list of run ids
// Columns: run: {id, runId, state, startedAt, endedAt, stateAt, firstSeen, lastSeen, facets (JSON text), jobId};
//   ids not found are absent
UNWIND $ids AS id
MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
RETURN r {.id, .runId, .state, .startedAt, .endedAt, .stateAt, .firstSeen, .lastSeen, .facets, jobId: j.id} AS run
