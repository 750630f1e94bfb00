// Purpose: keep, per node (or run-level edge) and facet key, the facet of the latest event. Facets
//   live in three parallel lists sorted by key, so producer-chosen keys never become Neo4j property
//   keys: `facetKeys`, `facetValues` (the JSON; '' once an event deleted it with _deleted: true) and
//   `facetTimes` (that event's time). Ties go to the larger JSON (a deletion counts as ''), then to
//   what is stored. The typed properties derived from a facet (derive.ts: description, owners,
//   integration, ...) follow their facet. Commutative; mirrors mergeFacets() in
//   src/ingest/compact.ts. Nodes and edges must exist; a node or edge appears once per call.
// Parameters: $jobs, $datasets, $runs: lists of {id, facets}; $inputs, $outputs: lists of
//   {runId, datasetId, facets}; each facet {key, value (JSON or null), at, derived (map)}, keys
//   unique per row (compact.ts); a list with nothing to merge is one row of NO_NODE_ID ids, which
//   matches nothing (src/ids.ts rowsOrNone: the plan is then the same whichever lists are empty)
// Columns: none
// Warm-up: {"jobs": [{"listOf": {"id": "-"}, "sizes": [1, 10]}], "datasets": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100]}], "runs": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100]}], "inputs": [{"listOf": {"runId": "-"}, "sizes": [1]}], "outputs": [{"listOf": {"runId": "-"}, "sizes": [1]}]}
// Warm-up transaction: after-write
CALL () {
  UNWIND $jobs AS x
  MATCH (n:Job {id: x.id})
  RETURN n, x.facets AS incoming
  UNION ALL
  UNWIND $datasets AS x
  MATCH (n:Dataset {id: x.id})
  RETURN n, x.facets AS incoming
  UNION ALL
  UNWIND $runs AS x
  MATCH (n:Run {id: x.id})
  RETURN n, x.facets AS incoming
  UNION ALL
  UNWIND $inputs AS x
  MATCH (:Dataset {id: x.datasetId})-[n:INPUT_TO]->(:Run {id: x.runId})
  RETURN n, x.facets AS incoming
  UNION ALL
  UNWIND $outputs AS x
  MATCH (:Run {id: x.runId})-[n:OUTPUT_TO]->(:Dataset {id: x.datasetId})
  RETURN n, x.facets AS incoming
}
WITH n, incoming WHERE size(incoming) > 0
CALL (n, incoming) {
  WITH coalesce(n.facetKeys, []) AS ks, coalesce(n.facetValues, []) AS vs, coalesce(n.facetTimes, []) AS ts
  UNWIND [i IN range(0, size(ks) - 1) | {key: ks[i], value: vs[i], at: ts[i], stored: true, derived: {}}]
       + [f IN incoming | {key: f.key, value: coalesce(f.value, ''), at: f.at, stored: false, derived: f.derived}] AS e
  WITH e ORDER BY e.key, e.at DESC, e.value DESC, e.stored DESC
  WITH e.key AS key, head(collect(e)) AS winner
  ORDER BY key
  RETURN collect(winner) AS merged
}
WITH n, merged, [w IN merged WHERE NOT w.stored] AS won
WHERE size(won) > 0
SET n.facetKeys = [w IN merged | w.key], n.facetValues = [w IN merged | w.value], n.facetTimes = [w IN merged | w.at]
FOREACH (w IN won | SET n += w.derived)
