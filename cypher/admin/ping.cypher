// Purpose: liveness probe: the database answers a query at all (src/graph/liveness.ts).
// Parameters: none
// Columns: ok (integer, always 1)
RETURN 1 AS ok
