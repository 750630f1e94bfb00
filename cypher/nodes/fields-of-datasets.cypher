// Purpose: the fields of datasets (DataLoader batch), ordered by name.
//   Field tags are read from the Annotations of the dataset's fields (one index lookup per dataset).
// Parameters: $ids: list of dataset ids
// Columns: datasetId, fields: list of {id, name, type, description, tags (written through Marquez's API)}
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
CALL (id) { MATCH (a:Annotation {datasetId: id}) RETURN collect([a.id, a.tags]) AS notes }
MATCH (:Dataset {id: id})-[:HAS_FIELD]->(f:Field)
WITH id, notes, f ORDER BY f.name
RETURN id AS datasetId, collect(f {.id, .name, .type, .description, datasetId: id,
                                  tags: coalesce([n IN notes WHERE n[0] = f.id | n[1]][0], [])}) AS fields
