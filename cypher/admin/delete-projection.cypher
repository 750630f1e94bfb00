// Purpose: delete up to $limit projected nodes (never Event nodes) of the jobs and datasets whose
//   namespace starts with $prefix ('' = all), before a rebuild from stored events. Phase 1 deletes
//   their runs, fields and job versions (reached through RUN_OF, HAS_FIELD, HAS_VERSION), phase 2 the jobs and datasets and
//   the namespace summaries (min/max times: rebuilt from the events, never decremented), so nothing is orphaned. Call each phase until it deletes 0.
// Parameters: $prefix: namespace prefix; $phase: 1 or 2; $limit: nodes per call
// Columns: deleted (integer)
CALL () {
  WITH 1 AS one WHERE $phase = 1
  MATCH (j:Job)<-[:RUN_OF]-(r:Run) WHERE j.namespace STARTS WITH $prefix RETURN r AS n
  UNION
  WITH 1 AS one WHERE $phase = 1
  MATCH (d:Dataset)-[:HAS_FIELD]->(f:Field) WHERE d.namespace STARTS WITH $prefix RETURN f AS n
  UNION
  WITH 1 AS one WHERE $phase = 1
  MATCH (j:Job)-[:HAS_VERSION]->(v:JobVersion) WHERE j.namespace STARTS WITH $prefix RETURN v AS n
  UNION
  WITH 1 AS one WHERE $phase = 2
  MATCH (j:Job) WHERE j.namespace STARTS WITH $prefix RETURN j AS n
  UNION
  WITH 1 AS one WHERE $phase = 2
  MATCH (d:Dataset) WHERE d.namespace STARTS WITH $prefix RETURN d AS n
  UNION
  WITH 1 AS one WHERE $phase = 2
  MATCH (s:Namespace) WHERE s.name STARTS WITH $prefix RETURN s AS n
}
WITH DISTINCT n LIMIT toInteger($limit)
DETACH DELETE n
RETURN count(*) AS deleted
