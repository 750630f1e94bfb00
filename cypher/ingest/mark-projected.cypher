// Purpose: mark stored events as projected (drop the Pending label), in the transaction that
//   wrote their projection; or, with $error set, as failed (label ProjectionFailed and the error;
//   `npm run reproject` tries them again).
//   `projectedAt` records when (receivedAt → projectedAt is the projection lag of that event).
// Parameters: $ids: list of event ids; $error: null, or why their projection failed; $at: ISO-8601 time
// Columns: none
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}], "error": [null], "at": ["-"]}
// Warm-up transaction: after-write
UNWIND $ids AS id
MATCH (e:Event {id: id})
REMOVE e:Pending
SET e.projectedAt = $at
FOREACH (_ IN CASE WHEN $error IS NULL THEN [] ELSE [1] END | SET e:ProjectionFailed, e.projectionError = $error)
