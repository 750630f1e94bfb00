// Purpose: search over dataset, job and field names, namespaces and descriptions (index
//   entity_search_v2: the name whole, its words split at . _ / : -, the namespace, the description).
//   Candidates: every word of the text, as a prefix, among those tokens. Ranked by how the name
//   matches the whole text: EXACT (the name), PREFIX (its beginning), SEGMENT (a part of the name
//   that starts after . / or :, e.g. `paid_orders` or `main.orders` in `eval_shop.main.paid_orders`),
//   else WORD; then by Lucene score, then id. Optionally only some kinds; one page and the total.
//   One hit per dataset: names of one dataset joined by SYMLINK (a warehouse path and its catalog
//   table) are one hit, the best ranked name, with the others in `aliases`; a field's hit stands for
//   the same field under every name of its dataset (`aliases`: the dataset's other names).
//   Bounded: the index hands over its best $candidates matches by relevance (Lucene keeps only those;
//   without the bound a one-letter prefix on a graph of wide tables made it rank millions of fields);
//   ranking, grouping and the total are over those, and `capped` says there were more.
// Parameters: $index: 'entity_search_v2' (datasets, jobs and fields) or 'catalog_search' (datasets and
//   jobs only); $candidates: most index matches considered;
//   $query: Lucene query (already escaped); $text: the text asked for, trimmed and lower-cased;
//   $labels: list of 'Dataset' | 'Job' | 'Field' | 'Run', or null for all; $namespace: only hits of that
//   namespace (fields have none), or null for all; $skip, $limit: the page
// Columns: total (integer: hits after joining names), capped (boolean), hits: list of {id, kind, namespace, name,
//   description, datasetId, score, match, aliases: list of {id, namespace, name} (datasets, by id)}
// Warm-up: {"index": ["entity_search_v2"], "candidates": [2000], "query": ["+warm*"], "text": ["warm"], "labels": [null, ["Dataset"]], "namespace": [null], "skip": [0], "limit": [1]}
// Warm-up runs: {"times": 20, "query": ["+a*", "+b*", "+c*", "+d*", "+e*", "+f*", "+g*", "+h*", "+i*", "+j*", "+k*", "+l*", "+m*", "+n*", "+o*", "+p*", "+q*", "+r*", "+s*", "+t*", "+u*", "+v*", "+w*", "+x*", "+y*", "+z*", "+0*", "+1*", "+2*", "+3*", "+4*", "+5*", "+6*", "+7*", "+8*", "+9*"], "text": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], "limit": [20], "index": ["entity_search_v2"], "candidates": [2000]}
CALL db.index.fulltext.queryNodes($index, $query, {limit: toInteger($candidates) + 1}) YIELD node, score
WITH collect({node: node, score: score}) AS matches
WITH size(matches) > $candidates AS capped, matches[0..toInteger($candidates)] AS matches
CALL (matches) {
  UNWIND matches AS m
  WITH m.node AS node, m.score AS score
  WHERE ($labels IS NULL OR any(l IN labels(node) WHERE l IN $labels)) AND ($namespace IS NULL OR node.namespace = $namespace)
  WITH node, score, toLower(node.name) AS name
  WITH node, score,
       CASE
         WHEN name = $text THEN 'EXACT'
         WHEN name STARTS WITH $text THEN 'PREFIX'
         WHEN name CONTAINS ('.' + $text) OR name CONTAINS ('/' + $text) OR name CONTAINS (':' + $text) THEN 'SEGMENT'
         ELSE 'WORD'
       END AS match
  WITH node, score, match,
       CASE match WHEN 'EXACT' THEN 0 WHEN 'PREFIX' THEN 1 WHEN 'SEGMENT' THEN 2 ELSE 3 END AS rank
  OPTIONAL MATCH (d:Dataset {id: CASE WHEN node:Field THEN node.datasetId WHEN node:Dataset THEN node.id END})
  OPTIONAL MATCH (d)-[:SYMLINK]-(alias:Dataset)
  WITH node, score, match, rank, d, collect(DISTINCT alias) AS aliases
  WITH node, score, match, rank, aliases,
       CASE WHEN d IS NULL THEN node.id
            ELSE reduce(m = d.id, a IN aliases | CASE WHEN a.id < m THEN a.id ELSE m END)
                 + CASE WHEN node:Field THEN '|' + node.name ELSE '' END
       END AS grp
  ORDER BY rank, score DESC, node.id
  WITH grp, collect({node: node, score: score, match: match, rank: rank, aliases: aliases}) AS members
  WITH members[0] AS h
  ORDER BY h.rank, h.score DESC, h.node.id
  RETURN collect(h) AS found
}
RETURN size(found) AS total, capped,
       [h IN found[toInteger($skip)..toInteger($skip) + toInteger($limit)] |
         {id: h.node.id, kind: CASE WHEN h.node:Dataset THEN 'DATASET' WHEN h.node:Job THEN 'JOB' ELSE 'FIELD' END,
          namespace: h.node.namespace, name: h.node.name, description: h.node.description,
          datasetId: h.node.datasetId, score: h.score, match: h.match,
          aliases: [a IN h.aliases | {id: a.id, namespace: a.namespace, name: a.name}]}] AS hits
