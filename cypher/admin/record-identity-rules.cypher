// Purpose: record the digest of the identity rules the graph is now projected with (after a full
//   reprojection, or on an empty graph).
// Parameters: $digest: SHA-256 of the rules ('' for none); $count: number of rules; $at: ISO-8601 time
// Columns: none
MERGE (m:TributaryState {id: 'identity-rules'})
SET m.digest = $digest, m.rules = $count, m.recordedAt = $at
