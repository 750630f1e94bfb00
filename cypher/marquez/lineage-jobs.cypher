// Purpose: what a job node of Marquez's table lineage (JobData) needs, for thousands of jobs in one
//   read: the job, its current inputs and outputs (FEEDS/PRODUCES current), the job of its latest
//   run's parent run, and that latest run, light (no facets, no dataset versions: Marquez 0.50 leaves
//   them out there too). No facets, tags, versions or other runs (jobs-detail.cypher has those).
// Parameters: $ids: list of job ids
// Columns: job: {id, namespace, name, description, processingType, jobType, integration, sourceCodeUrl,
//   firstSeen, lastSeen, facets: []}, inputs, outputs: lists of {namespace, name} ordered by id,
//   runIds: [latest run id] or [], versionId: null, parent: {id, namespace, name} or null, tags: [],
//   hidden: false, latest: {run: {id, runId, state, startedAt, endedAt, firstSeen, lastSeen,
//   nominalStartTime, nominalEndTime, facets: []}, job: {id, namespace, name}, versionId, inputs: [],
//   outputs: []} or null; ids not found are absent
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
RETURN j {.id, .namespace, .name, .description, .processingType, .jobType, .integration, .sourceCodeUrl,
          firstSeen: coalesce(j.firstSeen, first), lastSeen: coalesce(j.lastSeen, last), facets: []} AS job,
       COLLECT { MATCH (d:Dataset)-[e:FEEDS]->(j) WHERE e.current WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS inputs,
       COLLECT { MATCH (j)-[e:PRODUCES]->(d:Dataset) WHERE e.current WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS outputs,
       CASE WHEN latest IS NULL THEN [] ELSE [latest.id] END AS runIds,
       null AS versionId,
       CASE WHEN latest IS NULL THEN null
            ELSE COLLECT { MATCH (latest)-[:PARENT]->(:Run)-[:RUN_OF]->(pj:Job)
                           RETURN pj {.id, .namespace, .name} ORDER BY pj.id LIMIT 1 }[0] END AS parent,
       [] AS tags,
       false AS hidden,
       CASE WHEN latest IS NULL THEN null
            ELSE {run: latest {.id, .runId, .state, .startedAt, .endedAt, .firstSeen, .lastSeen, .nominalStartTime, .nominalEndTime, facets: []},
                  job: j {.id, .namespace, .name},
                  versionId: COLLECT { MATCH (latest)-[:OF_VERSION]->(v:JobVersion) RETURN v.id LIMIT 1 }[0],
                  inputs: [], outputs: []} END AS latest
