// Purpose: the namespace summaries Marquez's namespace list reads (marquez/namespaces.cypher): one
//   Namespace node per namespace a job or dataset was ever named in, with the earliest and latest
//   time of an event that named something in it (a job, a dataset, a parent or root job).
//   Commutative (min/max), so independent of arrival order. Written last in a projection's
//   transaction, in name order, and a node only when one of its times moves: a concurrent
//   projector naming the same namespace waits on its lock only while this one commits, and two
//   never wait on each other's namespaces in opposite orders.
// Parameters: $rows: list of {name, firstSeen, lastSeen}, one per name, sorted by name
// Columns: none
// Warm-up: {"rows": [{"listOf": {"name": "-", "firstSeen": "2000-01-01T00:00:00Z", "lastSeen": "2000-01-01T00:00:00Z"}, "sizes": [1, 10]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MERGE (n:Namespace {name: x.name})
  ON CREATE SET n.firstSeen = x.firstSeen, n.lastSeen = x.lastSeen
WITH n, x, n.firstSeen IS NULL OR x.firstSeen < n.firstSeen AS earlier, n.lastSeen IS NULL OR x.lastSeen > n.lastSeen AS later
WHERE earlier OR later
SET n.firstSeen = CASE WHEN earlier THEN x.firstSeen ELSE n.firstSeen END,
    n.lastSeen = CASE WHEN later THEN x.lastSeen ELSE n.lastSeen END
