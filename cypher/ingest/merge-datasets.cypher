// Purpose: create or update Dataset nodes (facets: merge-facets.cypher). Commutative: firstSeen/
//   lastSeen are min/max event times; rawNames (original `namespace|name` spellings normalised
//   into this id) and normalisations (why) are sorted set unions.
// Sorted set unions are written as a sorted COLLECT with adjacent duplicates dropped: inside a
//   COLLECT subquery, `RETURN DISTINCT n ORDER BY n` costs Neo4j 5.26 transaction memory quadratic in
//   the list (2,000 strings: 431 MB; a wide table's column lineage failed on a 1 GiB heap).
// Parameters: $rows: list of {id, namespace, name, firstSeen, lastSeen, rawNames, normalisations},
//   one per id
//   `words`: the name split at . _ / : - for full-text search (entity_search_v2).
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MERGE (d:Dataset {id: x.id})
  ON CREATE SET d.namespace = x.namespace, d.name = x.name, d.words = replace(replace(replace(replace(replace(x.name, '.', ' '), '_', ' '), '/', ' '), ':', ' '), '-', ' ')
SET d.firstSeen = CASE WHEN d.firstSeen IS NULL OR x.firstSeen < d.firstSeen THEN x.firstSeen ELSE d.firstSeen END,
    d.lastSeen = CASE WHEN d.lastSeen IS NULL OR x.lastSeen > d.lastSeen THEN x.lastSeen ELSE d.lastSeen END
WITH d, x
WHERE size(x.rawNames) > 0
WITH d, COLLECT { UNWIND coalesce(d.rawNames, []) + x.rawNames AS s RETURN s ORDER BY s } AS rawNames,
     COLLECT { UNWIND coalesce(d.normalisations, []) + x.normalisations AS s RETURN s ORDER BY s } AS normalisations
SET d.rawNames = [i IN range(0, size(rawNames) - 1) WHERE i = 0 OR rawNames[i] <> rawNames[i - 1] | rawNames[i]],
    d.normalisations = [i IN range(0, size(normalisations) - 1) WHERE i = 0 OR normalisations[i] <> normalisations[i - 1] | normalisations[i]]
