// Purpose: record the dataset-level dependencies of the columnLineage facet (`dataset[]`, spec
//   1-2-0: input fields that affect the whole output, such as filter, join and sort keys) as
//   (input:Field)-[:INFLUENCES {jobId}]->(output:Dataset), one edge per (field, dataset, job), with
//   the same properties as DERIVES. Field and dataset nodes must exist.
// Parameters: $rows: list of {fromFieldId, toId (output dataset id), jobId, transformations (JSON array),
//   types, subtypes, transformationsAt, firstSeen, lastSeen}, one per (from, to, job)
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000, 10000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (src:Field {id: x.fromFieldId})
MATCH (dst:Dataset {id: x.toId})
MERGE (src)-[c:INFLUENCES {jobId: x.jobId}]->(dst)
SET c.firstSeen = CASE WHEN c.firstSeen IS NULL OR x.firstSeen < c.firstSeen THEN x.firstSeen ELSE c.firstSeen END,
    c.lastSeen = CASE WHEN c.lastSeen IS NULL OR x.lastSeen > c.lastSeen THEN x.lastSeen ELSE c.lastSeen END
WITH c, x
WHERE c.transformationsAt IS NULL OR x.transformationsAt > c.transformationsAt
   OR (x.transformationsAt = c.transformationsAt AND x.transformations > c.transformations)
SET c.transformations = x.transformations, c.transformationsAt = x.transformationsAt,
    c.types = x.types, c.subtypes = x.subtypes
