// Purpose: one page of Marquez's lineage events (GET /api/v1/events/lineage): the stored RunEvents
//   whose event time is in [$after, $before), by event time ($asc: oldest first, else newest first),
//   then id; the total counts every stored event in the window, RunEvents or not, as Marquez's does.
//   Read from the event time index.
// Parameters: $after, $before: ISO-8601 UTC times (millisecond precision, as stored); $asc (boolean);
//   $skip, $limit: the page
// Columns: total (integer), raws: list of the events' JSON texts as received
// Warm-up: {"after": ["2000-01-01T00:00:00.000Z"], "before": ["2000-01-02T00:00:00.000Z"], "asc": [false], "skip": [0], "limit": [100]}
MATCH (e:Event)
WHERE e.eventTime >= $after AND e.eventTime < $before
WITH count(e) AS total
CALL () {
  MATCH (e:Event)
  WHERE e.eventTime >= $after AND e.eventTime < $before AND e.kind = 'RunEvent'
  WITH e ORDER BY CASE WHEN $asc THEN e.eventTime END ASC, CASE WHEN NOT $asc THEN e.eventTime END DESC, e.id
  SKIP toInteger($skip) LIMIT toInteger($limit)
  RETURN collect(e.raw) AS raws
}
RETURN total, raws
