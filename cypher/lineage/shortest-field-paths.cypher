// Purpose: how field A reaches field B through column lineage (DERIVES), in data-flow direction:
//   up to 20 shortest paths of at most 20 edges.
// Parameters: $fromId, $toId: field ids
// Columns: nodes: list of {id, kind, namespace, name, datasetId}, edges: list of {fromId, toId, type, jobId}
MATCH (a:Field {id: $fromId})
MATCH (b:Field {id: $toId})
MATCH p = SHORTEST 20 (a)(()-[:DERIVES]->()){1,20}(b)
RETURN [x IN nodes(p) | {id: x.id, kind: 'FIELD', namespace: null, name: x.name, datasetId: x.datasetId}] AS nodes,
       [e IN relationships(p) | {fromId: startNode(e).id, toId: endNode(e).id, type: type(e), jobId: e.jobId}] AS edges
