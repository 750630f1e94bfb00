// Purpose: liveness probe of the database: answers at once when it runs queries at all (the projector,
//   after a failed batch, to tell a database that is down from a batch it refuses; src/graph/liveness.ts every second).
// Parameters: none
// Columns: ok (integer, 1)
RETURN 1 AS ok
