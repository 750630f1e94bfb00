// Purpose: Marquez's namespace list (GET /api/v1/namespaces): every namespace that holds a job or a
//   dataset, ordered by name (the empty namespace, which Marquez cannot name, left out), with the earliest and latest event time seen in it. Read from the
//   namespace indexes; grows with the number of jobs and datasets.
// Parameters: $name: one namespace, or null for all; $skip, $limit: the page
// Columns: name, createdAt (earliest firstSeen), updatedAt (latest lastSeen)
// Warm-up: {"name": [null, "-"], "skip": [0], "limit": [100]}
CALL () {
  MATCH (d:Dataset) WHERE d.namespace IS NOT NULL AND d.namespace <> '' AND ($name IS NULL OR d.namespace = $name)
  RETURN d.namespace AS name, min(d.firstSeen) AS createdAt, max(d.lastSeen) AS updatedAt
  UNION ALL
  MATCH (j:Job) WHERE j.namespace IS NOT NULL AND j.namespace <> '' AND ($name IS NULL OR j.namespace = $name)
  // A job known only as a parent (an Airflow DAG named by its tasks' parent facets) has no event of
  // its own: the times its children named it stand in.
  CALL (j) {
    WITH j WHERE j.firstSeen IS NULL
    MATCH (j)<-[:RUN_OF]-(:Run)<-[p:PARENT]-(:Run)
    RETURN min(p.firstSeen) AS first, max(p.lastSeen) AS last
  }
  RETURN j.namespace AS name, min(coalesce(j.firstSeen, first)) AS createdAt, max(coalesce(j.lastSeen, last)) AS updatedAt
}
WITH name, min(createdAt) AS createdAt, max(updatedAt) AS updatedAt
ORDER BY name
SKIP toInteger($skip) LIMIT toInteger($limit)
RETURN name, createdAt, updatedAt
