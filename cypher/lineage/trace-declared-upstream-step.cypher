// Purpose: the DECLARED hops of one upstream trace step (followed with evidence ALL, current lineage
//   only): what jobs' SQL says their statements read and write (the SQL declarer's DECLARES, resolved
//   STRONG to datasets: cypher/sql/), where their events do not say it. For each item (a field, or a
//   dataset) in dataset D (or a SYMLINKed name of D): (a) a job that reports writing D, and whose
//   statement reads a table its events do not list: that table's datasets; (b) a job whose statement
//   writes D, which its events do not report: the job's reported inputs and declared ones. Every hop
//   is dataset level. Only declarations of the job's current statement (its SqlParse has j.sqlHash).
// Parameters: $fields: list of {fieldId, datasetId, name}; $datasets: list of dataset ids (none: [""]); $limit: maximum rows
// Columns: toId (the item), toKind ('FIELD' | 'DATASET'), fromId (the input dataset), jobId, granularity
//   ('DATASET'), types, subtypes, transformations, reportedId (null), node: the input {id, kind, namespace,
//   name, datasetId}, metadataColumn (false), evidence ('DECLARED'), declared: {input, output}: the
//   statement's table for each declared half of the hop, {name, line, column} or null
// Warm-up: [{"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1, 100]}], "datasets": [{"listOf": "-", "sizes": [1]}], "limit": [1]}, {"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1]}], "datasets": [{"listOf": "-", "sizes": [100]}], "limit": [1]}]
CALL () {
  UNWIND $fields AS f
  RETURN f.fieldId AS itemId, 'FIELD' AS kind, f.datasetId AS datasetId
  UNION ALL
  UNWIND $datasets AS id
  RETURN id AS itemId, 'DATASET' AS kind, id AS datasetId
}
MATCH (d:Dataset {id: datasetId})
WITH itemId, kind, [d] + COLLECT { MATCH (d)-[:SYMLINK]-(a:Dataset) RETURN a } AS names
CALL (names) {
  // (a) A reported writer's statement reads more than its events list.
  UNWIND names AS m
  MATCH (j:Job)-[p:PRODUCES]->(m) WHERE p.current
  WITH DISTINCT j
  MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash
  MATCH (j)-[dc:DECLARES {role: 'INPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(src:Dataset)
  WHERE NOT EXISTS { MATCH (src)-[:SYMLINK*0..1]-(:Dataset)-[f:FEEDS]->(j) WHERE f.current }
  RETURN j, src, {name: dc.name, line: dc.line, column: dc.column} AS input, null AS output
  UNION
  // (b) A statement writes the dataset; its events do not report it.
  UNWIND names AS m
  MATCH (m)<-[:RESOLVES {strength: 'STRONG'}]-(:SqlTable)<-[dc:DECLARES {role: 'OUTPUT'}]-(j:Job)
  WHERE NOT EXISTS { MATCH (j)-[p:PRODUCES]->(n:Dataset) WHERE p.current AND n IN names }
    AND EXISTS { MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash }
  WITH j, {name: dc.name, line: dc.line, column: dc.column} AS output
  CALL (j) {
    MATCH (src:Dataset)-[f:FEEDS]->(j) WHERE f.current
    RETURN src, null AS input
    UNION
    MATCH (j)-[di:DECLARES {role: 'INPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(src:Dataset)
    WHERE NOT EXISTS { MATCH (src)-[:SYMLINK*0..1]-(:Dataset)-[f:FEEDS]->(j) WHERE f.current }
    RETURN src, {name: di.name, line: di.line, column: di.column} AS input
  }
  RETURN j, src, input, output
}
RETURN itemId AS toId, kind AS toKind, src.id AS fromId, j.id AS jobId, 'DATASET' AS granularity, null AS types,
       null AS subtypes, null AS transformations, null AS reportedId,
       {id: src.id, kind: 'DATASET', namespace: src.namespace, name: src.name, datasetId: null} AS node,
       false AS metadataColumn, 'DECLARED' AS evidence, {input: input, output: output} AS declared
ORDER BY toId, fromId, jobId
LIMIT toInteger($limit)
