// Purpose: readiness check: how many of the named indexes (constraints own one each) are ONLINE.
// Parameters: $names: list of constraint and index names from cypher/schema/
// Columns: online (integer)
// Warm-up: {"names": [{"listOf": "-", "sizes": [1]}]}
SHOW INDEXES YIELD name, owningConstraint, state
WHERE (name IN $names OR owningConstraint IN $names) AND state = 'ONLINE'
RETURN count(DISTINCT coalesce(owningConstraint, name)) AS online
