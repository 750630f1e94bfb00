// Purpose: the namespaces that hold datasets or jobs, ordered by name, with how many datasets and
//   jobs each holds (every dataset name counts, symlinked names included; parent jobs named only by
//   a parent facet count as jobs). Read from the namespace indexes; grows with the number of nodes.
// Parameters: $skip, $limit: the page
// Columns: total (integer: namespaces in all), items: list of {name, datasets, jobs}
// Warm-up: {"skip": [0], "limit": [0]}
CALL () {
  MATCH (d:Dataset) WHERE d.namespace IS NOT NULL
  RETURN d.namespace AS name, count(*) AS datasets, 0 AS jobs
  UNION ALL
  MATCH (j:Job) WHERE j.namespace IS NOT NULL
  RETURN j.namespace AS name, 0 AS datasets, count(*) AS jobs
}
WITH name, sum(datasets) AS datasets, sum(jobs) AS jobs
ORDER BY name
WITH collect({name: name, datasets: datasets, jobs: jobs}) AS everything
RETURN size(everything) AS total, everything[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS items
