// Purpose: one breadth-first step UPSTREAM at dataset/job granularity, against data flow:
//   dataset → jobs that write it (PRODUCES), job → datasets it reads (FEEDS).
// Parameters: $datasetIds, $jobIds: the frontier, split by kind; $limit: maximum rows returned
// Columns: fromId, toId (edge in data-flow direction, so toId is the frontier node), type ('FEEDS' |
//   'PRODUCES'), firstSeen, lastSeen, declared, node: the neighbour {id, kind ('DATASET' | 'JOB'), namespace, name}
CALL () {
  UNWIND $datasetIds AS id
  MATCH (n:Job)-[e:PRODUCES]->(:Dataset {id: id})
  RETURN n.id AS fromId, id AS toId, e, n, 'JOB' AS kind
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (n:Dataset)-[e:FEEDS]->(:Job {id: id})
  RETURN n.id AS fromId, id AS toId, e, n, 'DATASET' AS kind
}
RETURN fromId, toId, type(e) AS type, e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, coalesce(e.declared, true) AS declared,
       {id: n.id, kind: kind, namespace: n.namespace, name: n.name} AS node
LIMIT toInteger($limit)
