// Purpose: full-text search over dataset, job and field names (whole, and split into words at
//   . _ / : -), namespaces and descriptions (index entity_search_v2), best matches first, optionally only some kinds; one page and the total.
// Parameters: $query: Lucene query (already escaped); $labels: list of 'Dataset' | 'Job' | 'Field', or null for all;
//   $skip, $limit: the page
// Columns: total (integer), hits: list of {id, kind, namespace, name, description, datasetId, score}
CALL db.index.fulltext.queryNodes('entity_search_v2', $query) YIELD node, score
WHERE $labels IS NULL OR any(l IN labels(node) WHERE l IN $labels)
WITH node, score ORDER BY score DESC, node.id
WITH collect({node: node, score: score}) AS found
RETURN size(found) AS total,
       [h IN found[toInteger($skip)..toInteger($skip) + toInteger($limit)] |
         {id: h.node.id, kind: CASE WHEN h.node:Dataset THEN 'DATASET' WHEN h.node:Job THEN 'JOB' ELSE 'FIELD' END,
          namespace: h.node.namespace, name: h.node.name, description: h.node.description,
          datasetId: h.node.datasetId, score: h.score}] AS hits
