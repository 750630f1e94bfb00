// Purpose: the fields of datasets (DataLoader batch), ordered by name.
// Parameters: $ids: list of dataset ids
// Columns: datasetId, fields: list of {id, name, type, description}
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (:Dataset {id: id})-[:HAS_FIELD]->(f:Field)
WITH id, f ORDER BY f.name
RETURN id AS datasetId, collect(f {.id, .name, .type, .description, datasetId: id}) AS fields
