// Purpose: liveness probe of the database: answers at once when it runs queries at all (the projector
//   asks it after a failed batch, to tell a database that is down from a batch it refuses).
// Parameters: none
// Columns: ok (integer, 1)
RETURN 1 AS ok
