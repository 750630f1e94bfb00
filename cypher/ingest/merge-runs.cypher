// Purpose: create or update Run nodes and (:Run)-[:RUN_OF]->(:Job) (facets: merge-facets.cypher).
//   Commutative, so arrival order never matters: the state is the one of highest rank (OTHER 0 <
//   START 1 < RUNNING 2 < COMPLETE/FAIL/ABORT 3), then latest stateAt, then larger name — terminal
//   states are sticky and a late START never reopens a run; startedAt is the earliest START;
//   endedAt is the time of the terminal state. Mirrors betterState() in src/ingest/compact.ts.
//   The job node must exist.
//   codeSig/codeAt: the job's source code signature as of the run's latest event that carried one.
// Parameters: $rows: list of {id, runId, jobIds, state, stateAt, startedAt, firstSeen, lastSeen, codeSig,
//   codeAt}, one per id; jobIds: every job the batch's events name for the run (a run id some
//   producers reuse across jobs gets RUN_OF to each)
// Columns: none
// Warm-up: {"rows": [{"listOf": {"id": "-"}, "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $rows AS x
MERGE (r:Run {id: x.id})
  ON CREATE SET r.runId = x.runId
WITH r, x
CALL (r, x) {
  UNWIND x.jobIds AS jobId
  MATCH (j:Job {id: jobId})
  MERGE (r)-[:RUN_OF]->(j)
}
WITH r, x, {OTHER: 0, START: 1, RUNNING: 2, COMPLETE: 3, FAIL: 3, ABORT: 3} AS rank
WITH r, x, x.state IS NOT NULL AND (
       r.state IS NULL
       OR coalesce(rank[x.state], 0) > coalesce(rank[r.state], 0)
       OR (coalesce(rank[x.state], 0) = coalesce(rank[r.state], 0)
           AND (x.stateAt > r.stateAt OR (x.stateAt = r.stateAt AND x.state > r.state)))
     ) AS betterState,
     x.codeAt IS NOT NULL AND (r.codeAt IS NULL OR x.codeAt > r.codeAt
       OR (x.codeAt = r.codeAt AND x.codeSig > r.codeSig)) AS newerCode
SET r.firstSeen = CASE WHEN r.firstSeen IS NULL OR x.firstSeen < r.firstSeen THEN x.firstSeen ELSE r.firstSeen END,
    r.lastSeen = CASE WHEN r.lastSeen IS NULL OR x.lastSeen > r.lastSeen THEN x.lastSeen ELSE r.lastSeen END,
    r.startedAt = CASE WHEN x.startedAt IS NOT NULL AND (r.startedAt IS NULL OR x.startedAt < r.startedAt)
                       THEN x.startedAt ELSE r.startedAt END,
    r.state = CASE WHEN betterState THEN x.state ELSE r.state END,
    r.stateAt = CASE WHEN betterState THEN x.stateAt ELSE r.stateAt END,
    r.codeSig = CASE WHEN newerCode THEN x.codeSig ELSE r.codeSig END,
    r.codeAt = CASE WHEN newerCode THEN x.codeAt ELSE r.codeAt END
SET r.endedAt = CASE WHEN r.state IN ['COMPLETE', 'FAIL', 'ABORT'] THEN r.stateAt ELSE null END
