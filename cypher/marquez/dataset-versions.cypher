// Purpose: one page of a dataset's versions as Marquez lists them (GET .../datasets/{ds}/versions):
//   one version per run that wrote the dataset (OUTPUT_TO), newest first (the edge's firstSeen, then
//   run id), with the fields that run reported of it, and their total. A dataset no run wrote has
//   none. The dataset facets of each version are read from the run's stored events (events-of-runs.cypher).
// Parameters: $datasetId; $skip, $limit: the page
// Columns: total (integer), versions: list of {runId (run node id), createdAt, fields: list of schema
//   paths the run reported (null: not recorded)}
// Warm-up: {"datasetId": ["-"], "skip": [0], "limit": [100]}
MATCH (w:Run)-[o:OUTPUT_TO]->(:Dataset {id: $datasetId})
WITH w, o ORDER BY o.firstSeen DESC, w.id DESC
WITH collect({runId: w.id, createdAt: o.firstSeen, fields: o.fields}) AS versions
RETURN size(versions) AS total, versions[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS versions
