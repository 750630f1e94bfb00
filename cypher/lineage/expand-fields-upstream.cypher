// Purpose: one breadth-first step UPSTREAM at field granularity: the input fields the frontier
//   fields depend on through a job's column lineage, with transformation types. DERIVES: field →
//   field. INFLUENCES (columnLineage `dataset[]`): an input field that affects every field of the
//   frontier field's dataset through the job (type INFLUENCES, types INDIRECT). $indirect as in
//   expand-fields-downstream.cypher. Which edges count: as there.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow, of 'DERIVES', 'INFLUENCES'; $indirect: follow INDIRECT dependencies (boolean)
// Columns: fromId, toId (data-flow direction, so toId is the frontier side), type ('DERIVES' | 'INFLUENCES'),
//   jobId, types, subtypes, firstSeen, lastSeen, declared, current, node: the neighbour {id, kind ('FIELD'),
//   namespace, name, datasetId}
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES", "INFLUENCES"]], "indirect": [true]}
UNWIND $fieldIds AS id
MATCH (g:Field {id: id})
CALL (g) {
  MATCH (n:Field)-[e:DERIVES]->(g)
  WHERE 'DERIVES' IN $follow AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
  RETURN e, n, 'DERIVES' AS type
  UNION ALL
  MATCH (n:Field)-[e:INFLUENCES]->(:Dataset {id: g.datasetId})
  WHERE 'INFLUENCES' IN $follow AND $indirect
  RETURN e, n, 'INFLUENCES' AS type
}
WITH g, e, n, type
WHERE ($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: n.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf)
MATCH (nd:Dataset {id: n.datasetId})
RETURN n.id AS fromId, g.id AS toId, type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
