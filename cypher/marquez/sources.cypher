// Purpose: Marquez's sources (GET /api/v1/sources, /api/v1/sources/{name}): the dataSource facets'
//   names of the datasets ('default' for datasets without one, as Marquez names them), ordered by
//   name, each with a connection URI it was sent with (the smallest) and its first and last event time.
//   Read from the dataset namespace index; grows with the number of datasets.
// Parameters: $name: one source, or null for all; $skip, $limit: the page
// Columns: name, connectionUrl (or null), createdAt, updatedAt
// Warm-up: [{"name": [null], "skip": [0], "limit": [100]}, {"name": ["-"], "skip": [0], "limit": [100]}]
MATCH (d:Dataset) WHERE d.namespace IS NOT NULL
WITH coalesce(d.sourceName, 'default') AS name, d
WHERE $name IS NULL OR name = $name
WITH name, min(d.sourceUri) AS connectionUrl, min(d.firstSeen) AS createdAt, max(d.lastSeen) AS updatedAt
ORDER BY name
SKIP toInteger($skip) LIMIT toInteger($limit)
RETURN name, connectionUrl, createdAt, updatedAt
