// Purpose: record how facets are stored in the whole graph (after a conversion, or on a new graph).
// Parameters: $format: 'lists'; $at: ISO-8601 time
// Columns: none
MERGE (m:TributaryState {id: 'facet-storage'})
SET m.format = $format, m.recordedAt = $at
