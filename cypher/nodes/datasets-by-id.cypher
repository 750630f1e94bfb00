// Purpose: dataset lookup by id (DataLoader batch).
// Parameters: $ids: list of dataset ids
// Columns: dataset: {id, namespace, name, the properties derived from facets (description, owners,
//   sourceName, sourceUri, lifecycleState, storageLayer, fileFormat, datasetVersion, datasetType),
//   firstSeen, lastSeen, rawNames, normalisations, facets: list of [key, JSON text] in key order, deleted facets left out}; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
RETURN d {.id, .namespace, .name, .description, .owners, .sourceName, .sourceUri, .lifecycleState,
          .storageLayer, .fileFormat, .datasetVersion, .datasetType, .firstSeen, .lastSeen, .rawNames,
          .normalisations,
          facets: [i IN range(0, size(coalesce(d.facetKeys, [])) - 1) WHERE d.facetValues[i] <> '' | [d.facetKeys[i], d.facetValues[i]]]} AS dataset
