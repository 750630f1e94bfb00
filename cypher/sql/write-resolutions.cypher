// Purpose: set which datasets declared table names resolve to: for each SqlTable in $rows, its
//   RESOLVES relationships {strength ('STRONG' | 'MEDIUM')} become exactly `targets`; the SqlTables
//   in $orphans (no job declares them any more) are deleted with their relationships.
// Parameters: $rows: list of {key, targets: list of {datasetId, strength}}; $orphans: list of keys
// Columns: tables (how many SqlTables were rewritten)
CALL () {
  UNWIND $orphans AS key
  MATCH (s:SqlTable {key: key}) WHERE NOT EXISTS { (s)<-[:DECLARES]-(:Job) }
  DETACH DELETE s
}
UNWIND $rows AS x
MATCH (s:SqlTable {key: x.key})
CALL (s) {
  MATCH (s)-[r:RESOLVES]->(:Dataset)
  DELETE r
}
CALL (s, x) {
  UNWIND x.targets AS t
  MATCH (d:Dataset {id: t.datasetId})
  CREATE (s)-[:RESOLVES {strength: t.strength}]->(d)
}
RETURN count(DISTINCT s) AS tables
