// Purpose: dataset lookup by id (DataLoader batch).
// Parameters: $ids: list of dataset ids
// Columns: dataset: {id, namespace, name, the properties derived from facets (description, owners,
//   sourceName, sourceUri, lifecycleState, storageLayer, fileFormat, datasetVersion, datasetType),
//   firstSeen, lastSeen, rawNames, normalisations, facets: list of [key, JSON text] in key order, deleted facets left out,
//   annotation: {tags, hiddenAt} written through Marquez's API (cypher/marquez/annotate.cypher) or null}; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
RETURN d {.id, .namespace, .name, .description, .owners, .sourceName, .sourceUri, .lifecycleState,
          .storageLayer, .fileFormat, .datasetVersion, .datasetType, .firstSeen, .lastSeen, .rawNames,
          .normalisations,
          annotation: COLLECT { MATCH (a:Annotation {id: d.id}) RETURN a {.tags, .hiddenAt} }[0],
          facets: [i IN range(0, size(coalesce(d.facetKeys, [])) - 1) WHERE d.facetValues[i] <> '' | [d.facetKeys[i], d.facetValues[i]]]} AS dataset
