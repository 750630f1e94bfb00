// Purpose: the datasets each declared table name (SqlTable) may be, a page of SqlTables at a time
//   (keys after $after, in key order). A candidate is a dataset whose lower-cased name, split at
//   '.' and '/', ends with the table's last part: STRONG when its last two parts match too (or both
//   are the one part: `lake.shop.orders` is `shop.orders` and `/warehouse/shop/orders`), MEDIUM by
//   the table part alone (`orders` and `pg.sales.orders`). `score` ranks them: 2 × the trailing
//   parts that match (up to 3), plus 1 when the whole names are equal. Dataset names are matched as
//   stored (the identity rules have applied): an upper-case stored name is not found by a
//   lower-case tail. Up to $perTable candidates, best score first, then by id. `group`: the least id
//   among the dataset and its SYMLINKed names (one logical dataset, one group).
// Parameters: $after: the last key of the previous page ('' first); $limit: SqlTables per page; $perTable
// Columns: key, declared (some job still DECLARES it), candidates: list of {datasetId, strength, score, group},
//   current: the RESOLVES relationships it has, list of {datasetId, strength}
// Warm-up: {"after": [""], "limit": [1], "perTable": [1]}
MATCH (s:SqlTable) WHERE s.key > $after
WITH s ORDER BY s.key
LIMIT toInteger($limit)
WITH s, reverse(split(s.key, '.')) AS sp
CALL (s, sp) {
  MATCH (d:Dataset) WHERE d.name ENDS WITH s.tail
  WITH d, sp, reverse(split(replace(toLower(d.name), '/', '.'), '.')) AS dp
  WITH d, sp, dp, CASE WHEN dp[0] <> sp[0] THEN 0
                       WHEN size(sp) < 2 OR size(dp) < 2 OR dp[1] <> sp[1] THEN 1
                       WHEN size(sp) < 3 OR size(dp) < 3 OR dp[2] <> sp[2] THEN 2 ELSE 3 END AS k
  WHERE k > 0
  WITH d, k, size(sp) = k AND size(dp) = k AS exact
  WITH d, CASE WHEN k >= 2 OR exact THEN 'STRONG' ELSE 'MEDIUM' END AS strength, 2 * k + CASE WHEN exact THEN 1 ELSE 0 END AS score
  ORDER BY score DESC, d.id
  LIMIT toInteger($perTable)
  WITH d, strength, score, reduce(g = d.id, a IN COLLECT { MATCH (d)-[:SYMLINK]-(x:Dataset) RETURN x.id } | CASE WHEN a < g THEN a ELSE g END) AS group
  RETURN collect({datasetId: d.id, strength: strength, score: score, group: group}) AS candidates
}
RETURN s.key AS key, EXISTS { (s)<-[:DECLARES]-(:Job) } AS declared, candidates,
       COLLECT { MATCH (s)-[r:RESOLVES]->(d:Dataset) RETURN {datasetId: d.id, strength: r.strength} AS c ORDER BY c.datasetId } AS current
