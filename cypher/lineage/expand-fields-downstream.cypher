// Purpose: one breadth-first step DOWNSTREAM at field granularity: output fields derived from the
//   frontier fields through a job's column lineage (DERIVES), with transformation types.
//   Which edges count: with $asOf null, those of jobs that still read the source dataset (current
//   FEEDS); with $asOf, those first seen by then.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow ('DERIVES'; INFLUENCES is not read yet)
// Columns: fromId, toId (data-flow direction), type ('DERIVES'), jobId, types, subtypes, firstSeen,
//   lastSeen, current, node: the neighbour {id, kind ('FIELD'), namespace, name, datasetId}
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES"]]}
UNWIND $fieldIds AS id
MATCH (f:Field {id: id})-[e:DERIVES]->(n:Field)
WHERE type(e) IN $follow AND (($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: f.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf))
MATCH (nd:Dataset {id: n.datasetId})
RETURN id AS fromId, n.id AS toId, 'DERIVES' AS type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
