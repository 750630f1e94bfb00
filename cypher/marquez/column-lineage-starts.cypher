// Purpose: where Marquez's column lineage starts (GET /api/v1/column-lineage): every field of a
//   dataset, one field, or the fields a job currently writes (its current PRODUCES datasets' fields).
// Parameters: $datasetId, $fieldId, $jobId: one of them set, the others '' (NO_NODE_ID: one plan for
//   all three); $limit: most fields
// Columns: id, namespace, name, datasetId (one row per field, by id)
// Warm-up: {"datasetId": ["-"], "fieldId": [""], "jobId": [""], "limit": [1000]}
CALL () {
  MATCH (:Dataset {id: $datasetId})-[:HAS_FIELD]->(f:Field) RETURN f
  UNION
  MATCH (f:Field {id: $fieldId}) RETURN f
  UNION
  MATCH (:Job {id: $jobId})-[e:PRODUCES]->(:Dataset)-[:HAS_FIELD]->(f:Field) WHERE e.current RETURN f
}
MATCH (d:Dataset {id: f.datasetId})
RETURN f.id AS id, d.namespace AS namespace, f.name AS name, f.datasetId AS datasetId
ORDER BY id
LIMIT toInteger($limit)
