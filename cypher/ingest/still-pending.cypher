// Purpose: which of these events are stored and not yet projected (a client waiting to read its writes).
// Parameters: $ids: list of event ids
// Columns: id
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
UNWIND $ids AS id
MATCH (e:Event {id: id})
WHERE e:Pending
RETURN e.id AS id
