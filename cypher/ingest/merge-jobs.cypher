// Purpose: create or update Job nodes (facets: merge-facets.cypher). Commutative: firstSeen/lastSeen
//   are min/max event times; ioAt/ioRunId is the latest (time, run id) of an event that listed
//   inputs or outputs (ioRunId null: a JobEvent), from which refresh-current-io.cypher derives the
//   job's current inputs and outputs. engine: as of the latest event (ties: larger name).
// Parameters: $rows: list of {id, namespace, name, firstSeen, lastSeen, ioAt, ioRunId, engine}, one per id
//   `words`: the name split at . _ / : - for full-text search (entity_search_v2).
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MERGE (j:Job {id: x.id})
  ON CREATE SET j.namespace = x.namespace, j.name = x.name, j.words = replace(replace(replace(replace(replace(x.name, '.', ' '), '_', ' '), '/', ' '), ':', ' '), '-', ' ')
WITH j, x, x.ioAt IS NOT NULL AND (j.ioAt IS NULL OR x.ioAt > j.ioAt
       OR (x.ioAt = j.ioAt AND coalesce(x.ioRunId, '') > coalesce(j.ioRunId, ''))) AS newerIo,
     j.lastSeen IS NULL OR x.lastSeen > j.lastSeen OR (x.lastSeen = j.lastSeen AND x.engine > j.engine) AS newerEngine
SET j.engine = CASE WHEN newerEngine THEN x.engine ELSE j.engine END,
    j.firstSeen = CASE WHEN j.firstSeen IS NULL OR x.firstSeen < j.firstSeen THEN x.firstSeen ELSE j.firstSeen END,
    j.lastSeen = CASE WHEN j.lastSeen IS NULL OR x.lastSeen > j.lastSeen THEN x.lastSeen ELSE j.lastSeen END,
    j.ioAt = CASE WHEN newerIo THEN x.ioAt ELSE j.ioAt END,
    j.ioRunId = CASE WHEN newerIo THEN x.ioRunId ELSE j.ioRunId END
