// Purpose: the start node of a traversal, by id and kind (index lookup on the kind's label).
// Parameters: $datasetId, $jobId, $fieldId: the id under its kind, the others null
// Columns: node: {id, kind, namespace, name, datasetId (fields only)}; no row when absent
// Warm-up: [{"datasetId": ["-"], "fieldId": [null], "jobId": [null]}, {"datasetId": [null], "fieldId": ["-"], "jobId": [null]}, {"datasetId": [null], "fieldId": [null], "jobId": ["-"]}]
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
}
RETURN node
