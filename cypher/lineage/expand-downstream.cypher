// Purpose: one breadth-first step DOWNSTREAM at dataset/job granularity, following data flow:
//   dataset → jobs that read it (FEEDS), job → datasets it writes (PRODUCES). A dataset and the
//   datasets SYMLINKed to it (either direction) are one logical dataset: their aliases come back as
//   ALIAS rows (same distance) and the readers of every alias are expanded in this same step.
// Parameters: $datasetIds, $jobIds: the frontier, split by kind; $limit: maximum rows returned
// Columns: fromId, toId (edge in data-flow direction; for ALIAS: frontier dataset → alias),
//   type ('ALIAS' | 'FEEDS' | 'PRODUCES'), firstSeen, lastSeen, declared,
//   node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}; ALIAS rows first
CALL () {
  UNWIND $datasetIds AS id
  MATCH (:Dataset {id: id})-[e:SYMLINK]-(n:Dataset)
  RETURN 0 AS ord, id AS fromId, n.id AS toId, 'ALIAS' AS type, e, n, 'DATASET' AS kind
  UNION ALL
  UNWIND $datasetIds AS id
  MATCH (d:Dataset {id: id})
  CALL (d) {
    RETURN d AS m
    UNION
    MATCH (d)-[:SYMLINK]-(m:Dataset) RETURN m
  }
  MATCH (m)-[e:FEEDS]->(n:Job)
  RETURN 1 AS ord, m.id AS fromId, n.id AS toId, 'FEEDS' AS type, e, n, 'JOB' AS kind
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (:Job {id: id})-[e:PRODUCES]->(n:Dataset)
  RETURN 1 AS ord, id AS fromId, n.id AS toId, 'PRODUCES' AS type, e, n, 'DATASET' AS kind
}
WITH ord, fromId, toId, type, e, n, kind ORDER BY ord
RETURN fromId, toId, type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node
LIMIT toInteger($limit)
