// Purpose: Marquez's lineage-events chart (GET /api/v1/stats/lineage-events): per time bucket, the
//   stored RunEvents of each terminal or start type (START, COMPLETE, FAIL, ABORT) whose event time
//   falls in it. Read from the event time index, one range per bucket.
// Parameters: $buckets: list of {start, end} ISO-8601 UTC times (millisecond precision), oldest first
// Columns: start, end, fail, started, complete, abort (integers), one row per bucket in order
// Warm-up: {"buckets": [[{"start": "2000-01-01T00:00:00.000Z", "end": "2000-01-02T00:00:00.000Z"}]]}
UNWIND range(0, size($buckets) - 1) AS i
WITH i, $buckets[i] AS b
CALL (b) {
  MATCH (e:Event)
  WHERE e.eventTime >= b.start AND e.eventTime < b.end
  RETURN sum(CASE e.eventType WHEN 'FAIL' THEN 1 ELSE 0 END) AS fail,
         sum(CASE e.eventType WHEN 'START' THEN 1 ELSE 0 END) AS started,
         sum(CASE e.eventType WHEN 'COMPLETE' THEN 1 ELSE 0 END) AS complete,
         sum(CASE e.eventType WHEN 'ABORT' THEN 1 ELSE 0 END) AS abort
}
RETURN b.start AS start, b.end AS end, fail, started, complete, abort
ORDER BY i
