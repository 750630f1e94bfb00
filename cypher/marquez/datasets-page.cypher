// Purpose: one page of Marquez's dataset list (GET /api/v1/namespaces/{ns}/datasets): the datasets
//   of a namespace ordered by name (then id), soft-deleted ones left out (an Annotation whose hiddenAt
//   is at or after the dataset's lastSeen), and their total.
// Parameters: $namespace; $skip, $limit: the page
// Columns: total (integer), ids: list of dataset ids
// Warm-up: {"namespace": ["-"], "skip": [0], "limit": [100]}
MATCH (d:Dataset {namespace: $namespace})
WHERE NOT EXISTS { MATCH (a:Annotation {id: d.id}) WHERE a.hiddenAt >= d.lastSeen }
WITH d ORDER BY d.name, d.id
WITH collect(d.id) AS ids
RETURN size(ids) AS total, ids[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS ids
