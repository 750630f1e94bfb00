// Purpose: the jobs whose current SQL statement declares writing (role OUTPUT) or reading (INPUT)
//   each given dataset (or a SYMLINKed name of it), resolved by the SQL declarer (cypher/sql/), where
//   the job's events do not report that edge (no current PRODUCES, or FEEDS, to any of its names).
//   The pairing of lineageBreaks and the explanation of a trace's stops. Up to 5 per dataset and
//   role, strongest first, then by job id.
// Parameters: $ids: list of dataset ids; $role: 'INPUT' | 'OUTPUT'
// Columns: datasetId, jobs: list of {jobId, engine, strength ('STRONG' | 'MEDIUM'), name (as the statement
//   writes it), line, column, silent (the job reports no current output at all, for OUTPUT; no input, for INPUT)}
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10]}], "role": ["OUTPUT"]}
UNWIND $ids AS id
MATCH (d:Dataset {id: id})
WITH d, [d] + COLLECT { MATCH (d)-[:SYMLINK]-(a:Dataset) RETURN a } AS names
RETURN d.id AS datasetId, COLLECT {
  UNWIND names AS m
  MATCH (m)<-[r:RESOLVES]-(:SqlTable)<-[dc:DECLARES {role: $role}]-(j:Job)
  WHERE EXISTS { MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash }
    AND NOT EXISTS { MATCH (j)-[p:PRODUCES]->(n:Dataset) WHERE $role = 'OUTPUT' AND p.current AND n IN names }
    AND NOT EXISTS { MATCH (n:Dataset)-[f:FEEDS]->(j) WHERE $role = 'INPUT' AND f.current AND n IN names }
  WITH j, min(CASE r.strength WHEN 'STRONG' THEN 0 ELSE 1 END) AS rank, min([dc.start, dc.line, dc.column, dc.name]) AS at
  RETURN {jobId: j.id, engine: j.engine, strength: CASE rank WHEN 0 THEN 'STRONG' ELSE 'MEDIUM' END, name: at[3], line: at[1], column: at[2],
          silent: CASE $role WHEN 'OUTPUT' THEN NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset) WHERE p.current }
                  ELSE NOT EXISTS { MATCH (:Dataset)-[f:FEEDS]->(j) WHERE f.current } END} AS x
  ORDER BY rank, x.jobId
  LIMIT 5
} AS jobs
