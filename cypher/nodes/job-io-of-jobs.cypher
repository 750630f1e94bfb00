// Purpose: the datasets each job reads (FEEDS) and writes (PRODUCES), as ever recorded (DataLoader batch).
// Parameters: $ids: list of job ids
// Columns: jobId, inputs: list of dataset ids (sorted), outputs: list of dataset ids (sorted)
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (j:Job {id: id})
RETURN id AS jobId,
       COLLECT { MATCH (d:Dataset)-[:FEEDS]->(j) RETURN d.id ORDER BY d.id } AS inputs,
       COLLECT { MATCH (j)-[:PRODUCES]->(d:Dataset) RETURN d.id ORDER BY d.id } AS outputs
