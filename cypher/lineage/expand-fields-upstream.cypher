// Purpose: one breadth-first step UPSTREAM at field granularity: the input fields the frontier
//   fields depend on through a job's column lineage, with transformation types. Fields of the same
//   name in SYMLINKed datasets are one logical field, as in expand-fields-downstream.cypher (ALIAS
//   rows first, their edges expanded in this step). DERIVES: field → field. INFLUENCES
//   (columnLineage `dataset[]`): an input field that affects every field of the frontier field's
//   dataset through the job (type INFLUENCES, types INDIRECT). $indirect and which edges count: as
//   in expand-fields-downstream.cypher.
// Parameters: $fieldIds: the frontier; $asOf: ISO time or null; $limit: maximum rows; $follow: edge kinds
//   to follow, of 'DERIVES', 'INFLUENCES', 'ALIAS'; $indirect: follow INDIRECT dependencies (boolean)
//   $metadata: the metadata columns of table formats to leave out, {storageLayer: [names]} (src/lineage/metadata-columns.ts; {} keeps them)
// Columns: fromId, toId (data-flow direction, so toId is the frontier side; for ALIAS: frontier field →
//   alias), type ('ALIAS' | 'DERIVES' | 'INFLUENCES'), jobId, types, subtypes, firstSeen, lastSeen, declared,
//   current, node: the neighbour {id, kind ('FIELD'), namespace, name, datasetId}; ALIAS rows first
// Warm-up: {"fieldIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["DERIVES", "INFLUENCES", "ALIAS"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}
UNWIND $fieldIds AS id
MATCH (g0:Field {id: id})
CALL (g0) {
  RETURN g0 AS g
  UNION
  MATCH (:Dataset {id: g0.datasetId})-[:SYMLINK]-(:Dataset)-[:HAS_FIELD]->(g:Field {name: g0.name})
  WHERE 'ALIAS' IN $follow
  RETURN g
}
CALL (g0, g) {
  WITH g0, g WHERE g <> g0
  RETURN 0 AS ord, g0.id AS fromId, g.id AS toId, 'ALIAS' AS type, null AS e, g AS n
  UNION ALL
  MATCH (n:Field)-[e:DERIVES]->(g)
  WHERE 'DERIVES' IN $follow AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
  RETURN 1 AS ord, n.id AS fromId, g.id AS toId, 'DERIVES' AS type, e, n
  UNION ALL
  MATCH (n:Field)-[e:INFLUENCES]->(:Dataset {id: g.datasetId})
  WHERE 'INFLUENCES' IN $follow AND $indirect
  RETURN 1 AS ord, n.id AS fromId, g.id AS toId, 'INFLUENCES' AS type, e, n
}
WITH ord, fromId, toId, type, e, n
WHERE e IS NULL
   OR ($asOf IS NULL AND EXISTS { MATCH (:Dataset {id: n.datasetId})-[:FEEDS {current: true}]->(:Job {id: e.jobId}) })
   OR ($asOf IS NOT NULL AND e.firstSeen <= $asOf)
WITH ord, fromId, toId, type, e, n ORDER BY ord
MATCH (nd:Dataset {id: n.datasetId})
WHERE type = 'ALIAS' OR NOT n.name IN coalesce($metadata[toLower(coalesce(nd.storageLayer, ''))], [])
RETURN fromId, toId, type, e.jobId AS jobId, e.types AS types, e.subtypes AS subtypes,
       e.firstSeen AS firstSeen, e.lastSeen AS lastSeen, true AS declared, true AS current,
       {id: n.id, kind: 'FIELD', namespace: nd.namespace, name: n.name, datasetId: n.datasetId} AS node
LIMIT toInteger($limit)
