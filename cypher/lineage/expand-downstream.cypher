// Purpose: one breadth-first step DOWNSTREAM at dataset/job granularity, following data flow:
//   dataset → jobs that read it (FEEDS), job → datasets it writes (PRODUCES), over the current edges
//   (the job's latest IO report). A dataset and the datasets SYMLINKed to it (either direction) are
//   one logical dataset: their aliases come back as ALIAS rows (same distance) and the readers of
//   every alias are expanded in this same step. As of a time: expand-downstream-as-of.cypher, a
//   query apart so that this one, run by every lineage request, plans in a third of the time.
// Parameters: $datasetIds, $jobIds: the frontier, split by kind (an empty side as [""], NO_NODE_ID); $limit: maximum rows;
//   $follow: edge kinds to follow, of 'FEEDS', 'PRODUCES', 'ALIAS' (without ALIAS, symlinked names are not joined),
//   'COLLECTED' (without it, the edges of jobs whose lineage Tributary collected are left out)
// Columns: fromId, toId (edge in data-flow direction; for ALIAS: frontier dataset → alias),
//   type ('ALIAS' | 'FEEDS' | 'PRODUCES'), firstSeen, lastSeen, declared, current,
//   node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}; ALIAS rows first;
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
  MATCH (m)-[e:FEEDS]->(n:Job)
  WHERE type(e) IN $follow AND (n.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.current
  RETURN 1 AS ord, m.id AS fromId, n.id AS toId, 'FEEDS' AS type, e, n, 'JOB' AS kind, n.collectedBy IS NOT NULL AS collected
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (j:Job {id: id})-[e:PRODUCES]->(n:Dataset)
  WHERE type(e) IN $follow AND (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND e.current
  RETURN 1 AS ord, id AS fromId, n.id AS toId, 'PRODUCES' AS type, e, n, 'DATASET' AS kind, j.collectedBy IS NOT NULL AS collected
}
WITH ord, fromId, toId, type, e, n, kind, collected ORDER BY ord
RETURN fromId, toId, type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       coalesce(e.current, true) AS current, {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node,
       CASE WHEN type = 'PRODUCES' THEN e.outputFields END AS outputFields,
       CASE WHEN type = 'PRODUCES' THEN e.fieldsWithInputs END AS fieldsWithInputs,
       CASE WHEN collected THEN 'COLLECTED' ELSE 'REPORTED' END AS evidence
LIMIT toInteger($limit)
