// Purpose: Marquez's tag list (GET /api/v1/tags): the tags defined (PUT /api/v1/tags/{tag}) or put
//   on a job, dataset or field, ordered by name, with their descriptions.
// Parameters: $skip, $limit: the page
// Columns: name, description (or null)
// Warm-up: {"skip": [0], "limit": [100]}
CALL () {
  MATCH (t:Tag) WHERE t.name IS NOT NULL RETURN t.name AS name, t.description AS description
  UNION
  MATCH (a:Annotation) WHERE a.id IS NOT NULL AND size(coalesce(a.tags, [])) > 0
  UNWIND a.tags AS name
  WITH DISTINCT name WHERE NOT EXISTS { MATCH (:Tag {name: name}) }
  RETURN name, null AS description
}
RETURN name, description
ORDER BY name
SKIP toInteger($skip) LIMIT toInteger($limit)
