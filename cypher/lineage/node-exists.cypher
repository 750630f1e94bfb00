// Purpose: the start node of a traversal, by id and kind (index lookup on the kind's label).
// Parameters: $datasetId, $jobId: the id under its kind, the other null
// Columns: node: {id, kind, namespace, name}; no row when absent
CALL () {
  MATCH (d:Dataset {id: $datasetId})
  RETURN {id: d.id, kind: 'DATASET', namespace: d.namespace, name: d.name} AS node
  UNION ALL
  MATCH (j:Job {id: $jobId})
  RETURN {id: j.id, kind: 'JOB', namespace: j.namespace, name: j.name} AS node
}
RETURN node
