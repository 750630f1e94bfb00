// Purpose: attach runs to job versions: (:Job)-[:HAS_VERSION]->(v:JobVersion)<-[:OF_VERSION]-(:Run).
//   A version is one combination of inputs, outputs and source code (id = job id + hash of them);
//   a run moves to another version when later events of it add IO, and a version left without runs
//   is deleted, so the versions depend only on the stored events. firstSeen/lastSeen/runs are
//   recomputed from the version's runs.
// Parameters: $rows: list of {runId, jobId, versionId, inputs, outputs, codeSig}; $jobIds: jobs of those runs
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}], "jobIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
CALL () {
  UNWIND $rows AS x
  MATCH (r:Run {id: x.runId})
  MATCH (j:Job {id: x.jobId})
  MERGE (v:JobVersion {id: x.versionId})
    ON CREATE SET v.jobId = x.jobId, v.inputs = x.inputs, v.outputs = x.outputs, v.codeSig = x.codeSig
  MERGE (j)-[:HAS_VERSION]->(v)
  WITH r, v
  CALL (r, v) {
    MATCH (r)-[old:OF_VERSION]->(other:JobVersion) WHERE other <> v
    DELETE old
  }
  MERGE (r)-[:OF_VERSION]->(v)
}
CALL () {
  UNWIND $jobIds AS id
  MATCH (:Job {id: id})-[:HAS_VERSION]->(v:JobVersion)
  OPTIONAL MATCH (v)<-[:OF_VERSION]-(r:Run)
  WITH v, min(r.firstSeen) AS firstSeen, max(r.lastSeen) AS lastSeen, count(r) AS runs
  SET v.firstSeen = firstSeen, v.lastSeen = lastSeen, v.runs = runs
  WITH v, runs WHERE runs = 0
  DETACH DELETE v
}
