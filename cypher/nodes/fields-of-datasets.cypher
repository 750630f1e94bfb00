// Purpose: the fields of datasets (DataLoader batch), ordered by name.
// Parameters: $ids: list of dataset ids
// Columns: datasetId, fields: list of {id, name, type, description, tags (written through Marquez's API)}
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (:Dataset {id: id})-[:HAS_FIELD]->(f:Field)
WITH id, f ORDER BY f.name
RETURN id AS datasetId, collect(f {.id, .name, .type, .description, datasetId: id,
                                  tags: coalesce(COLLECT { MATCH (a:Annotation {id: f.id}) RETURN a.tags }[0], [])}) AS fields
