// Purpose: the versions of each job (DataLoader batch): distinct combinations of inputs, outputs and
//   source code across its runs, newest first (lastSeen, then id).
// Parameters: $ids: list of job ids
// Columns: jobId, versions: list of {id, inputs, outputs, codeSig, firstSeen, lastSeen, runs}
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (:Job {id: id})-[:HAS_VERSION]->(v:JobVersion)
WITH id, v ORDER BY v.lastSeen DESC, v.id DESC
RETURN id AS jobId, collect(v {.id, .inputs, .outputs, .codeSig, .firstSeen, .lastSeen, .runs}) AS versions
