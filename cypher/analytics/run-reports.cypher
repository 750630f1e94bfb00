// Purpose: what given runs reported about given datasets (kept by merge-inputs / merge-outputs):
//   the schema's field paths, and for outputs the column-lineage pairs (JSON [inputFieldId,
//   outputField or null]). For a lineage diff, only for the edges whose runs differ between its ends.
// Parameters: $edges: list of {runId, datasetId, direction ('INPUT' | 'OUTPUT')}
// Columns: runId, datasetId, direction, fields (null: not recorded), cllPairs (OUTPUT only, else null);
//   no row for an edge that does not exist
// Warm-up: {"edges": [{"listOf": {"runId": "-", "datasetId": "-", "direction": "OUTPUT"}, "sizes": [1, 10, 100, 1000]}]}
UNWIND $edges AS x
MATCH (r:Run {id: x.runId})
CALL (r, x) {
  WITH r, x WHERE x.direction = 'OUTPUT'
  MATCH (r)-[o:OUTPUT_TO]->(:Dataset {id: x.datasetId})
  RETURN o.fields AS fields, o.cllPairs AS cllPairs
  UNION ALL
  WITH r, x WHERE x.direction = 'INPUT'
  MATCH (:Dataset {id: x.datasetId})-[i:INPUT_TO]->(r)
  RETURN i.fields AS fields, null AS cllPairs
}
RETURN x.runId AS runId, x.datasetId AS datasetId, x.direction AS direction, fields, cllPairs
