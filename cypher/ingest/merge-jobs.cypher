// Purpose: create or update Job nodes. Commutative: firstSeen/lastSeen are min/max, facets and the
//   properties derived from them come from the latest event that carried facets (ties: larger JSON).
// Parameters: $rows: list of {id, namespace, name, firstSeen, lastSeen, facetsAt, facets, description,
//   integration, processingType, jobType}, one per id
// Columns: none
UNWIND $rows AS x
MERGE (j:Job {id: x.id})
  ON CREATE SET j.namespace = x.namespace, j.name = x.name
SET j.firstSeen = CASE WHEN j.firstSeen IS NULL OR x.firstSeen < j.firstSeen THEN x.firstSeen ELSE j.firstSeen END,
    j.lastSeen = CASE WHEN j.lastSeen IS NULL OR x.lastSeen > j.lastSeen THEN x.lastSeen ELSE j.lastSeen END
WITH j, x
WHERE x.facetsAt IS NOT NULL
  AND (j.facetsAt IS NULL OR x.facetsAt > j.facetsAt OR (x.facetsAt = j.facetsAt AND x.facets > j.facets))
SET j.facets = x.facets, j.facetsAt = x.facetsAt, j.description = x.description,
    j.integration = x.integration, j.processingType = x.processingType, j.jobType = x.jobType
