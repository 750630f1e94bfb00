// Purpose: which identity rules the graph was projected with (the digest recorded by
//   record-identity-rules.cypher; null when never recorded) and whether any dataset is projected.
// Parameters: none
// Columns: digest (string or null), datasets (boolean)
OPTIONAL MATCH (m:TributaryState {id: 'identity-rules'})
RETURN m.digest AS digest, EXISTS { MATCH (:Dataset) } AS datasets
