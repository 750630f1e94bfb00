// Purpose: what Marquez's Run shape needs of each run (batch): the run, its facets, its job, its job
//   version, and the datasets it read and wrote, each with the run-level facets of that read or
//   write and the run that made the version it names: for an output the run itself, for an input
//   the latest run that had written that dataset when this run began (none: the unversioned dataset).
// Parameters: $ids: list of run node ids
// Columns: run: {id, runId, state, startedAt, endedAt, firstSeen, lastSeen, nominalStartTime, nominalEndTime,
//   facets: list of [key, JSON text]}, job: {id, namespace, name}, versionId (or null), inputs, outputs:
//   lists of {datasetId, namespace, name, versionRunId (run node id or null), facets: list of [key, JSON text]} ordered by dataset id;
//   ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100]}]}
UNWIND $ids AS id
MATCH (r:Run {id: id})-[:RUN_OF]->(j:Job)
WITH r, j ORDER BY j.id
WITH r, head(collect(j)) AS j
RETURN r {.id, .runId, .state, .startedAt, .endedAt, .firstSeen, .lastSeen, .nominalStartTime, .nominalEndTime,
          facets: [i IN range(0, size(coalesce(r.facetKeys, [])) - 1) WHERE r.facetValues[i] <> '' | [r.facetKeys[i], r.facetValues[i]]]} AS run,
       j {.id, .namespace, .name} AS job,
       COLLECT { MATCH (r)-[:OF_VERSION]->(v:JobVersion) RETURN v.id LIMIT 1 }[0] AS versionId,
       COLLECT { MATCH (d:Dataset)-[e:INPUT_TO]->(r)
                 RETURN {datasetId: d.id, namespace: d.namespace, name: d.name,
                         versionRunId: COLLECT { MATCH (w:Run)-[o:OUTPUT_TO]->(d)
                                                 WHERE o.firstSeen <= coalesce(r.startedAt, r.firstSeen)
                                                 RETURN w.id ORDER BY o.firstSeen DESC, w.id DESC LIMIT 1 }[0],
                         facets: [i IN range(0, size(coalesce(e.facetKeys, [])) - 1) WHERE e.facetValues[i] <> '' | [e.facetKeys[i], e.facetValues[i]]]}
                 ORDER BY d.id } AS inputs,
       COLLECT { MATCH (r)-[e:OUTPUT_TO]->(d:Dataset)
                 RETURN {datasetId: d.id, namespace: d.namespace, name: d.name, versionRunId: r.id,
                         facets: [i IN range(0, size(coalesce(e.facetKeys, [])) - 1) WHERE e.facetValues[i] <> '' | [e.facetKeys[i], e.facetValues[i]]]}
                 ORDER BY d.id } AS outputs
