// Purpose: one breadth-first step DOWNSTREAM at field granularity: the output fields the frontier
//   fields feed through a job's column lineage, with transformation types. DERIVES: field → field.
//   INFLUENCES (columnLineage `dataset[]`, e.g. a filter, join or group-by key): the input field
//   affects every field of the job's output dataset, so it reaches each of them (type INFLUENCES,
//   types INDIRECT). With $indirect false, DERIVES edges whose transformations are all INDIRECT and
//   every INFLUENCES edge are left out.
//   Which edges count: with $asOf null, those of jobs that still read the source dataset (current
//   FEEDS); with $asOf, those first seen by then.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow, of 'DERIVES', 'INFLUENCES'; $indirect: follow INDIRECT dependencies (boolean)
// Columns: fromId, toId (data-flow direction), type ('DERIVES' | 'INFLUENCES'), jobId, types, subtypes,
//   firstSeen, lastSeen, declared, current, node: the neighbour {id, kind ('FIELD'), namespace, name, datasetId}
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES", "INFLUENCES"]], "indirect": [true]}
UNWIND $fieldIds AS id
MATCH (f:Field {id: id})
CALL (f) {
  MATCH (f)-[e:DERIVES]->(n:Field)
  WHERE 'DERIVES' IN $follow AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
  RETURN e, n, 'DERIVES' AS type
  UNION ALL
  MATCH (f)-[e:INFLUENCES]->(:Dataset)-[:HAS_FIELD]->(n:Field)
  WHERE 'INFLUENCES' IN $follow AND $indirect
  RETURN e, n, 'INFLUENCES' AS type
}
WITH f, e, n, type
WHERE ($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: f.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf)
MATCH (nd:Dataset {id: n.datasetId})
RETURN f.id AS fromId, n.id AS toId, type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
