// Purpose: how facets are stored in this graph: the format recorded by record-facet-storage.cypher
//   (null when never recorded: a graph written before the facet lists, or a new one) and whether
//   any job or dataset is projected.
// Parameters: none
// Columns: format (string or null), projected (boolean)
OPTIONAL MATCH (m:TributaryState {id: 'facet-storage'})
RETURN m.format AS format, EXISTS { MATCH (:Job) } OR EXISTS { MATCH (:Dataset) } AS projected
