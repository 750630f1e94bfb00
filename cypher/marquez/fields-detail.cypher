// Purpose: what Marquez's column-lineage node needs of each field (batch): its dataset's namespace and
//   name, its type, and the current DERIVES edges into it (whose job still reads the input's dataset)
//   with their input fields and transformations.
// Parameters: $ids: list of field ids
// Columns: id, namespace, dataset, field, type, inputs: list of {id, namespace, dataset, field,
//   transformations (JSON text or null)} ordered by input id; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100]}]}
UNWIND $ids AS id
MATCH (f:Field {id: id})
MATCH (d:Dataset {id: f.datasetId})
RETURN f.id AS id, d.namespace AS namespace, d.name AS dataset, f.name AS field, f.type AS type,
       COLLECT { MATCH (i:Field)-[e:DERIVES]->(f)
                 MATCH (sd:Dataset {id: i.datasetId})
                 WHERE EXISTS { MATCH (sd)-[:FEEDS {current: true}]->(:Job {id: e.jobId}) }
                 RETURN {id: i.id, namespace: sd.namespace, dataset: sd.name, field: i.name, transformations: e.transformations}
                 ORDER BY i.id } AS inputs
