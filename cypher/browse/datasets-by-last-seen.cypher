// Purpose: one page of datasets, most recently seen first (lastSeen: the latest event that named
//   them; never seen, e.g. a parent job named only by a parent facet, last; then id), optionally of one namespace, and how many there are. Sorts the selection.
// Parameters: $prefix: 'dataset:' or the id prefix of one namespace ('dataset:<escaped ns>:');
//   $skip, $limit: the page
// Columns: total (integer), ids: list of dataset ids
// Warm-up: {"prefix": ["-"], "skip": [0], "limit": [0]}
MATCH (d:Dataset) WHERE d.id STARTS WITH $prefix
WITH d ORDER BY d.lastSeen IS NULL, d.lastSeen DESC, d.id
WITH collect(d.id) AS everything
RETURN size(everything) AS total, everything[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS ids
