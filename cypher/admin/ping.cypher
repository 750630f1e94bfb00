// Purpose: liveness of the database connection.
// Parameters: none
// Columns: ok (integer 1)
RETURN 1 AS ok
