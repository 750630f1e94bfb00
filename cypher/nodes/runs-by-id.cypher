// Purpose: run lookup by id (DataLoader batch), with its job and its parent and root runs.
// Parameters: $ids: list of run ids
// Columns: run: {id, runId, state, startedAt, endedAt, stateAt, firstSeen, lastSeen, the properties
//   derived from facets (nominalStartTime, nominalEndTime, engineName, engineVersion, errorMessage,
//   externalQueryId), facets: list of [key, JSON text] in key order, deleted facets left out, jobId, parentRunId, rootRunId, versionId};
//   ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
WITH r, min(j.id) AS jobId
RETURN r {.id, .runId, .state, .startedAt, .endedAt, .stateAt, .firstSeen, .lastSeen, .nominalStartTime,
          .nominalEndTime, .engineName, .engineVersion, .errorMessage, .externalQueryId,
          facets: [i IN range(0, size(coalesce(r.facetKeys, [])) - 1) WHERE r.facetValues[i] <> '' | [r.facetKeys[i], r.facetValues[i]]],
          jobId: jobId,
          parentRunId: COLLECT { MATCH (r)-[:PARENT]->(p:Run) RETURN p.id ORDER BY p.id LIMIT 1 }[0],
          rootRunId: COLLECT { MATCH (r)-[:ROOT]->(p:Run) RETURN p.id ORDER BY p.id LIMIT 1 }[0],
          versionId: COLLECT { MATCH (r)-[:OF_VERSION]->(v:JobVersion) RETURN v.id LIMIT 1 }[0]} AS run
