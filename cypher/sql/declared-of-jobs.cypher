// Purpose: what the SQL declarer recorded for each job: its statement's parse (SqlParse) and the
//   tables the statement declares (DECLARES), each with the datasets its name resolves to
//   (RESOLVES) and whether one of them (or a SYMLINKed name of one) is among the job's reported
//   inputs (role INPUT) or outputs (OUTPUT); only for a parse of the job's current statement.
// Parameters: $ids: job ids
// Columns: jobId, parse: {status, dialect, dialectFrom, reason, message, parsedAt}, tables: list of {role,
//   name, line, column, start, end, reported, resolved: list of {datasetId, strength}} in (start, role) order
MATCH (j:Job)-[:PARSED_AS]->(p:SqlParse)
WHERE j.id IN $ids AND p.hash = j.sqlHash
RETURN j.id AS jobId, p {.status, .dialect, dialectFrom: p.from, .reason, .message, .parsedAt} AS parse,
       COLLECT {
         MATCH (j)-[d:DECLARES]->(s:SqlTable)
         RETURN d {.role, .name, .line, .column, .start, .end,
                   reported: EXISTS {
                     MATCH (s)-[:RESOLVES]->(:Dataset)-[:SYMLINK*0..1]-(ds:Dataset)
                     WHERE (d.role = 'INPUT' AND EXISTS { (ds)-[:FEEDS]->(j) }) OR (d.role = 'OUTPUT' AND EXISTS { (j)-[:PRODUCES]->(ds) })
                   },
                   resolved: COLLECT { MATCH (s)-[r:RESOLVES]->(ds:Dataset) RETURN {datasetId: ds.id, strength: r.strength} AS c ORDER BY c.datasetId }} AS t
         ORDER BY t.start, t.role
       } AS tables
