// Purpose: one breadth-first step UPSTREAM at dataset/job granularity, against data flow:
//   dataset → jobs that write it (PRODUCES), job → datasets it reads (FEEDS), over the current edges
//   (the job's latest IO report). A dataset and the datasets SYMLINKed to it (either direction) are
//   one logical dataset: their aliases come back as ALIAS rows (same distance) and the writers of
//   every alias are expanded in this same step. As of a time: expand-upstream-as-of.cypher (apart
//   for the reason expand-downstream.cypher gives).
// Parameters: $datasetIds, $jobIds: the frontier, split by kind (an empty side as [""], NO_NODE_ID); $limit: maximum rows;
//   $follow: edge kinds to follow, of 'FEEDS', 'PRODUCES', 'ALIAS' (without ALIAS, symlinked names are not joined),
//   'COLLECTED' (without it, the edges of jobs whose lineage Tributary collected are left out)
// Columns: fromId, toId (edge in data-flow direction, so toId is the frontier side; for ALIAS:
//   frontier dataset → alias), type ('ALIAS' | 'FEEDS' | 'PRODUCES'), firstSeen, lastSeen, declared,
//   current, node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}; ALIAS rows first;
//   outputFields, fieldsWithInputs: PRODUCES only, the coverage figures kept on the edge (null on
//   other types and on edges written before they were kept), evidence ('REPORTED' | 'COLLECTED': a collected job's edge)
// Warm-up: [{"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "jobIds": [{"listOf": "-", "sizes": [1]}], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "COLLECTED"]]}, {"datasetIds": [{"listOf": "-", "sizes": [1]}], "jobIds": [{"listOf": "-", "sizes": [10, 100, 1000, 10000]}], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "COLLECTED"]]}]
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
  WHERE type(e) IN $follow AND (n.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.current
  RETURN 1 AS ord, n.id AS fromId, m.id AS toId, 'PRODUCES' AS type, e, n, 'JOB' AS kind, n.collectedBy IS NOT NULL AS collected
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (n:Dataset)-[e:FEEDS]->(j:Job {id: id})
  WHERE type(e) IN $follow AND (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.current
  RETURN 1 AS ord, n.id AS fromId, id AS toId, 'FEEDS' AS type, e, n, 'DATASET' AS kind, j.collectedBy IS NOT NULL AS collected
}
WITH ord, fromId, toId, type, e, n, kind, collected ORDER BY ord
RETURN fromId, toId, type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       coalesce(e.current, true) AS current, {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node,
       CASE WHEN type = 'PRODUCES' THEN e.outputFields END AS outputFields,
       CASE WHEN type = 'PRODUCES' THEN e.fieldsWithInputs END AS fieldsWithInputs,
       CASE WHEN collected THEN 'COLLECTED' ELSE 'REPORTED' END AS evidence
LIMIT toInteger($limit)
