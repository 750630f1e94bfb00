// Purpose: store accepted OpenLineage events durably, once per content hash (raw JSON kept so the
//   graph can be rebuilt). Runs in the same transaction as the projection of those events, which
//   projects events stored before too: one stored Pending or ProjectionFailed loses that label.
// Parameters:
//   $events: list of {id, kind, eventType, eventTime, producer, specVersion, runId, jobId, datasetId, raw,
//            receivedAt (optional: the time the spool received it; else $receivedAt), projectedAt}
//            (ids unique within the list)
//   $token: string unique to this transaction; $receivedAt: ISO-8601 UTC time of receipt
// Columns: id (string), created (boolean; false when an identical event was stored before)
// Warm-up: {"events": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}], "token": ["-"], "receivedAt": ["-"]}
// Warm-up transaction: first
UNWIND $events AS x
MERGE (e:Event {id: x.id})
  ON CREATE SET e += x, e.receivedAt = coalesce(x.receivedAt, $receivedAt), e.token = $token
// Stored before, unprojected (an earlier version's Pending) or failed: this transaction projects it
// again, so if it commits the event is projected (if it fails, nothing of this is kept).
FOREACH (_ IN CASE WHEN e:Pending OR e:ProjectionFailed THEN [1] ELSE [] END |
  REMOVE e:Pending, e:ProjectionFailed
  SET e.projectionError = null, e.projectedAt = x.projectedAt)
RETURN x.id AS id, e.token = $token AS created
