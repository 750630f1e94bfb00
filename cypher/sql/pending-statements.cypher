// Purpose: the jobs whose SQL statement (the sql job facet; its fingerprint j.sqlHash, src/ingest/derive.ts)
//   the SQL declarer has not recorded yet: never parsed, parsed in another version, or gone while
//   its parse remains; of the job namespaces starting with $prefix ('' for all). At most $limit, in job id order. The statement itself only up to $maxChars
//   characters (a longer one is refused unread: its size says so).
// Parameters: $prefix; $limit; $maxChars
// Columns: jobId, hash (null: the statement is gone), chars (its length), sql (null when gone or
//   over $maxChars), dialect (the sql facet's, or null), engine (the job's engine), schemes (the distinct
//   lower-cased schemes of its current inputs' and outputs' namespaces: `postgres` of postgres://h:5432,
//   the whole namespace when it has no ://; by name)
// Warm-up: {"prefix": [""], "limit": [1], "maxChars": [1]}
CALL () {
  MATCH (j:Job) WHERE j.sqlHash IS NOT NULL AND j.namespace STARTS WITH $prefix AND NOT EXISTS { (j)-[:PARSED_AS]->(:SqlParse {hash: j.sqlHash}) }
  RETURN j
  UNION
  MATCH (j:Job)-[:PARSED_AS]->(:SqlParse) WHERE j.sqlHash IS NULL AND j.namespace STARTS WITH $prefix
  RETURN j
}
WITH j ORDER BY j.id
LIMIT toInteger($limit)
RETURN j.id AS jobId, j.sqlHash AS hash, size(coalesce(j.sql, '')) AS chars,
       CASE WHEN j.sqlHash IS NOT NULL AND size(j.sql) <= $maxChars THEN j.sql END AS sql,
       j.sqlDialect AS dialect, j.engine AS engine,
       COLLECT { MATCH (j)-[e:FEEDS|PRODUCES]-(d:Dataset) WHERE e.current RETURN DISTINCT toLower(split(d.namespace, '://')[0]) AS s ORDER BY s } AS schemes
