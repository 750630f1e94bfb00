// Purpose: store accepted OpenLineage events durably, once per content hash, for projection later
//   (the HTTP contract: acknowledged once stored; src/ingest/projector.ts projects them). A new
//   Event node carries the label Pending until its projection commits.
// Parameters:
//   $events: list of {id, kind, eventType, eventTime, producer, specVersion, runId, jobId, datasetId, raw}
//            (ids unique within the list)
//   $token: string unique to this statement; $receivedAt: ISO-8601 UTC time of receipt
// Columns: id (string), created (boolean; false when an identical event was stored before),
//   pending (boolean; true while not yet projected)
// Warm-up: {"events": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}], "token": ["-"], "receivedAt": ["-"]}
UNWIND $events AS x
MERGE (e:Event {id: x.id})
  ON CREATE SET e += x, e.receivedAt = $receivedAt, e.token = $token, e:Pending
RETURN x.id AS id, e.token = $token AS created, e:Pending AS pending
