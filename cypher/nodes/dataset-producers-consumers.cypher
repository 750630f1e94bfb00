// Purpose: the jobs that write (PRODUCES) and read (FEEDS) each dataset (DataLoader batch).
// Parameters: $ids: list of dataset ids
// Columns: datasetId, producers: list of job ids (sorted), consumers: list of job ids (sorted)
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
RETURN id AS datasetId,
       COLLECT { MATCH (j:Job)-[:PRODUCES]->(d) RETURN j.id ORDER BY j.id } AS producers,
       COLLECT { MATCH (d)-[:FEEDS]->(j:Job) RETURN j.id ORDER BY j.id } AS consumers
