// Purpose: one breadth-first step DOWNSTREAM at dataset/job granularity, following data flow:
//   dataset → jobs that read it (FEEDS), job → datasets it writes (PRODUCES).
// Parameters: $datasetIds, $jobIds: the frontier, split by kind; $limit: maximum rows returned
// Columns: fromId, toId (edge in data-flow direction), type ('FEEDS' | 'PRODUCES'), firstSeen, lastSeen, declared,
//   node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}
CALL () {
  UNWIND $datasetIds AS id
  MATCH (:Dataset {id: id})-[e:FEEDS]->(n:Job)
  RETURN id AS fromId, n.id AS toId, e, n, 'JOB' AS kind
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (:Job {id: id})-[e:PRODUCES]->(n:Dataset)
  RETURN id AS fromId, n.id AS toId, e, n, 'DATASET' AS kind
}
RETURN fromId, toId, type(e) AS type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node
LIMIT toInteger($limit)
