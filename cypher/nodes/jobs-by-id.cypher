// Purpose: job lookup by id (DataLoader batch).
// Parameters: $ids: list of job ids
// Columns: job: {id, namespace, name, the properties derived from facets (description, integration,
//   processingType, jobType, owners, sql, sourceCodeUrl, sourceCodeLanguage), firstSeen, lastSeen,
//   ioAt, Tributary's job marks (retiredAt, collectedBy, lineageUnknown: src/ingest/derive.ts), facets: list of [key, JSON text] in key order, deleted facets left out,
//   annotation: {tags, hiddenAt} written through Marquez's API (cypher/marquez/annotate.cypher) or null}; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (j:Job {id: id})
RETURN j {.id, .namespace, .name, .description, .integration, .processingType, .jobType, .owners, .sql,
          .sourceCodeUrl, .sourceCodeLanguage, .firstSeen, .lastSeen, .ioAt, .retiredAt, .collectedBy, .lineageUnknown,
          annotation: COLLECT { MATCH (a:Annotation {id: j.id}) RETURN a {.tags, .hiddenAt} }[0],
          facets: [i IN range(0, size(coalesce(j.facetKeys, [])) - 1) WHERE j.facetValues[i] <> '' | [j.facetKeys[i], j.facetValues[i]]]} AS job
