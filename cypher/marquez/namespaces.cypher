// Purpose: Marquez's namespace list (GET /api/v1/namespaces): every namespace that holds a job or a
//   dataset, ordered by name (the empty namespace, which Marquez cannot name, left out), with the
//   earliest and latest time of an event that named something in it. Read from the Namespace
//   summaries the projection keeps (ingest/merge-namespaces.cypher): one node per namespace, through
//   the name's uniqueness index in order, so the cost follows the page, not the graph.
// Parameters: $name: one namespace, or null for all; $skip, $limit: the page
// Columns: name, createdAt (earliest firstSeen), updatedAt (latest lastSeen)
// Warm-up: {"name": [null, "-"], "skip": [0], "limit": [100]}
MATCH (n:Namespace)
WHERE n.name > '' AND ($name IS NULL OR n.name = $name)
RETURN n.name AS name, n.firstSeen AS createdAt, n.lastSeen AS updatedAt
ORDER BY name
SKIP toInteger($skip) LIMIT toInteger($limit)
