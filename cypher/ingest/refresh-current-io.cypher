// Purpose: mark which FEEDS/PRODUCES edges of the given jobs are current: those of the job's latest
//   IO report (ioRunId: the datasets that run read or wrote; ioRunId null: the latest JobEvent, whose
//   edges have staticAt = ioAt). Other edges stay as history (current = false) with their
//   firstSeen/lastSeen/lastRunId; a retired job (retiredAt set: its latest `retired` facet, a
//   deleted Kafka Connect connector) has none current. A function of the stored graph only, hence
//   order-independent.
// Parameters: $jobIds: list of job ids whose IO may have changed
// Columns: none
// Warm-up: {"jobIds": [{"listOf": "-", "sizes": [1, 10, 100, 1000]}]}
// Warm-up transaction: after-write
UNWIND $jobIds AS id
MATCH (j:Job {id: id})
CALL (j) {
  MATCH (d:Dataset)-[f:FEEDS]->(j)
  SET f.current = CASE WHEN j.retiredAt IS NOT NULL THEN false
                       WHEN j.ioRunId IS NOT NULL THEN EXISTS { (d)-[:INPUT_TO]->(:Run {id: j.ioRunId}) }
                       ELSE coalesce(f.staticAt = j.ioAt, false) END
}
CALL (j) {
  MATCH (j)-[p:PRODUCES]->(d:Dataset)
  SET p.current = CASE WHEN j.retiredAt IS NOT NULL THEN false
                       WHEN j.ioRunId IS NOT NULL THEN EXISTS { (:Run {id: j.ioRunId})-[:OUTPUT_TO]->(d) }
                       ELSE coalesce(p.staticAt = j.ioAt, false) END
}
