// Purpose: one breadth-first step DOWNSTREAM at field granularity: the output fields the frontier
//   fields feed through a job's column lineage, with transformation types. A field and the fields of
//   the same name in the datasets SYMLINKed to its dataset are one logical field: those come back as
//   ALIAS rows (same distance) and their edges are expanded in this same step. DERIVES: field →
//   field. INFLUENCES (columnLineage `dataset[]`, e.g. a filter, join or group-by key): the input
//   field affects every field of the job's output dataset, so it reaches each of them (type
//   INFLUENCES, types INDIRECT). With $indirect false, DERIVES edges whose transformations are all
//   INDIRECT and every INFLUENCES edge are left out.
//   Which edges count: with $asOf null, those of jobs that still read the source dataset (current
//   FEEDS); with $asOf, those first seen by then.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow, of 'DERIVES', 'INFLUENCES', 'ALIAS'; $indirect: follow INDIRECT dependencies (boolean)
//   $metadata: the metadata columns of table formats to leave out, {storageLayer: [names]} (src/lineage/metadata-columns.ts; {} keeps them)
// Columns: fromId, toId (data-flow direction; for ALIAS: frontier field → alias), type ('ALIAS' | 'DERIVES' |
//   'INFLUENCES'), jobId, types, subtypes, firstSeen, lastSeen, declared, current, node: the neighbour
//   {id, kind ('FIELD'), namespace, name, datasetId}; ALIAS rows first
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES", "INFLUENCES", "ALIAS"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}
UNWIND $fieldIds AS id
MATCH (f0:Field {id: id})
CALL (f0) {
  RETURN f0 AS f
  UNION
  MATCH (:Dataset {id: f0.datasetId})-[:SYMLINK]-(:Dataset)-[:HAS_FIELD]->(f:Field {name: f0.name})
  WHERE 'ALIAS' IN $follow
  RETURN f
}
CALL (f0, f) {
  WITH f0, f WHERE f <> f0
  RETURN 0 AS ord, f0.id AS fromId, 'ALIAS' AS type, null AS e, f AS n
  UNION ALL
  MATCH (f)-[e:DERIVES]->(n:Field)
  WHERE 'DERIVES' IN $follow AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
  RETURN 1 AS ord, f.id AS fromId, 'DERIVES' AS type, e, n
  UNION ALL
  MATCH (f)-[e:INFLUENCES]->(:Dataset)-[:HAS_FIELD]->(n:Field)
  WHERE 'INFLUENCES' IN $follow AND $indirect
  RETURN 1 AS ord, f.id AS fromId, 'INFLUENCES' AS type, e, n
}
WITH f, ord, fromId, type, e, n
WHERE e IS NULL
   OR ($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: f.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf)
WITH ord, fromId, type, e, n ORDER BY ord
MATCH (nd:Dataset {id: n.datasetId})
WHERE type = 'ALIAS' OR NOT n.name IN coalesce($metadata[toLower(coalesce(nd.storageLayer, ''))], [])
RETURN fromId, n.id AS toId, type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
