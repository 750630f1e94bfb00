// Purpose: the names of the datasets of one namespace (the Kafka topics Tributary knows on one
//   cluster), for the Kafka Connect collector's `topics.regex` (src/kafka-connect/mapping.ts);
//   at most $limit, in id order.
// Parameters: $prefix: the id prefix of the namespace ('dataset:<escaped ns>:'); $limit
// Columns: name
MATCH (d:Dataset) WHERE d.id STARTS WITH $prefix
WITH d ORDER BY d.id
LIMIT toInteger($limit)
RETURN d.name AS name
