// Purpose: what Marquez's Dataset shape needs of each dataset (batch): the dataset, its facets, its
//   fields with their tags, its tags, whether it is soft-deleted (Annotation hiddenAt at or after its
//   lastSeen), its newest version (the run that wrote it last, by OUTPUT_TO firstSeen) and when that
//   run wrote it, and its column lineage: per field, the input fields of the current DERIVES edges
//   into it (whose job still reads the input's dataset), with their transformations.
// Parameters: $ids: list of dataset ids; $withColumnLineage (boolean; false: columnLineage is [])
// Columns: dataset: {id, namespace, name, description, sourceName, lifecycleState, firstSeen, lastSeen,
//   facets: list of [key, JSON text]}, fields: list of {name, type, description, tags} by name, tags,
//   hidden (boolean), latestWrite: {runId, at} or null, inputFacets: list of [key, JSON text] (the input facets of
//   the latest read: inputStatistics, dataQualityAssertions, ...),
//   columnLineage: list of {field, inputs: list of {namespace, dataset, field, transformations (JSON text or null)}}
//   by field, inputs by dataset and field; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100]}], "withColumnLineage": [true, false]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
OPTIONAL MATCH (a:Annotation {id: id})
RETURN d {.id, .namespace, .name, .description, .sourceName, .lifecycleState, .firstSeen, .lastSeen,
          facets: [i IN range(0, size(coalesce(d.facetKeys, [])) - 1) WHERE d.facetValues[i] <> '' | [d.facetKeys[i], d.facetValues[i]]]} AS dataset,
       COLLECT { WITH d, COLLECT { MATCH (fa:Annotation {datasetId: d.id}) RETURN [fa.id, fa.tags] } AS notes
                 MATCH (d)-[:HAS_FIELD]->(f:Field)
                 WITH f, notes ORDER BY f.name
                 RETURN f {.name, .type, .description, tags: coalesce([n IN notes WHERE n[0] = f.id | n[1]][0], [])} } AS fields,
       coalesce(a.tags, []) AS tags,
       coalesce(a.hiddenAt >= d.lastSeen, false) AS hidden,
       COLLECT { MATCH (w:Run)-[o:OUTPUT_TO]->(d) RETURN {runId: w.id, at: o.firstSeen} ORDER BY o.firstSeen DESC, w.id DESC LIMIT 1 }[0] AS latestWrite,
       COLLECT { MATCH (d)-[e:INPUT_TO]->(:Run) WITH e ORDER BY e.lastSeen DESC LIMIT 1
                 UNWIND range(0, size(coalesce(e.facetKeys, [])) - 1) AS i
                 WITH e, i WHERE e.facetValues[i] <> ''
                 RETURN [e.facetKeys[i], e.facetValues[i]] } AS inputFacets,
       CASE WHEN NOT $withColumnLineage THEN [] ELSE COLLECT { MATCH (d)-[:HAS_FIELD]->(f:Field)
                 WITH f, COLLECT { MATCH (i:Field)-[e:DERIVES]->(f)
                                   MATCH (sd:Dataset {id: i.datasetId})
                                   WHERE EXISTS { MATCH (sd)-[:FEEDS {current: true}]->(:Job {id: e.jobId}) }
                                   RETURN {namespace: sd.namespace, dataset: sd.name, field: i.name, transformations: e.transformations}
                                   ORDER BY sd.namespace, sd.name, i.name } AS inputs
                 WHERE size(inputs) > 0
                 RETURN {field: f.name, inputs: inputs} ORDER BY f.name } END AS columnLineage
