// Purpose: Marquez's namespace list (GET /api/v1/namespaces): every namespace that holds a job or a
//   dataset, ordered by name, with the earliest and latest event time seen in it. Read from the
//   namespace indexes; grows with the number of jobs and datasets.
// Parameters: $name: one namespace, or null for all; $skip, $limit: the page
// Columns: name, createdAt (earliest firstSeen), updatedAt (latest lastSeen)
CALL () {
  MATCH (d:Dataset) WHERE d.namespace IS NOT NULL AND ($name IS NULL OR d.namespace = $name)
  RETURN d.namespace AS name, min(d.firstSeen) AS createdAt, max(d.lastSeen) AS updatedAt
  UNION ALL
  MATCH (j:Job) WHERE j.namespace IS NOT NULL AND ($name IS NULL OR j.namespace = $name)
  RETURN j.namespace AS name, min(j.firstSeen) AS createdAt, max(j.lastSeen) AS updatedAt
}
WITH name, min(createdAt) AS createdAt, max(updatedAt) AS updatedAt
ORDER BY name
SKIP toInteger($skip) LIMIT toInteger($limit)
RETURN name, createdAt, updatedAt
