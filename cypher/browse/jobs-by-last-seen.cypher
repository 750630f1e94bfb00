// Purpose: one page of jobs, most recently seen first (lastSeen: the latest event that named
//   them; never seen, e.g. a parent job named only by a parent facet, last; then id), optionally of one namespace, and how many there are. Sorts the selection.
// Parameters: $prefix: 'job:' or the id prefix of one namespace ('job:<escaped ns>:');
//   $skip, $limit: the page
// Columns: total (integer), ids: list of job ids
// Warm-up: {"prefix": ["-"], "skip": [0], "limit": [0]}
MATCH (j:Job) WHERE j.id STARTS WITH $prefix
WITH j ORDER BY j.lastSeen IS NULL, j.lastSeen DESC, j.id
WITH collect(j.id) AS everything
RETURN size(everything) AS total, everything[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS ids
