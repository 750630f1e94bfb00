// Purpose: set which datasets declared table names resolve to: for each SqlTable in $rows, its
//   RESOLVES relationships {strength ('STRONG' | 'MEDIUM')} become exactly `targets`; the SqlTables
//   in $orphans (no job declares them any more) are deleted with their relationships. MERGE, not
//   CREATE: two rounds at once (two workers' declarers) resolving one table make one relationship
//   (the second waits for the first's lock on the nodes, then finds it). A table that already
//   holds two to one target (written by the CREATE of earlier versions) keeps one.
// Parameters: $rows: list of {key, targets: list of {datasetId, strength}}; $orphans: list of keys
// Columns: tables (how many SqlTables were rewritten)
CALL () {
  UNWIND $orphans AS key
  MATCH (s:SqlTable {key: key}) WHERE NOT EXISTS { (s)<-[:DECLARES]-(:Job) }
  DETACH DELETE s
}
UNWIND $rows AS x
MATCH (s:SqlTable {key: x.key})
CALL (s, x) {
  MATCH (s)-[r:RESOLVES]->(d:Dataset)
  WITH d, collect(r) AS rs
  UNWIND CASE WHEN d.id IN [t IN x.targets | t.datasetId] THEN tail(rs) ELSE rs END AS r
  DELETE r
}
CALL (s, x) {
  UNWIND x.targets AS t
  MATCH (d:Dataset {id: t.datasetId})
  MERGE (s)-[r:RESOLVES]->(d)
  SET r.strength = t.strength
}
RETURN count(DISTINCT s) AS tables
