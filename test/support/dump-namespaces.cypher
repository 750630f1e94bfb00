// Purpose: the projected subgraph of every job and dataset whose namespace starts with $prefix, with
//   their runs, fields and job versions, and all relationships among those nodes (raw Event nodes excluded).
//   Used for canonical dumps (order/duplicate independence, re-projection checks) and exports.
//   Starts from the namespace indexes; bounded by $limit nodes.
// Parameters: $prefix: namespace prefix; $limit: maximum number of nodes
// Columns: nodes: list of {labels, props}; rels: list of {type, from, to, props} (from/to are node ids)
CALL () {
  MATCH (d:Dataset) WHERE d.namespace STARTS WITH $prefix RETURN d AS n
  UNION
  MATCH (j:Job) WHERE j.namespace STARTS WITH $prefix RETURN j AS n
  UNION
  MATCH (j:Job)<-[:RUN_OF]-(r:Run) WHERE j.namespace STARTS WITH $prefix RETURN r AS n
  UNION
  MATCH (d:Dataset)-[:HAS_FIELD]->(f:Field) WHERE d.namespace STARTS WITH $prefix RETURN f AS n
  UNION
  MATCH (j:Job)-[:HAS_VERSION]->(v:JobVersion) WHERE j.namespace STARTS WITH $prefix RETURN v AS n
}
WITH n LIMIT toInteger($limit)
WITH collect(n) AS nodes
CALL (nodes) {
  UNWIND nodes AS a
  MATCH (a)-[r]->(b)
  WHERE b IN nodes
  RETURN collect({type: type(r), from: a.id, to: b.id, props: properties(r)}) AS rels
}
RETURN [n IN nodes | {labels: labels(n), props: properties(n)}] AS nodes, rels
