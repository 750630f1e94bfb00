// Purpose: what a dataset node of Marquez's table lineage (DatasetData) needs, for thousands of
//   datasets in one read: the dataset, its schema facet (the only facet read: it orders the fields),
//   its fields, the tags of the dataset and of its fields, and the runs that wrote it (the caller
//   takes the newest: Marquez's lastModifiedAt). No other facets, input facets or column lineage
//   (datasets-detail.cypher has those). Rows are lists, not maps, and nothing is sorted here: a
//   20,000-node answer decodes about half as much (src/marquez/lineage-rows.ts reads them).
// Parameters: $ids: list of dataset ids
// Columns: dataset: [id, namespace, name, description, sourceName, lifecycleState, firstSeen,
//   lastSeen, schema facet JSON text or null]; names, types, descriptions: the fields' (same order,
//   unsorted); fieldTags: [[field id, tags]] of the fields that have an Annotation; tags: the
//   dataset's; writes: [[OUTPUT_TO firstSeen, run id]] unsorted; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 100, 1000]}]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
OPTIONAL MATCH (a:Annotation {id: id})
WITH d, a, [(d)-[:HAS_FIELD]->(f) | f] AS fields
RETURN [d.id, d.namespace, d.name, d.description, d.sourceName, d.lifecycleState, d.firstSeen, d.lastSeen,
        [i IN range(0, size(coalesce(d.facetKeys, [])) - 1) WHERE d.facetKeys[i] = 'schema' AND d.facetValues[i] <> '' | d.facetValues[i]][0]] AS dataset,
       [f IN fields | f.name] AS names,
       [f IN fields | f.type] AS types,
       [f IN fields | f.description] AS descriptions,
       COLLECT { MATCH (fa:Annotation {datasetId: d.id}) RETURN [fa.id, fa.tags] } AS fieldTags,
       coalesce(a.tags, []) AS tags,
       COLLECT { MATCH (w)-[o:OUTPUT_TO]->(d) RETURN [o.firstSeen, w.id] } AS writes
