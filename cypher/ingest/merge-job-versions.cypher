// Purpose: attach runs to job versions: (:Job)-[:HAS_VERSION]->(v:JobVersion)<-[:OF_VERSION]-(:Run).
//   A version is one combination of inputs, outputs and source code (id = job id + hash of them);
//   a run moves to another version when later events of it add IO, and a version left without runs
//   is deleted, so the versions depend only on the stored events. firstSeen/lastSeen/runs: min,
//   max and count over the version's runs, maintained incrementally (issue 28): a version that
//   keeps or gains a run of the batch takes min/max with that run's firstSeen/lastSeen (a run's
//   firstSeen only decreases and its lastSeen only increases, so this equals the recount) and
//   counts its OF_VERSION edges (the degree, not the runs); only a version that lost a run to
//   another version is recounted from its runs (and deleted when none is left). A batch therefore
//   costs what it touches, not the job's history.
// Parameters: $rows: list of {runId, jobId, versionId, inputs, outputs, codeSig}
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
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
    RETURN collect(other) AS left
  }
  MERGE (r)-[:OF_VERSION]->(v)
  SET v.firstSeen = CASE WHEN v.firstSeen IS NULL OR r.firstSeen < v.firstSeen THEN r.firstSeen ELSE v.firstSeen END,
      v.lastSeen = CASE WHEN v.lastSeen IS NULL OR r.lastSeen > v.lastSeen THEN r.lastSeen ELSE v.lastSeen END
  RETURN collect(DISTINCT v) AS kept, collect(left) AS lostLists
}
CALL (kept) {
  UNWIND kept AS v
  SET v.runs = COUNT { (v)<-[:OF_VERSION]-() }
}
CALL (lostLists) {
  UNWIND lostLists AS lost
  UNWIND lost AS v
  WITH DISTINCT v
  OPTIONAL MATCH (v)<-[:OF_VERSION]-(r:Run)
  WITH v, min(r.firstSeen) AS firstSeen, max(r.lastSeen) AS lastSeen, count(r) AS runs
  SET v.firstSeen = firstSeen, v.lastSeen = lastSeen, v.runs = runs
  WITH v, runs WHERE runs = 0
  DETACH DELETE v
}
