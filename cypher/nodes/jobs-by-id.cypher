// Purpose: job lookup by id (DataLoader batch).
// Parameters: $ids: list of job ids
// Columns: job: {id, namespace, name, the properties derived from facets (description, integration,
//   processingType, jobType, owners, sql, sourceCodeUrl, sourceCodeLanguage), firstSeen, lastSeen,
//   ioAt, Tributary's job marks (retiredAt, collectedBy, lineageUnknown: src/ingest/derive.ts), facets: list of [key, JSON text] in key order, deleted facets left out}; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (j:Job {id: id})
RETURN j {.id, .namespace, .name, .description, .integration, .processingType, .jobType, .owners, .sql,
          .sourceCodeUrl, .sourceCodeLanguage, .firstSeen, .lastSeen, .ioAt, .retiredAt, .collectedBy, .lineageUnknown,
          facets: [i IN range(0, size(coalesce(j.facetKeys, [])) - 1) WHERE j.facetValues[i] <> '' | [j.facetKeys[i], j.facetValues[i]]]} AS job
