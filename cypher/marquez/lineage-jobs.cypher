// Purpose: what a job node of Marquez's table lineage (JobData) needs, for thousands of jobs in one
//   read: the job, its current inputs and outputs (FEEDS/PRODUCES current), the job of its latest
//   run's parent run, and that latest run, light (no facets, no dataset versions: Marquez 0.50 leaves
//   them out there too). No facets, tags, versions or other runs (jobs-detail.cypher has those).
//   Rows are lists, not maps, and inputs and outputs are not sorted here: a 20,000-node answer
//   decodes about a third as much (src/marquez/lineage-rows.ts reads them).
// Parameters: $ids: list of job ids
// Columns: job: [id, namespace, name, description, processingType, jobType, integration,
//   sourceCodeUrl, firstSeen, lastSeen]; inputs, outputs: lists of [namespace, name], unsorted;
//   parent: [id, namespace, name] of the latest run's parent run's job, or null; latest: [id, runId,
//   state, startedAt, endedAt, firstSeen, lastSeen, nominalStartTime, nominalEndTime, job version
//   id or null] or null; ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 100, 1000]}]}
UNWIND $ids AS id
MATCH (j:Job {id: id})
WITH j, COLLECT { MATCH (j)<-[:RUN_OF]-(r:Run) RETURN r ORDER BY r.lastSeen DESC, r.id DESC LIMIT 1 }[0] AS latest
// A job known only as a parent (an Airflow DAG named by its tasks' parent facets) has no event of
// its own: the times its children named it stand in.
CALL (j) {
  WITH j WHERE j.firstSeen IS NULL
  MATCH (j)<-[:RUN_OF]-(:Run)<-[p:PARENT]-(:Run)
  RETURN min(p.firstSeen) AS first, max(p.lastSeen) AS last
}
RETURN [j.id, j.namespace, j.name, j.description, j.processingType, j.jobType, j.integration, j.sourceCodeUrl,
        coalesce(j.firstSeen, first), coalesce(j.lastSeen, last)] AS job,
       COLLECT { MATCH (d:Dataset)-[e:FEEDS]->(j) WHERE e.current RETURN [d.namespace, d.name] } AS inputs,
       COLLECT { MATCH (j)-[e:PRODUCES]->(d:Dataset) WHERE e.current RETURN [d.namespace, d.name] } AS outputs,
       CASE WHEN latest IS NULL THEN null
            ELSE COLLECT { MATCH (latest)-[:PARENT]->(:Run)-[:RUN_OF]->(pj:Job)
                           RETURN [pj.id, pj.namespace, pj.name] ORDER BY pj.id LIMIT 1 }[0] END AS parent,
       CASE WHEN latest IS NULL THEN null
            ELSE [latest.id, latest.runId, latest.state, latest.startedAt, latest.endedAt, latest.firstSeen, latest.lastSeen,
                  latest.nominalStartTime, latest.nominalEndTime,
                  COLLECT { MATCH (latest)-[:OF_VERSION]->(v:JobVersion) RETURN v.id LIMIT 1 }[0]] END AS latest
