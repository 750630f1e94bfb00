// Purpose: the statistics Neo4j's planner costs plans with, from its count store (db.stats.retrieve
//   'GRAPH COUNTS': cheap, no scan): the plan refresher (src/graph/plan-refresher.ts) compares them
//   with the counts it last refreshed plans at, as Neo4j compares a cached plan's snapshot.
// Parameters: none
// Columns: nodes (list of maps: label (absent for all nodes), count), relationships (list of maps:
//   startLabel, relationshipType, endLabel, each absent for any, count), indexes (list of maps:
//   labels or relationshipTypes, properties, totalSize, estimatedUniqueSize)
CALL db.stats.retrieve('GRAPH COUNTS') YIELD data
RETURN data.nodes AS nodes, data.relationships AS relationships, data.indexes AS indexes
