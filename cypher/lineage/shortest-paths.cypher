// Purpose: how node A reaches node B, in data-flow direction, at dataset/job granularity: up to 20
//   shortest paths over current FEEDS/PRODUCES edges, of at most 20 edges (callers cut to fewer).
// Parameters: $fromId, $toId: dataset or job ids
// Columns: nodes: list of {id, kind, namespace, name}, edges: list of {fromId, toId, type}
CALL () {
  MATCH (n:Dataset {id: $fromId}) RETURN n
  UNION
  MATCH (n:Job {id: $fromId}) RETURN n
}
WITH n AS a
CALL () {
  MATCH (n:Dataset {id: $toId}) RETURN n
  UNION
  MATCH (n:Job {id: $toId}) RETURN n
}
WITH a, n AS b
MATCH p = SHORTEST 20 (a)(()-[r:FEEDS|PRODUCES WHERE r.current]->()){1,20}(b)
RETURN [x IN nodes(p) | {id: x.id, kind: CASE WHEN x:Job THEN 'JOB' ELSE 'DATASET' END, namespace: x.namespace, name: x.name}] AS nodes,
       [e IN relationships(p) | {fromId: startNode(e).id, toId: endNode(e).id, type: type(e)}] AS edges
