// Purpose: stored events still waiting for projection that no live process is projecting: those
//   received before $before (left by a process that stopped, or stored before this one started;
//   the projector asks only while its own queue is empty). Oldest first, at most $limit.
// Parameters: $before: ISO-8601 time; $limit: integer
// Columns: id, raw, receivedAt
// Warm-up: {"before": ["-"], "limit": [1]}
// Warm-up transaction: read
MATCH (e:Pending)
WHERE e.receivedAt < $before
RETURN e.id AS id, e.raw AS raw, e.receivedAt AS receivedAt
ORDER BY e.receivedAt
LIMIT toInteger($limit)
