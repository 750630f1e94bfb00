// Purpose: record the parent run facet: (child:Run)-[:PARENT]->(parent:Run) and, when the facet
//   names one, (child:Run)-[:ROOT]->(root:Run); parent and root runs and jobs are created when no
//   event of theirs arrived yet (Airflow DAG → task, Spark application → Spark SQL job). Job-level
//   hierarchy follows from RUN_OF. The child run must exist.
// Parameters: $rows: list of {runId, parentRunId, parentJobId, parentJobNamespace, parentJobName,
//   rootRunId, rootJobId, rootJobNamespace, rootJobName (root* may be null), firstSeen, lastSeen}
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MATCH (child:Run {id: x.runId})
MERGE (pj:Job {id: x.parentJobId})
  ON CREATE SET pj.namespace = x.parentJobNamespace, pj.name = x.parentJobName,
                pj.words = replace(replace(replace(replace(replace(x.parentJobName, '.', ' '), '_', ' '), '/', ' '), ':', ' '), '-', ' ')
MERGE (p:Run {id: x.parentRunId})
  ON CREATE SET p.runId = substring(x.parentRunId, 4)
MERGE (p)-[:RUN_OF]->(pj)
MERGE (child)-[e:PARENT]->(p)
SET e.firstSeen = CASE WHEN e.firstSeen IS NULL OR x.firstSeen < e.firstSeen THEN x.firstSeen ELSE e.firstSeen END,
    e.lastSeen = CASE WHEN e.lastSeen IS NULL OR x.lastSeen > e.lastSeen THEN x.lastSeen ELSE e.lastSeen END
WITH child, x
CALL (child, x) {
  WITH child, x WHERE x.rootRunId IS NOT NULL
  MERGE (rj:Job {id: x.rootJobId})
    ON CREATE SET rj.namespace = x.rootJobNamespace, rj.name = x.rootJobName,
                  rj.words = replace(replace(replace(replace(replace(x.rootJobName, '.', ' '), '_', ' '), '/', ' '), ':', ' '), '-', ' ')
  MERGE (root:Run {id: x.rootRunId})
    ON CREATE SET root.runId = substring(x.rootRunId, 4)
  MERGE (root)-[:RUN_OF]->(rj)
  MERGE (child)-[:ROOT]->(root)
}
