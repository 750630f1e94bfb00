// Purpose: one breadth-first step UPSTREAM at field granularity: the input fields the frontier
//   fields are derived from through a job's column lineage (DERIVES), with transformation types.
//   Which edges count: as in expand-fields-downstream.cypher.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow ('DERIVES'; INFLUENCES is not read yet)
// Columns: fromId, toId (data-flow direction, so toId is the frontier side), type ('DERIVES'), jobId,
//   types, subtypes, firstSeen, lastSeen, current, node: the neighbour {id, kind ('FIELD'), namespace,
//   name, datasetId}
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES"]]}
UNWIND $fieldIds AS id
MATCH (n:Field)-[e:DERIVES]->(:Field {id: id})
WHERE type(e) IN $follow AND (($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: n.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf))
MATCH (nd:Dataset {id: n.datasetId})
RETURN n.id AS fromId, id AS toId, 'DERIVES' AS type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
