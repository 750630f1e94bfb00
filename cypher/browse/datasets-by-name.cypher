// Purpose: one page of datasets in id order (namespace, then name, as their ids sort: ':' and '%'
//   in a name sort as their escapes), optionally of one namespace, and how many there are. The
//   prefix selects on the id's uniqueness index, which also gives the order (no sort).
// Parameters: $prefix: 'dataset:' or the id prefix of one namespace ('dataset:<escaped ns>:');
//   $skip, $limit: the page
// Columns: total (integer), ids: list of dataset ids
// Warm-up: {"prefix": ["-"], "skip": [0], "limit": [0]}
CALL () {
  MATCH (d:Dataset) WHERE d.id STARTS WITH $prefix
  RETURN count(d) AS total
}
CALL () {
  MATCH (d:Dataset) WHERE d.id STARTS WITH $prefix
  WITH d.id AS id ORDER BY id
  SKIP toInteger($skip) LIMIT toInteger($limit)
  RETURN collect(id) AS ids
}
RETURN total, ids
