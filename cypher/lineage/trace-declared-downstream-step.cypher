// Purpose: the DECLARED hops of one downstream trace step (followed with evidence ALL, current
//   lineage only; the mirror of trace-declared-upstream-step.cypher). For each item (a field, or a
//   dataset) in dataset D (or a SYMLINKed name of D): (a) a job that reports reading D, and whose
//   statement writes a table its events do not report: that table's datasets; (b) a job whose
//   statement reads D, which its events do not list: the job's reported outputs and declared ones.
//   Every hop is dataset level. Only declarations of the job's current statement.
// Parameters: $fields: list of {fieldId, datasetId, name}; $datasets: list of dataset ids (none: [""]); $limit: maximum rows
// Columns: fromId (the item), fromKind ('FIELD' | 'DATASET'), toId (the output dataset), jobId, granularity
//   ('DATASET'), types, subtypes, transformations, reportedId (null), node: the output {id, kind,
//   namespace, name, datasetId}, evidence ('DECLARED'), declared: {input, output}: the statement's
//   table for each declared half of the hop, {name, line, column} or null
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
  // (a) A reported reader's statement writes more than its events report.
  UNWIND names AS m
  MATCH (m)-[f:FEEDS]->(j:Job) WHERE f.current
  WITH DISTINCT j
  MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash
  MATCH (j)-[dc:DECLARES {role: 'OUTPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(dst:Dataset)
  WHERE NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset)-[:SYMLINK*0..1]-(dst) WHERE p.current }
  RETURN j, dst, null AS input, {name: dc.name, line: dc.line, column: dc.column} AS output
  UNION
  // (b) A statement reads the dataset; its events do not list it.
  UNWIND names AS m
  MATCH (m)<-[:RESOLVES {strength: 'STRONG'}]-(:SqlTable)<-[dc:DECLARES {role: 'INPUT'}]-(j:Job)
  WHERE NOT EXISTS { MATCH (n:Dataset)-[f:FEEDS]->(j) WHERE f.current AND n IN names }
    AND EXISTS { MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash }
  WITH j, {name: dc.name, line: dc.line, column: dc.column} AS input
  CALL (j) {
    MATCH (j)-[p:PRODUCES]->(dst:Dataset) WHERE p.current
    RETURN dst, null AS output
    UNION
    MATCH (j)-[dq:DECLARES {role: 'OUTPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(dst:Dataset)
    WHERE NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset)-[:SYMLINK*0..1]-(dst) WHERE p.current }
    RETURN dst, {name: dq.name, line: dq.line, column: dq.column} AS output
  }
  RETURN j, dst, input, output
}
RETURN itemId AS fromId, kind AS fromKind, dst.id AS toId, j.id AS jobId, 'DATASET' AS granularity, null AS types,
       null AS subtypes, null AS transformations, null AS reportedId,
       {id: dst.id, kind: 'DATASET', namespace: dst.namespace, name: dst.name, datasetId: null} AS node,
       'DECLARED' AS evidence, {input: input, output: output} AS declared
ORDER BY fromId, toId, jobId
LIMIT toInteger($limit)
