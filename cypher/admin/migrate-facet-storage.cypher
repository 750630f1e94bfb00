// Purpose: one step of moving facets stored the old way (a `facet.<key>` and a `facetAt.<key>`
//   property per facet: one Neo4j property key per producer-chosen key) into the facetKeys,
//   facetValues and facetTimes lists merge-facets.cypher keeps (key order; '' for a deleted facet).
//   Visits the next $limit nodes of $kind after $after in id order and, for runs, their INPUT_TO and
//   OUTPUT_TO edges; converts those carrying old properties and removes them. Call with the last id
//   returned until it is null. Idempotent; entities already converted are left alone.
// Parameters: $kind: 'job', 'dataset' or 'run'; $after: id ('' to start); $limit: nodes per call
// Columns: last (the largest id visited; null when none was left), converted (nodes and edges changed)
CALL () {
  WITH 1 AS one WHERE $kind = 'job'
  MATCH (n:Job) WHERE n.id > $after
  RETURN n ORDER BY n.id LIMIT toInteger($limit)
  UNION
  WITH 1 AS one WHERE $kind = 'dataset'
  MATCH (n:Dataset) WHERE n.id > $after
  RETURN n ORDER BY n.id LIMIT toInteger($limit)
  UNION
  WITH 1 AS one WHERE $kind = 'run'
  MATCH (n:Run) WHERE n.id > $after
  RETURN n ORDER BY n.id LIMIT toInteger($limit)
}
WITH collect(n) AS nodes
CALL (nodes) {
  CALL (nodes) {
    UNWIND nodes AS n
    RETURN n AS x
    UNION ALL
    UNWIND nodes AS n
    MATCH (n:Run)-[x:OUTPUT_TO]->(:Dataset)
    RETURN x
    UNION ALL
    UNWIND nodes AS n
    MATCH (n:Run)<-[x:INPUT_TO]-(:Dataset)
    RETURN x
  }
  WITH x, COLLECT { UNWIND keys(x) AS k WITH k WHERE k STARTS WITH 'facetAt.' RETURN substring(k, 8) AS key ORDER BY key } AS ks
  WHERE size(ks) > 0 AND x.facetKeys IS NULL
  SET x.facetKeys = ks, x.facetValues = [k IN ks | coalesce(x['facet.' + k], '')], x.facetTimes = [k IN ks | x['facetAt.' + k]]
  FOREACH (k IN ks | SET x['facet.' + k] = null, x['facetAt.' + k] = null)
  RETURN count(x) AS converted
}
RETURN CASE WHEN size(nodes) = 0 THEN null ELSE reduce(m = '', n IN nodes | CASE WHEN n.id > m THEN n.id ELSE m END) END AS last,
       converted
