// Purpose: what a blast radius tells of its items beyond the walk: the owners of datasets and jobs
//   (derived from their ownership facets), and each job's latest run state (its run with the latest
//   lastSeen, ties by run id, as nodes/latest-run-of-jobs.cypher). Reads no facet JSON: a wide
//   table's schema facet is tens of KB, and a walk reaches thousands of datasets.
// Parameters: $datasetIds: list of dataset ids; $jobIds: list of job ids (none: [""], NO_NODE_ID)
// Columns: id, owners (list of strings, empty when none), lastRunState (a job's; null for datasets and
//   jobs without runs); ids not found are absent
// Warm-up: {"datasetIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}], "jobIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
CALL () {
  UNWIND $datasetIds AS id
  MATCH (d:Dataset {id: id})
  RETURN d.id AS id, coalesce(d.owners, []) AS owners, null AS lastRunState
  UNION ALL
  UNWIND $jobIds AS id
  MATCH (j:Job {id: id})
  RETURN j.id AS id, coalesce(j.owners, []) AS owners,
         COLLECT { MATCH (j)<-[:RUN_OF]-(r:Run) RETURN r.state AS state ORDER BY r.lastSeen DESC, r.id DESC LIMIT 1 }[0] AS lastRunState
}
RETURN id, owners, lastRunState
