// Purpose: Marquez's search (GET /api/v1/search): jobs and datasets whose name, words, namespace or
//   description match every word of the text as a prefix (index catalog_search: jobs and datasets
//   only, as nodes/search.cypher indexes them), in the index's score order, optionally of one kind
//   and one namespace, soft-deleted ones (an Annotation whose hiddenAt is at or after the node's
//   lastSeen) left out. No ranking of the whole result or joining of symlinked names
//   (nodes/search.cypher does that for GraphQL). The index hands over its best 1,000 matches at most
//   (Lucene keeps only those), so the cost follows the page, not the number of matches; a page
//   filtered by kind or namespace comes from those 1,000.
// Parameters: $query: Lucene query (already escaped); $labels: list of 'Dataset' | 'Job'; $namespace:
//   a namespace or null for all; $limit: most rows
// Columns: kind ('JOB' | 'DATASET'), name, namespace, lastSeen
// Warm-up: {"query": ["+warm*"], "labels": [["Job", "Dataset"], ["Job"], ["Dataset"]], "namespace": [null, "-"], "limit": [100]}
// Warm-up runs: {"times": 30, "query": ["+a*", "+b*", "+c*", "+d*", "+e*", "+f*", "+g*", "+h*", "+i*", "+j*", "+k*", "+l*", "+m*", "+n*", "+o*", "+p*", "+q*", "+r*", "+s*", "+t*", "+u*", "+v*", "+w*", "+x*", "+y*", "+z*", "+0*", "+1*", "+2*", "+3*", "+4*", "+5*", "+6*", "+7*", "+8*", "+9*"]}
CALL db.index.fulltext.queryNodes('catalog_search', $query, {limit: 1000}) YIELD node
WHERE any(l IN labels(node) WHERE l IN $labels)
  AND ($namespace IS NULL OR node.namespace = $namespace)
  AND NOT EXISTS { MATCH (a:Annotation {id: node.id}) WHERE a.hiddenAt >= node.lastSeen }
RETURN CASE WHEN node:Job THEN 'JOB' ELSE 'DATASET' END AS kind, node.name AS name, node.namespace AS namespace, node.lastSeen AS lastSeen
LIMIT toInteger($limit)
