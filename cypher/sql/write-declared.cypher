// Purpose: record what the SQL declarer made of jobs' statements. Replaces each job's SqlParse node
//   {hash, status ('PARSED' | 'UNPARSED'), dialect, from, reason, message, parsedAt} and its DECLARES
//   relationships {role ('INPUT' | 'OUTPUT'), name (as written), line, column, start, end} to
//   SqlTable nodes (one per lower-cased name, `key`; `tail`: its last part; MERGEd, unique key).
//   Only while the job's statement is still the one parsed (j.sqlHash = hash): a statement that
//   changed meanwhile stays pending. A row with hash null removes the parse of a statement that is gone.
// Parameters: $rows: list of {jobId, hash, status, dialect, from, reason, message, at,
//   tables: list of {key, tail, role, name, line, column, start, end}}
// Columns: jobId (each job written)
UNWIND $rows AS x
MATCH (j:Job {id: x.jobId})
WHERE j.sqlHash = x.hash OR (x.hash IS NULL AND j.sqlHash IS NULL)
CALL (j) {
  MATCH (j)-[:PARSED_AS]->(old:SqlParse)
  DETACH DELETE old
}
CALL (j) {
  MATCH (j)-[d:DECLARES]->(:SqlTable)
  DELETE d
}
CALL (j, x) {
  WITH j, x WHERE x.hash IS NOT NULL
  CREATE (j)-[:PARSED_AS]->(:SqlParse {hash: x.hash, status: x.status, dialect: x.dialect, from: x.from, reason: x.reason, message: x.message, parsedAt: x.at})
  WITH j, x
  UNWIND x.tables AS t
  MERGE (s:SqlTable {key: t.key})
    ON CREATE SET s.tail = t.tail
  CREATE (j)-[:DECLARES {role: t.role, name: t.name, line: t.line, column: t.column, start: t.start, end: t.end}]->(s)
}
RETURN x.jobId AS jobId
