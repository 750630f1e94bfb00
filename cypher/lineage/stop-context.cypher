// Purpose: what explains a trace's stop at each given dataset: its names (the dataset and its
//   SYMLINKed names), the spellings producers sent, the jobs that read and write any of those names
//   (current edges, up to 5 each, by id; and how many wrote one before, history), and its field names
//   (up to 200, by name).
// Parameters: $datasetIds: list of dataset ids
// Columns: id, namespace, name, aliases (list of {id, namespace, name}, by id), rawNames (list of
//   `namespace|name`), readers, writers (job ids), pastWriters (integer: jobs that wrote a name, no
//   longer current), fields (list of names)
// Warm-up: {"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100]}]}
UNWIND $datasetIds AS id
MATCH (d:Dataset {id: id})
WITH d, COLLECT { MATCH (d)-[:SYMLINK]-(a:Dataset) RETURN DISTINCT a ORDER BY a.id } AS aliases
WITH d, aliases, [d] + aliases AS names
RETURN d.id AS id, d.namespace AS namespace, d.name AS name,
       [a IN aliases | {id: a.id, namespace: a.namespace, name: a.name}] AS aliases,
       reduce(acc = [], n IN names | acc + coalesce(n.rawNames, [])) AS rawNames,
       COLLECT { UNWIND names AS n MATCH (n)-[f:FEEDS]->(j:Job) WHERE f.current RETURN DISTINCT j.id AS j ORDER BY j LIMIT 5 } AS readers,
       COLLECT { UNWIND names AS n MATCH (j:Job)-[p:PRODUCES]->(n) WHERE p.current RETURN DISTINCT j.id AS j ORDER BY j LIMIT 5 } AS writers,
       COUNT { UNWIND names AS n MATCH (j:Job)-[p:PRODUCES]->(n) WHERE NOT p.current RETURN DISTINCT j } AS pastWriters,
       COLLECT { UNWIND names AS n MATCH (n)-[:HAS_FIELD]->(f:Field) RETURN DISTINCT f.name AS f ORDER BY f LIMIT 200 } AS fields
