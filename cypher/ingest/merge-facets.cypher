// Purpose: keep, per node (or run-level edge) and facet key, the facet of the latest event:
//   `facet.<key>` holds its JSON (removed when an event deletes the facet with _deleted: true) and
//   `facetAt.<key>` that event's time; ties go to the larger JSON (a deletion counts as ''). The
//   typed properties derived from a facet (derive.ts: description, owners, integration, ...) follow
//   their facet. Commutative; mirrors mergeFacets() in src/ingest/compact.ts. Nodes and edges must exist.
// Parameters: $jobs, $datasets, $runs: lists of {id, facets}; $inputs, $outputs: lists of
//   {runId, datasetId, facets}; each facet {key, value (JSON or null), at, derived (map)}
// Columns: none
// Warm-up: {"jobs": [{"listOf": {"id": "-"}, "sizes": [1, 10]}], "datasets": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100]}], "runs": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100]}], "inputs": [[]], "outputs": [[]]}
CALL () {
  UNWIND $jobs AS x
  MATCH (n:Job {id: x.id})
  UNWIND x.facets AS f
  WITH n, f, n['facetAt.' + f.key] AS at0, n['facet.' + f.key] AS v0
  WHERE at0 IS NULL OR f.at > at0 OR (f.at = at0 AND coalesce(f.value, '') > coalesce(v0, ''))
  SET n['facet.' + f.key] = f.value, n['facetAt.' + f.key] = f.at, n += f.derived
}
CALL () {
  UNWIND $datasets AS x
  MATCH (n:Dataset {id: x.id})
  UNWIND x.facets AS f
  WITH n, f, n['facetAt.' + f.key] AS at0, n['facet.' + f.key] AS v0
  WHERE at0 IS NULL OR f.at > at0 OR (f.at = at0 AND coalesce(f.value, '') > coalesce(v0, ''))
  SET n['facet.' + f.key] = f.value, n['facetAt.' + f.key] = f.at, n += f.derived
}
CALL () {
  UNWIND $runs AS x
  MATCH (n:Run {id: x.id})
  UNWIND x.facets AS f
  WITH n, f, n['facetAt.' + f.key] AS at0, n['facet.' + f.key] AS v0
  WHERE at0 IS NULL OR f.at > at0 OR (f.at = at0 AND coalesce(f.value, '') > coalesce(v0, ''))
  SET n['facet.' + f.key] = f.value, n['facetAt.' + f.key] = f.at, n += f.derived
}
CALL () {
  UNWIND $inputs AS x
  MATCH (:Dataset {id: x.datasetId})-[e:INPUT_TO]->(:Run {id: x.runId})
  UNWIND x.facets AS f
  WITH e, f, e['facetAt.' + f.key] AS at0, e['facet.' + f.key] AS v0
  WHERE at0 IS NULL OR f.at > at0 OR (f.at = at0 AND coalesce(f.value, '') > coalesce(v0, ''))
  SET e['facet.' + f.key] = f.value, e['facetAt.' + f.key] = f.at
}
CALL () {
  UNWIND $outputs AS x
  MATCH (:Run {id: x.runId})-[e:OUTPUT_TO]->(:Dataset {id: x.datasetId})
  UNWIND x.facets AS f
  WITH e, f, e['facetAt.' + f.key] AS at0, e['facet.' + f.key] AS v0
  WHERE at0 IS NULL OR f.at > at0 OR (f.at = at0 AND coalesce(f.value, '') > coalesce(v0, ''))
  SET e['facet.' + f.key] = f.value, e['facetAt.' + f.key] = f.at
}
