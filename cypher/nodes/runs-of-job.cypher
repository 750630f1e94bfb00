// Purpose: one page of a job's runs, newest first (lastSeen, then id), filtered by state and time, and the total.
// Parameters: $jobId; $states: list of states or null for all; $since, $until: ISO times or null (a run counts
//   when it was seen in [since, until]); $skip, $limit: the page
// Columns: total (integer), runIds: list of run ids
// Warm-up: {"jobId": ["-"], "states": [null, ["COMPLETE"]], "since": [null], "until": [null], "skip": [0], "limit": [1]}
MATCH (:Job {id: $jobId})<-[:RUN_OF]-(r:Run)
WHERE ($states IS NULL OR r.state IN $states)
  AND ($since IS NULL OR r.lastSeen >= $since)
  AND ($until IS NULL OR r.firstSeen <= $until)
WITH r ORDER BY r.lastSeen DESC, r.id DESC
WITH collect(r.id) AS ids
RETURN size(ids) AS total, ids[toInteger($skip)..toInteger($skip) + toInteger($limit)] AS runIds
