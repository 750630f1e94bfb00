// Purpose: how many stored events wait for projection, the oldest one's receipt time, and how many
//   failed (for /metrics and /readyz).
// Parameters: none
// Columns: pending (integer), oldest (ISO-8601 string or null), failed (integer)
CALL () { MATCH (e:Pending) RETURN count(e) AS pending }
CALL () { MATCH (e:Pending) RETURN min(e.receivedAt) AS oldest }
CALL () { MATCH (e:ProjectionFailed) RETURN count(e) AS failed }
RETURN pending, oldest, failed
