// Purpose: create the labels, relationship types and property keys the service's queries name,
//   before any plan is compiled (src/graph/tokens.ts: Neo4j drops a cached plan that named a token
//   the database did not have once it is created, so the next use compiles again). A name that
//   exists already is left as it is; nothing else is written.
// Parameters: $labels, $types, $keys: lists of names
// Columns: none
CALL () {
  UNWIND $labels AS name
  CALL db.createLabel(name)
}
CALL () {
  UNWIND $types AS name
  CALL db.createRelationshipType(name)
}
CALL () {
  UNWIND $keys AS name
  CALL db.createProperty(name)
}
