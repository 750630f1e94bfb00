// Purpose: datasets whose names may denote the same dataset as each given one (what a trace's stop
//   compares, as lineage-breaks does): the hits of the search index for the words of its last name
//   segment (up to $limit per item, best scores first, among the index's best 1,000 jobs and datasets), with whether a job currently writes and reads
//   each (under any SYMLINKed name), its raw spellings and field names (up to 200).
// Parameters: $items: list of {datasetId, query (a Lucene query over those words, escaped)}; $limit
// Columns: datasetId (the item), candidates: list of {id, namespace, name, written, read, writers (up
//   to 5 job ids), readers (up to 5), rawNames, fields}
// Warm-up: {"items": [{"listOf": {"datasetId": "-", "query": "x"}, "sizes": [1, 10]}], "limit": [1]}
UNWIND $items AS item
CALL (item) {
  CALL db.index.fulltext.queryNodes('catalog_search', item.query, {limit: 1000}) YIELD node, score
  WITH node, score WHERE node:Dataset AND node.id <> item.datasetId
  WITH node ORDER BY score DESC, node.id LIMIT toInteger($limit)
  WITH node, [node] + COLLECT { MATCH (node)-[:SYMLINK]-(a:Dataset) RETURN a } AS names
  RETURN collect({id: node.id, namespace: node.namespace, name: node.name,
                  written: EXISTS { UNWIND names AS n MATCH (:Job)-[p:PRODUCES]->(n) WHERE p.current RETURN 1 },
                  read: EXISTS { UNWIND names AS n MATCH (n)-[f:FEEDS]->(:Job) WHERE f.current RETURN 1 },
                  writers: COLLECT { UNWIND names AS n MATCH (j:Job)-[p:PRODUCES]->(n) WHERE p.current RETURN DISTINCT j.id AS j ORDER BY j LIMIT 5 },
                  readers: COLLECT { UNWIND names AS n MATCH (n)-[f:FEEDS]->(j:Job) WHERE f.current RETURN DISTINCT j.id AS j ORDER BY j LIMIT 5 },
                  rawNames: coalesce(node.rawNames, []),
                  fields: COLLECT { MATCH (node)-[:HAS_FIELD]->(f:Field) RETURN f.name AS f ORDER BY f LIMIT 200 }}) AS candidates
}
RETURN item.datasetId AS datasetId, candidates
