// Purpose: what a dataset node of Marquez's table lineage (DatasetData) needs, for thousands of
//   datasets in one read: the dataset, its schema facet (the only facet read: it orders the fields),
//   its fields with their tags, its tags and when its newest version was written (the run that wrote
//   it last, by OUTPUT_TO firstSeen). No other facets, input facets or column lineage
//   (datasets-detail.cypher has those).
// Parameters: $ids: list of dataset ids
// Columns: dataset: {id, namespace, name, description, sourceName, lifecycleState, firstSeen, lastSeen,
//   facets: [['schema', JSON text]] or []}, fields: list of [name, type, description, tags] by name,
//   tags, hidden: false, latestWrite: {runId, at} or null, inputFacets: [], columnLineage: [];
//   ids not found are absent
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
OPTIONAL MATCH (a:Annotation {id: id})
WITH d, a, [i IN range(0, size(coalesce(d.facetKeys, [])) - 1) WHERE d.facetKeys[i] = 'schema' AND d.facetValues[i] <> '' | ['schema', d.facetValues[i]]] AS facets
RETURN d {.id, .namespace, .name, .description, .sourceName, .lifecycleState, .firstSeen, .lastSeen, facets: facets} AS dataset,
       COLLECT { WITH d, COLLECT { MATCH (fa:Annotation {datasetId: d.id}) RETURN [fa.id, fa.tags] } AS notes
                 MATCH (d)-[:HAS_FIELD]->(f:Field)
                 WITH f, notes ORDER BY f.name
                 RETURN [f.name, f.type, f.description, coalesce([n IN notes WHERE n[0] = f.id | n[1]][0], [])] } AS fields,
       coalesce(a.tags, []) AS tags,
       false AS hidden,
       COLLECT { MATCH (w:Run)-[o:OUTPUT_TO]->(d) RETURN {runId: w.id, at: o.firstSeen} ORDER BY o.firstSeen DESC, w.id DESC LIMIT 1 }[0] AS latestWrite,
       [] AS inputFacets,
       [] AS columnLineage
