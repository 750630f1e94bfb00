// Purpose: record the symlinks facet: (:Dataset)-[:SYMLINK {type}]->(alias:Dataset), meaning both
//   nodes name one logical dataset (for example a warehouse path and its catalog table). Lineage
//   traversal treats SYMLINK as identity (no hop). Keeps firstSeen/lastSeen, the reason and
//   firstEvent: the stored event that declared it first (earliest time, then lowest id; commutative).
//   Both dataset nodes must exist.
// Parameters: $rows: list of {datasetId, aliasId, type, firstSeen, lastSeen, eventId (or null)}, one per
//   (dataset, alias, type)
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (d:Dataset {id: x.datasetId})
MATCH (a:Dataset {id: x.aliasId})
MERGE (d)-[s:SYMLINK {type: x.type}]->(a)
SET s.firstEvent = CASE WHEN x.eventId IS NOT NULL AND (s.firstEvent IS NULL OR x.firstSeen < s.firstSeen
                              OR (x.firstSeen = s.firstSeen AND x.eventId < s.firstEvent))
                         THEN x.eventId ELSE s.firstEvent END
SET s.reason = 'symlinks facet of ' + d.id,
    s.firstSeen = CASE WHEN s.firstSeen IS NULL OR x.firstSeen < s.firstSeen THEN x.firstSeen ELSE s.firstSeen END,
    s.lastSeen = CASE WHEN s.lastSeen IS NULL OR x.lastSeen > s.lastSeen THEN x.lastSeen ELSE s.lastSeen END
