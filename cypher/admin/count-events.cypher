// Purpose: how many stored events re-projection will replay (same selection as events-page.cypher).
// Parameters: $jobPrefix, $datasetPrefix: id prefixes, as in events-page.cypher
// Columns: events (integer)
MATCH (e:Event)
WHERE e.jobId STARTS WITH $jobPrefix OR e.datasetId STARTS WITH $datasetPrefix
RETURN count(e) AS events
