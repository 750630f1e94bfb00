// Purpose: the plans Neo4j compiled for statements since it started (a cache miss, or a cached plan
//   found stale: not the replans the plan refresher forces), the last 500 kept, from the procedure
//   the embedded Neo4j's launcher registers (tributary.planCompiles, tools/neo4j/Launcher.java);
//   another server has no such procedure and fails with Neo.ClientError.Procedure.ProcedureNotFound.
//   Read by src/graph/plan-compiles.ts to name the queries that met a compile after the warm-up.
// Parameters: $after: integer, the last sequence number already read (0: all kept)
// Columns: seq (integer, increasing from 1), at (epoch milliseconds), event ('compiled' | 'stale' |
//   'flushed': the whole cache dropped, as a schema change does; statement and parameters empty),
//   statement (the text as Neo4j keyed it: after leading comments and EXPLAIN/CYPHER options),
//   parameters (the parameter types the plan is keyed by, as Neo4j renders them: text),
//   afterWrite (its transaction held uncommitted changes), reason (why a stale plan was, or how many
//   plans a flush dropped; else null)
CALL tributary.planCompiles($after) YIELD seq, at, event, statement, parameters, afterWrite, reason
RETURN seq, at, event, statement, parameters, afterWrite, reason
ORDER BY seq
