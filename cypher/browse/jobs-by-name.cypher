// Purpose: one page of jobs in id order (namespace, then name, as their ids sort: ':' and '%'
//   in a name sort as their escapes), optionally of one namespace, and how many there are. The
//   prefix selects on the id's uniqueness index, which also gives the order (no sort).
// Parameters: $prefix: 'job:' or the id prefix of one namespace ('job:<escaped ns>:');
//   $skip, $limit: the page
// Columns: total (integer), ids: list of job ids
// Warm-up: {"prefix": ["-"], "skip": [0], "limit": [0]}
CALL () {
  MATCH (j:Job) WHERE j.id STARTS WITH $prefix
  RETURN count(j) AS total
}
CALL () {
  MATCH (j:Job) WHERE j.id STARTS WITH $prefix
  WITH j.id AS id ORDER BY id
  SKIP toInteger($skip) LIMIT toInteger($limit)
  RETURN collect(id) AS ids
}
RETURN total, ids
