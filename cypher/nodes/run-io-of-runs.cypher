// Purpose: the datasets each run read (INPUT_TO) and wrote (OUTPUT_TO) (DataLoader batch).
// Parameters: $ids: list of run ids
// Columns: runId, inputs: list of dataset ids (sorted), outputs: list of dataset ids (sorted)
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (r:Run {id: id})
RETURN id AS runId,
       COLLECT { MATCH (d:Dataset)-[:INPUT_TO]->(r) RETURN d.id ORDER BY d.id } AS inputs,
       COLLECT { MATCH (r)-[:OUTPUT_TO]->(d:Dataset) RETURN d.id ORDER BY d.id } AS outputs
