// Purpose: create or update Field nodes and their (:Dataset)-[:HAS_FIELD]->(:Field) edge. Type and
//   description come from the latest schema facet that listed the field (facetsAt); fields known
//   only from column lineage have facetsAt null and no type. The dataset node must exist.
// Parameters: $rows: list of {id, datasetId, name, type, description, firstSeen, lastSeen, facetsAt},
//   one per id
//   `words`: the name split at . _ / : - for full-text search (entity_search_v2).
//   A dataset that gains a field is flagged coverageStale, in the same transaction, for
//   refresh-output-coverage.cypher (which recounts its producers' figures and clears the flag).
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000, 10000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (d:Dataset {id: x.datasetId})
MERGE (f:Field {id: x.id})
  ON CREATE SET f.name = x.name, f.datasetId = x.datasetId, f.words = replace(replace(replace(replace(replace(x.name, '.', ' '), '_', ' '), '/', ' '), ':', ' '), '-', ' '),
                d.coverageStale = true
MERGE (d)-[:HAS_FIELD]->(f)
SET f.firstSeen = CASE WHEN f.firstSeen IS NULL OR x.firstSeen < f.firstSeen THEN x.firstSeen ELSE f.firstSeen END,
    f.lastSeen = CASE WHEN f.lastSeen IS NULL OR x.lastSeen > f.lastSeen THEN x.lastSeen ELSE f.lastSeen END
WITH f, x, coalesce(x.type, '') + '|' + coalesce(x.description, '') AS xText,
     coalesce(f.type, '') + '|' + coalesce(f.description, '') AS fText
WHERE x.facetsAt IS NOT NULL
  AND (f.facetsAt IS NULL OR x.facetsAt > f.facetsAt OR (x.facetsAt = f.facetsAt AND xText > fText))
SET f.type = x.type, f.description = x.description, f.facetsAt = x.facetsAt
