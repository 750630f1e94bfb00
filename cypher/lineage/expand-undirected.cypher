// Purpose: one breadth-first step of an UNDIRECTED walk at dataset/job granularity (Marquez's table
//   lineage, src/marquez): from a dataset to every job that currently reads it (FEEDS) or writes it
//   (PRODUCES), from a job to every dataset it currently reads or writes, so siblings (other readers
//   of an input, other writers of an output) are reached too. Symlinked names are not joined (no
//   ALIAS rows). Soft-deleted neighbours (an Annotation whose hiddenAt is at or after the node's
//   lastSeen) are left out. Current edges only.
// Parameters: $datasetIds, $jobIds: the frontier, split by kind (an empty side as [""], NO_NODE_ID); $previousIds: the frontier of the
//   hop before, whose edges to this frontier were that hop's rows (left out here: the walk meets
//   each edge once, which halves the rows of a whole-graph answer); $limit: maximum rows;
//   $follow: edge kinds to follow, of 'FEEDS', 'PRODUCES', 'COLLECTED' (without it, the edges of jobs
//   whose lineage Tributary collected are left out); $asOf, $indirect, $metadata: ignored
// Columns: fromId, toId (edge in data-flow direction), type ('FEEDS' | 'PRODUCES'), firstSeen, lastSeen
//   (always null: Marquez's lineage has no edge times, and a 20,000-node answer meets 56,000 rows), declared, current, node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}, evidence ('REPORTED' | 'COLLECTED')
// One expansion per frontier node over both edge kinds (a dataset's relationship chain, mostly its
// fields, is walked once, not once per kind); the edge's start node says which way data flows.
// Warm-up: [{"datasetIds": [{"listOf": "-", "sizes": [1, 100]}], "jobIds": [{"listOf": "-", "sizes": [1]}], "previousIds": [{"listOf": "-", "sizes": [1, 100]}], "asOf": [null], "follow": [["FEEDS", "PRODUCES", "COLLECTED"]], "indirect": [true], "metadata": [{"-": ["-"]}], "limit": [1]}, {"datasetIds": [{"listOf": "-", "sizes": [1]}], "jobIds": [{"listOf": "-", "sizes": [100]}], "previousIds": [{"listOf": "-", "sizes": [1, 100]}], "asOf": [null], "follow": [["FEEDS", "PRODUCES", "COLLECTED"]], "indirect": [true], "metadata": [{"-": ["-"]}], "limit": [1]}]
CALL () {
  UNWIND $datasetIds AS id
  MATCH (d:Dataset {id: id})-[e:FEEDS|PRODUCES]-(n:Job)
  WHERE e.current AND type(e) IN $follow
  WITH d, e, n, startNode(e) = d AS out
  RETURN CASE WHEN out THEN d.id ELSE n.id END AS fromId, CASE WHEN out THEN n.id ELSE d.id END AS toId, type(e) AS type, e, n, 'JOB' AS kind
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (j:Job {id: id})-[e:FEEDS|PRODUCES]-(n:Dataset)
  WHERE e.current AND type(e) IN $follow AND (j.collectedBy IS NULL OR 'COLLECTED' IN $follow)
  WITH j, e, n, startNode(e) = j AS out
  RETURN CASE WHEN out THEN j.id ELSE n.id END AS fromId, CASE WHEN out THEN n.id ELSE j.id END AS toId, type(e) AS type, e, n, 'DATASET' AS kind
}
WITH fromId, toId, type, e, n, kind
WHERE NOT n.id IN $previousIds
  AND (kind = 'DATASET' OR n.collectedBy IS NULL OR 'COLLECTED' IN $follow)
  AND NOT EXISTS { MATCH (a:Annotation {id: n.id}) WHERE a.hiddenAt >= n.lastSeen }
RETURN fromId, toId, type, null AS firstSeen, null AS lastSeen, coalesce(e.declared, true) AS declared,
       true AS current, {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node,
       CASE WHEN n.collectedBy IS NOT NULL THEN 'COLLECTED' ELSE 'REPORTED' END AS evidence
LIMIT toInteger($limit)
