// Purpose: records how far this graph has projected one partition of the Kafka events topic
//   (issue 27): `next` is the first offset not yet projected. Written in the transaction that
//   projected the messages before it (or, when that batch was split or held no valid event, in one
//   right after it), so the graph never claims an offset it does not hold. Never moves back: a
//   redelivered batch (a rebalance, a restart) records an older offset and leaves `next` as it is.
//   Read by `Tributary-Wait: projected` in TRIBUTARY_INGEST_LOG=kafka and by a replica started from
//   a copy of another graph (it resumes the topic from here).
// Parameters: $id: the offset's node id (ids.ts logOffsetId); $topic; $partition: integer; $next: integer
// Columns: next: the partition's recorded next offset after this write
// Warm-up: {"id": ["-"], "topic": ["-"], "partition": [0], "next": [0]}
MERGE (o:LogOffset {id: $id})
ON CREATE SET o.topic = $topic, o.partition = $partition, o.next = $next
ON MATCH SET o.next = CASE WHEN o.next < $next THEN $next ELSE o.next END
RETURN o.next AS next
