// Purpose: dataset lookup by id (DataLoader batch).
// Parameters: $ids: list of dataset ids
// Columns: dataset: {id, namespace, name, description, facets (JSON text), firstSeen, lastSeen}; ids not found are absent
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
RETURN d {.id, .namespace, .name, .description, .facets, .firstSeen, .lastSeen} AS dataset
