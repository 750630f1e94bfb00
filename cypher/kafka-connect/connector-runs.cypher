// Purpose: the latest run of each job of one Kafka Connect cluster's namespace that is not retired
//   (src/kafka-connect/collector.ts restores what it last sent from it): latest by lastSeen, an
//   open run before an ended one seen at the same time (a reconfiguration ends one run and starts
//   the next in one round), then by id.
// Parameters: $prefix: the id prefix of the namespace ('job:<escaped ns>:')
// Columns: connector (the job name), runId (the OpenLineage run id), ended (boolean),
//   facetKeys, facetValues (the run's facets, merge-facets.cypher)
MATCH (j:Job) WHERE j.id STARTS WITH $prefix AND j.retiredAt IS NULL
CALL (j) {
  MATCH (j)<-[:RUN_OF]-(r:Run)
  RETURN r ORDER BY r.lastSeen DESC, CASE WHEN r.endedAt IS NULL THEN 0 ELSE 1 END, r.id DESC
  LIMIT 1
}
RETURN j.name AS connector, r.runId AS runId, r.endedAt IS NOT NULL AS ended,
       coalesce(r.facetKeys, []) AS facetKeys, coalesce(r.facetValues, []) AS facetValues
