// Purpose: the datasets lineage-breaks detection compares (counting SYMLINKed names as one): those
//   some job reads but no known job writes (SOURCE: lineage starts there, often at an engine
//   boundary), those some job writes but no known job reads (SINK), and those written and read
//   (THROUGH: a SOURCE may be one of them under another name). Scope: every dataset (through the
//   namespace index) or the namespaces starting with $namespace.
// Parameters: $namespace: namespace prefix or null for all; $limit: maximum rows
// Columns: id, namespace, name, role ('SOURCE' | 'SINK' | 'THROUGH'), jobs: up to 5 reader (SOURCE) or
//   writer (SINK, THROUGH) job ids, engines: their engines, aliases: SYMLINKed dataset ids,
//   rawNames: the spellings producers sent (`namespace|name`, before normalisation); by id
// Warm-up: [{"namespace": [null], "limit": [1]}, {"namespace": ["-"], "limit": [1]}]
CALL () {
  WITH 1 AS one WHERE $namespace IS NULL
  MATCH (d:Dataset) WHERE d.namespace IS NOT NULL RETURN d
  UNION
  WITH 1 AS one WHERE $namespace IS NOT NULL
  MATCH (d:Dataset) WHERE d.namespace STARTS WITH $namespace RETURN d
}
WITH d, COLLECT { MATCH (d)-[:SYMLINK]-(a:Dataset) RETURN a } AS aliases
WITH d, aliases, [d] + aliases AS grp
WITH d, aliases,
     any(m IN grp WHERE EXISTS { (m)-[:FEEDS]->(:Job) }) AS read,
     any(m IN grp WHERE EXISTS { (:Job)-[:PRODUCES]->(m) }) AS written
WHERE read OR written
WITH d, aliases, CASE WHEN NOT written THEN 'SOURCE' WHEN NOT read THEN 'SINK' ELSE 'THROUGH' END AS role
RETURN d.id AS id, d.namespace AS namespace, d.name AS name, role,
       CASE role WHEN 'SOURCE' THEN COLLECT { MATCH (d)-[:FEEDS]->(j:Job) RETURN j.id ORDER BY j.id LIMIT 5 }
                 ELSE COLLECT { MATCH (j:Job)-[:PRODUCES]->(d) RETURN j.id ORDER BY j.id LIMIT 5 } END AS jobs,
       CASE role WHEN 'SOURCE' THEN COLLECT { MATCH (d)-[:FEEDS]->(j:Job) RETURN DISTINCT coalesce(j.engine, 'other') AS e ORDER BY e }
                 ELSE COLLECT { MATCH (j:Job)-[:PRODUCES]->(d) RETURN DISTINCT coalesce(j.engine, 'other') AS e ORDER BY e } END AS engines,
       [a IN aliases | a.id] AS aliases, coalesce(d.rawNames, []) AS rawNames
ORDER BY id
LIMIT toInteger($limit)
