// Purpose: Neo4j's query-cache counters since the database started, from the procedure the embedded
//   Neo4j's launcher registers (tributary.queryCaches, tools/neo4j/Launcher.java); another server
//   has no such procedure and fails with Neo.ClientError.Procedure.ProcedureNotFound.
// Parameters: none
// Columns: plans (logical plans compiled: the planner ran), codeGen (executable plans recompiled with
//   compiled expressions once hot), stale (cached plans found stale, as statistics changed, and so
//   replanned); integers
CALL tributary.queryCaches() YIELD kind, compiled, compiledWithExpressionCodeGen, stale
RETURN sum(CASE kind WHEN 'logical_plan' THEN compiled ELSE 0 END) AS plans,
       sum(CASE kind WHEN 'executable_query' THEN compiledWithExpressionCodeGen ELSE 0 END) AS codeGen,
       sum(CASE kind WHEN 'logical_plan' THEN stale ELSE 0 END) AS stale
