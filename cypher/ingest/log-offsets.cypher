// Purpose: how far this graph has projected each partition of a Kafka events topic (see
//   record-log-offset.cypher): what `Tributary-Wait: projected` compares an acknowledged event's
//   offset with, and where a replica started from a copy of another graph resumes.
// Parameters: $topic: the events topic
// Columns: partition: integer; next: the first offset of that partition not yet projected
// Warm-up: {"topic": ["-"]}
// Warm-up transaction: read
MATCH (o:LogOffset)
WHERE o.topic = $topic
RETURN o.partition AS partition, o.next AS next
ORDER BY partition
