// Purpose: expand-upstream.cypher's step as of $asOf: the edges that counted then, as
//   expand-downstream-as-of.cypher says. ALIAS rows as in expand-upstream.cypher.
// Parameters: $datasetIds, $jobIds, $limit, $follow: as in expand-upstream.cypher; $asOf: ISO time
// Cost: the job's latest run by then is found first, then the edge's run by its id (an index seek
//   per edge); comparing each run of the dataset with it cost 300 to 4,500 db hits on the profile
//   graph (test/cypher/profile.test.ts), as Neo4j planned it.
// Columns: as in expand-upstream.cypher
// Warm-up pass: second
// Warm-up: [{"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "jobIds": [{"listOf": "-", "sizes": [1]}], "asOf": ["2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "COLLECTED"]]}, {"datasetIds": [{"listOf": "-", "sizes": [1]}], "jobIds": [{"listOf": "-", "sizes": [10, 100, 1000, 10000]}], "asOf": ["2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "COLLECTED"]]}]
CALL () {
  UNWIND $datasetIds AS id
  MATCH (:Dataset {id: id})-[e:SYMLINK]-(n:Dataset)
  WHERE 'ALIAS' IN $follow
  RETURN 0 AS ord, id AS fromId, n.id AS toId, 'ALIAS' AS type, e, n, 'DATASET' AS kind, false AS collected
  UNION ALL
  UNWIND $datasetIds AS id
  MATCH (d:Dataset {id: id})
  CALL (d) {
    RETURN d AS m
    UNION
    MATCH (d)-[:SYMLINK]-(m:Dataset) WHERE 'ALIAS' IN $follow RETURN m
  }
  MATCH (n:Job)-[e:PRODUCES]->(m)
  WHERE type(e) IN $follow AND (n.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.firstSeen <= $asOf
  WITH m, n, e, CASE WHEN e.lastRunId IS NOT NULL THEN COLLECT {
         MATCH (n)<-[:RUN_OF]-(q:Run) WHERE q.ioFrom <= $asOf
         RETURN q.id ORDER BY q.ioFrom DESC, q.id DESC LIMIT 1 }[0] END AS latestRun
  WHERE e.lastRunId IS NULL OR EXISTS { MATCH (:Run {id: latestRun})-[:OUTPUT_TO]->(m) }
  RETURN 1 AS ord, n.id AS fromId, m.id AS toId, 'PRODUCES' AS type, e, n, 'JOB' AS kind, n.collectedBy IS NOT NULL AS collected
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (n:Dataset)-[e:FEEDS]->(j:Job {id: id})
  WHERE type(e) IN $follow AND (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.firstSeen <= $asOf
  WITH id, n, e, j, CASE WHEN e.lastRunId IS NOT NULL THEN COLLECT {
         MATCH (j)<-[:RUN_OF]-(q:Run) WHERE q.ioFrom <= $asOf
         RETURN q.id ORDER BY q.ioFrom DESC, q.id DESC LIMIT 1 }[0] END AS latestRun
  WHERE e.lastRunId IS NULL OR EXISTS { MATCH (n)-[:INPUT_TO]->(:Run {id: latestRun}) }
  RETURN 1 AS ord, n.id AS fromId, id AS toId, 'FEEDS' AS type, e, n, 'DATASET' AS kind, j.collectedBy IS NOT NULL AS collected
}
WITH ord, fromId, toId, type, e, n, kind, collected ORDER BY ord
RETURN fromId, toId, type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       coalesce(e.current, true) AS current, {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node,
       CASE WHEN type = 'PRODUCES' THEN e.outputFields END AS outputFields,
       CASE WHEN type = 'PRODUCES' THEN e.fieldsWithInputs END AS fieldsWithInputs,
       CASE WHEN collected THEN 'COLLECTED' ELSE 'REPORTED' END AS evidence
LIMIT toInteger($limit)
