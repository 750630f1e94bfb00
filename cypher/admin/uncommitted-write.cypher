// Purpose: give a transaction uncommitted changes, in a transaction that is always rolled back, so
//   that an EXPLAIN after it caches the plan Neo4j uses for a query that follows a write in the same
//   transaction: Neo4j keys its plan cache by whether the transaction state has changes, so the
//   plans of a projection's statements after its first write are cached apart from those EXPLAINed
//   in a clean transaction (src/graph/executor.ts, explain with afterWrite). One label-less node:
//   no token is created.
// Parameters: none
// Columns: none
CREATE ()
