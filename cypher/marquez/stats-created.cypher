// Purpose: Marquez's counters (GET /api/v1/stats/{jobs|datasets|sources}): for each bucket end, how
//   many jobs, datasets or sources (distinct dataset source names, else namespaces) had been seen
//   first before it: cumulative, as Marquez counts them. One pass over the label's namespace index.
// Parameters: $what: 'jobs', 'datasets' or 'sources'; $ends: list of ISO-8601 UTC bucket ends, oldest first
// Columns: counts: list of integers, one per end
// Warm-up: {"what": ["jobs"], "ends": [["2000-01-02T00:00:00.000Z"]]}
CALL () {
  MATCH (j:Job) WHERE $what = 'jobs' AND j.namespace IS NOT NULL
  RETURN j.firstSeen AS seen
  UNION ALL
  MATCH (d:Dataset) WHERE $what = 'datasets' AND d.namespace IS NOT NULL
  RETURN d.firstSeen AS seen
  UNION ALL
  MATCH (d:Dataset) WHERE $what = 'sources' AND d.namespace IS NOT NULL
  WITH coalesce(d.sourceName, d.namespace) AS source, min(d.firstSeen) AS seen
  RETURN seen
}
WITH collect(seen) AS seen
RETURN [end IN $ends | size([s IN seen WHERE s < end])] AS counts
