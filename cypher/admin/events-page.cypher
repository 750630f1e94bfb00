// Purpose: one page of stored events for re-projection, in id order, selected by the namespace of
//   their job (RunEvent, JobEvent) or dataset (DatasetEvent), given as id prefixes.
// Parameters: $jobPrefix ('job:<escaped namespace prefix>'), $datasetPrefix ('dataset:<...>'),
//   $after: last id of the previous page ('' for the first), $limit: page size
// Columns: id, raw (the JSON text as received)
MATCH (e:Event)
WHERE e.id > $after AND (e.jobId STARTS WITH $jobPrefix OR e.datasetId STARTS WITH $datasetPrefix)
RETURN e.id AS id, e.raw AS raw
ORDER BY e.id
LIMIT toInteger($limit)
