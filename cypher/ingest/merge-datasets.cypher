// Purpose: create or update Dataset nodes. Same commutative rules as merge-jobs.cypher.
// Parameters: $rows: list of {id, namespace, name, firstSeen, lastSeen, facetsAt, facets, description},
//   one per id
// Columns: none
UNWIND $rows AS x
MERGE (d:Dataset {id: x.id})
  ON CREATE SET d.namespace = x.namespace, d.name = x.name
SET d.firstSeen = CASE WHEN d.firstSeen IS NULL OR x.firstSeen < d.firstSeen THEN x.firstSeen ELSE d.firstSeen END,
    d.lastSeen = CASE WHEN d.lastSeen IS NULL OR x.lastSeen > d.lastSeen THEN x.lastSeen ELSE d.lastSeen END
WITH d, x
WHERE x.facetsAt IS NOT NULL
  AND (d.facetsAt IS NULL OR x.facetsAt > d.facetsAt OR (x.facetsAt = d.facetsAt AND x.facets > d.facets))
SET d.facets = x.facets, d.facetsAt = x.facetsAt, d.description = x.description
