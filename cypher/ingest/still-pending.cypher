// Purpose: which of these acknowledged events the graph does not hold projected yet (still in the
//   spool, or labelled Pending by an earlier version): tests and operators checking read-your-writes.
// Parameters: $ids: list of event ids
// Columns: id
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: read
UNWIND $ids AS id
OPTIONAL MATCH (e:Event {id: id})
WITH id, e
WHERE e IS NULL OR e:Pending
RETURN id
