// Purpose: the first query of every projection transaction (issue 27): takes the write locks of
//   what the batch's derived values read and write, in one fixed order, before anything reads them,
//   so that projectors in several processes (Kafka workers, API replicas) over one Neo4j serialise
//   on shared entities and each derives from what the one before committed: the same graph as one
//   projector, in every interleaving. Locked, in this order, each kind by id: the jobs of the batch
//   and of its runs (RUN_OF); the datasets of the batch and those its runs wrote before (OUTPUT_TO),
//   each with the datasets up to two SYMLINK hops away (output coverage reads them); the runs of the
//   batch. Without it, merge-jobs and merge-runs decide in a WITH from values read before their SET
//   takes the lock (a stale decision wins: the older run's IO current, a RUNNING run after its
//   COMPLETE), and refresh-output-coverage aggregates what another transaction is changing.
//   A lock is taken by setting and removing a property (Neo4j's documented way; no net change).
//   Nodes not yet created are not locked: the unique constraints serialise their MERGE.
// Parameters: $jobIds, $datasetIds, $runIds: the batch's jobs, datasets and runs; [NO_NODE_ID]
//   (src/ids.ts) for none, which matches nothing
// Columns: jobs, datasets, runs: how many nodes of each were locked
// Warm-up: [{"jobIds": [{"listOf": "-", "sizes": [1]}], "datasetIds": [{"listOf": "-", "sizes": [1, 10]}], "runIds": [{"listOf": "-", "sizes": [1]}]}, {"jobIds": [{"listOf": "-", "sizes": [10, 100]}], "datasetIds": [{"listOf": "-", "sizes": [10, 100, 1000]}], "runIds": [{"listOf": "-", "sizes": [10, 100]}]}]
CALL () {
  UNWIND $jobIds AS id
  MATCH (j:Job {id: id})
  RETURN j
  UNION
  UNWIND $runIds AS id
  MATCH (:Run {id: id})-[:RUN_OF]->(j:Job)
  RETURN j
}
WITH j ORDER BY j.id
SET j._lock = true
REMOVE j._lock
WITH count(j) AS jobs
CALL () {
  UNWIND $datasetIds AS id
  MATCH (:Dataset {id: id})-[:SYMLINK*0..2]-(d:Dataset)
  RETURN d
  UNION
  UNWIND $runIds AS id
  MATCH (:Run {id: id})-[:OUTPUT_TO]->(:Dataset)-[:SYMLINK*0..2]-(d:Dataset)
  RETURN d
}
WITH jobs, d ORDER BY d.id
SET d._lock = true
REMOVE d._lock
WITH jobs, count(d) AS datasets
CALL () {
  UNWIND $runIds AS id
  MATCH (r:Run {id: id})
  RETURN r
}
WITH jobs, datasets, r ORDER BY r.id
SET r._lock = true
REMOVE r._lock
RETURN jobs, datasets, count(r) AS runs
