// Purpose: the DECLARED edges of one DOWNSTREAM step at dataset/job granularity (the mirror of
//   expand-declared-upstream.cypher): dataset → the jobs whose current SQL statement reads it (or a
//   SYMLINKed name of it), job → the tables its statement writes; resolved STRONG, and only where
//   the job's events do not report the edge.
// Parameters: $datasetIds, $jobIds: the frontier, split by kind (an empty side as [""], NO_NODE_ID); $limit: maximum rows
// Columns: fromId, toId (data-flow direction; fromId is the frontier side), type ('FEEDS' | 'PRODUCES'),
//   firstSeen, lastSeen (null), declared (false), current (true), node: the neighbour {id, kind, namespace,
//   name}, outputFields, fieldsWithInputs (null), evidence ('DECLARED'), statement: the table as the
//   statement names it {role, name, line, column}
// Warm-up: [{"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000, 10000]}], "jobIds": [{"listOf": "-", "sizes": [1]}], "limit": [1]}, {"datasetIds": [{"listOf": "-", "sizes": [1]}], "jobIds": [{"listOf": "-", "sizes": [10, 100, 1000, 10000]}], "limit": [1]}]
CALL () {
  UNWIND $datasetIds AS id
  MATCH (d:Dataset {id: id})
  WITH d, [d] + COLLECT { MATCH (d)-[:SYMLINK]-(a:Dataset) RETURN a } AS names
  UNWIND names AS m
  MATCH (m)<-[:RESOLVES {strength: 'STRONG'}]-(:SqlTable)<-[dc:DECLARES {role: 'INPUT'}]-(j:Job)
  WHERE EXISTS { MATCH (j)-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash }
    AND NOT EXISTS { MATCH (n:Dataset)-[f:FEEDS]->(j) WHERE f.current AND n IN names }
  WITH d, j, min([dc.start, dc.line, dc.column, dc.name]) AS at
  RETURN d.id AS fromId, j.id AS toId, 'FEEDS' AS type, {id: j.id, kind: 'JOB', namespace: j.namespace, name: j.name} AS node,
         {role: 'INPUT', name: at[3], line: at[1], column: at[2]} AS statement
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (j:Job {id: id})-[:PARSED_AS]->(sp:SqlParse) WHERE sp.hash = j.sqlHash
  MATCH (j)-[dc:DECLARES {role: 'OUTPUT'}]->(:SqlTable)-[:RESOLVES {strength: 'STRONG'}]->(dst:Dataset)
  WHERE NOT EXISTS { MATCH (j)-[p:PRODUCES]->(:Dataset)-[:SYMLINK*0..1]-(dst) WHERE p.current }
  WITH j, dst, min([dc.start, dc.line, dc.column, dc.name]) AS at
  RETURN j.id AS fromId, dst.id AS toId, 'PRODUCES' AS type, {id: dst.id, kind: 'DATASET', namespace: dst.namespace, name: dst.name} AS node,
         {role: 'OUTPUT', name: at[3], line: at[1], column: at[2]} AS statement
}
RETURN fromId, toId, type, null AS firstSeen, null AS lastSeen, false AS declared, true AS current, node,
       null AS outputFields, null AS fieldsWithInputs, 'DECLARED' AS evidence, statement
ORDER BY fromId, toId
LIMIT toInteger($limit)
