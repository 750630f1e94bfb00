// Purpose: what produced each run, to name the likely cause of a lineage change between two runs:
//   the producer URI of the run's latest stored event (latest eventTime, ties by the larger event
//   id), the processing_engine facet's engine name and version and OpenLineage adapter version,
//   and the job's source code signature as of the run.
// Parameters: $runIds: list of run node ids
// Columns: runId, producer (null when no event is stored), engineName, engineVersion, adapterVersion, codeSig
// Warm-up: {"runIds": [{"listOf": "-", "sizes": [1, 10, 100]}]}
UNWIND $runIds AS id
MATCH (r:Run {id: id})
RETURN r.id AS runId,
       COLLECT { MATCH (e:Event {runId: r.id}) RETURN e.producer ORDER BY e.eventTime DESC, e.id DESC LIMIT 1 }[0] AS producer,
       r.engineName AS engineName, r.engineVersion AS engineVersion, r.adapterVersion AS adapterVersion, r.codeSig AS codeSig
