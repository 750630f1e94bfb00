// Purpose: the start node of a traversal, by id and kind (index lookup on the kind's label). A field
//   id that names no Field resolves under any SYMLINKed name of its dataset: the field of the same
//   name there (the first by id), so a field is found whichever name of its dataset the caller uses.
// Parameters: $datasetId, $jobId, $fieldId: the id under its kind, the others '' (NO_NODE_ID, one
//   plan for every kind); for a field also $fieldDatasetId (the id of the dataset its id names) and
//   $fieldName, else ''
// Columns: node: {id, kind, namespace, name, datasetId (fields only)}; no row when absent
// Warm-up: {"datasetId": ["-"], "fieldId": [""], "jobId": [""], "fieldDatasetId": [""], "fieldName": [""]}
CALL () {
  MATCH (d:Dataset {id: $datasetId})
  RETURN {id: d.id, kind: 'DATASET', namespace: d.namespace, name: d.name} AS node
  UNION ALL
  MATCH (j:Job {id: $jobId})
  RETURN {id: j.id, kind: 'JOB', namespace: j.namespace, name: j.name} AS node
  UNION ALL
  MATCH (f:Field {id: $fieldId})
  MATCH (d:Dataset {id: f.datasetId})
  RETURN {id: f.id, kind: 'FIELD', namespace: d.namespace, name: f.name, datasetId: f.datasetId} AS node
  UNION ALL
  WITH 1 AS one WHERE $fieldId <> '' AND NOT EXISTS { MATCH (:Field {id: $fieldId}) }
  MATCH (:Dataset {id: $fieldDatasetId})-[:SYMLINK]-(d:Dataset)-[:HAS_FIELD]->(f:Field {name: $fieldName})
  WITH d, f ORDER BY f.id LIMIT 1
  RETURN {id: f.id, kind: 'FIELD', namespace: d.namespace, name: f.name, datasetId: f.datasetId} AS node
}
RETURN node
