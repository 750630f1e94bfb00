// Purpose: run-level lineage of each given run. Upstream: for each dataset the run read, the run
//   that last wrote it before this run read it (the data it read). Downstream: the runs that read a
//   dataset this run wrote after it wrote it and before any third run wrote it again.
// Parameters: $runIds: list of run ids; $limit: maximum rows per run and direction
// Columns: runId, upstream: list of {datasetId, runId}, downstream: list of {datasetId, runId}
// Warm-up: {"runIds": [{"listOf": "-", "sizes": [1, 10]}], "limit": [200]}
UNWIND $runIds AS id
MATCH (r:Run {id: id})
RETURN id AS runId,
  COLLECT {
    MATCH (d:Dataset)-[i:INPUT_TO]->(r)
    CALL (d, i, r) {
      MATCH (w:Run)-[o:OUTPUT_TO]->(d) WHERE w <> r AND o.firstSeen <= i.firstSeen
      RETURN w ORDER BY o.firstSeen DESC, w.id DESC LIMIT 1
    }
    RETURN {datasetId: d.id, runId: w.id} AS x ORDER BY x.datasetId LIMIT toInteger($limit)
  } AS upstream,
  COLLECT {
    MATCH (r)-[o:OUTPUT_TO]->(d:Dataset)-[i:INPUT_TO]->(c:Run)
    WHERE c <> r AND i.firstSeen >= o.firstSeen
      AND NOT EXISTS { MATCH (w:Run)-[o2:OUTPUT_TO]->(d) WHERE w <> r AND w <> c AND o2.firstSeen > o.firstSeen AND o2.firstSeen <= i.firstSeen }
    RETURN {datasetId: d.id, runId: c.id} AS x ORDER BY x.datasetId, x.runId LIMIT toInteger($limit)
  } AS downstream
