// Purpose: jobs that read and report no output (current edges): the candidates for a writer its
//   producer does not report (a sink without lineage support). Up to $limit, by id.
// Parameters: $limit: maximum rows
// Columns: id, namespace, name, engine, integration, sql (the job's SQL text or null), inputs (up to
//   5 dataset ids, by id)
// Warm-up: {"limit": [1]}
MATCH (j:Job)
WHERE EXISTS { MATCH (:Dataset)-[f:FEEDS]->(j) WHERE f.current }
  AND NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset) WHERE p.current }
WITH j ORDER BY j.id LIMIT toInteger($limit)
RETURN j.id AS id, j.namespace AS namespace, j.name AS name, j.engine AS engine, j.integration AS integration, j.sql AS sql,
       COLLECT { MATCH (d:Dataset)-[f:FEEDS]->(j) WHERE f.current RETURN d.id ORDER BY d.id LIMIT 5 } AS inputs
