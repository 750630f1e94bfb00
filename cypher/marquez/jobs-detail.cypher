// Purpose: what Marquez's Job shape needs of each job (batch): the job, its facets, its current
//   inputs and outputs (FEEDS/PRODUCES current), its ten newest runs (lastSeen, then id, newest
//   first), its newest version, the job of its latest run's parent run, its tags and whether it is
//   soft-deleted (Annotation hiddenAt at or after its lastSeen).
// Parameters: $ids: list of job ids
// Columns: job: {id, namespace, name, description, processingType, jobType, integration, sourceCodeUrl, firstSeen,
//   lastSeen, facets: list of [key, JSON text] in key order, deleted facets left out}, inputs, outputs:
//   lists of {namespace, name} ordered by id, runIds: up to 10 run node ids newest first, versionId:
//   newest JobVersion id or null, parent: {id, namespace, name} or null, tags: list, hidden (boolean); ids not found are absent
// Warm-up: {"ids": [{"listOf": "-", "sizes": [1, 10, 100]}]}
UNWIND $ids AS id
MATCH (j:Job {id: id})
OPTIONAL MATCH (a:Annotation {id: id})
WITH j, a, COLLECT { MATCH (j)<-[:RUN_OF]-(r:Run) RETURN r ORDER BY r.lastSeen DESC, r.id DESC LIMIT 10 } AS runs
// A job known only as a parent (an Airflow DAG named by its tasks' parent facets) has no event of
// its own: the times its children named it stand in.
CALL (j) {
  WITH j WHERE j.firstSeen IS NULL
  MATCH (j)<-[:RUN_OF]-(:Run)<-[p:PARENT]-(:Run)
  RETURN min(p.firstSeen) AS first, max(p.lastSeen) AS last
}
RETURN j {.id, .namespace, .name, .description, .processingType, .jobType, .integration, .sourceCodeUrl,
          firstSeen: coalesce(j.firstSeen, first), lastSeen: coalesce(j.lastSeen, last),
          facets: [i IN range(0, size(coalesce(j.facetKeys, [])) - 1) WHERE j.facetValues[i] <> '' | [j.facetKeys[i], j.facetValues[i]]]} AS job,
       COLLECT { MATCH (d:Dataset)-[e:FEEDS]->(j) WHERE e.current WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS inputs,
       COLLECT { MATCH (j)-[e:PRODUCES]->(d:Dataset) WHERE e.current WITH d ORDER BY d.id RETURN d {.namespace, .name} } AS outputs,
       [r IN runs | r.id] AS runIds,
       COLLECT { MATCH (j)-[:HAS_VERSION]->(v:JobVersion) RETURN v.id ORDER BY v.lastSeen DESC, v.id DESC LIMIT 1 }[0] AS versionId,
       CASE WHEN size(runs) = 0 THEN null
            ELSE COLLECT { WITH runs[0] AS latest MATCH (latest)-[:PARENT]->(:Run)-[:RUN_OF]->(pj:Job)
                           RETURN pj {.id, .namespace, .name} ORDER BY pj.id LIMIT 1 }[0] END AS parent,
       coalesce(a.tags, []) AS tags,
       coalesce(a.hiddenAt >= j.lastSeen, false) AS hidden
