// Purpose: which of the candidate ids name a dataset, job or field (Marquez's raw node ids split at
//   each possible ':' become candidates, src/marquez/node-ids.ts), by index lookup.
// Parameters: $datasetIds, $jobIds, $fieldIds: candidate ids of each kind (none: [""], NO_NODE_ID)
// Columns: id (one row per existing id)
// Warm-up: {"datasetIds": [{"listOf": "-", "sizes": [1, 10]}], "jobIds": [{"listOf": "-", "sizes": [1]}], "fieldIds": [{"listOf": "-", "sizes": [1]}]}
CALL () {
  UNWIND $datasetIds AS id MATCH (n:Dataset {id: id}) RETURN n.id AS id
  UNION
  UNWIND $jobIds AS id MATCH (n:Job {id: id}) RETURN n.id AS id
  UNION
  UNWIND $fieldIds AS id MATCH (n:Field {id: id}) RETURN n.id AS id
}
RETURN id
