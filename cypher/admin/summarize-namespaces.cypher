// Purpose: once per graph, the Namespace summaries (merge-namespaces.cypher) of a graph projected
//   before they were kept: every namespace of a job or dataset with the earliest and latest times
//   the graph holds for it (a job known only as a parent: the times its children's PARENT edges
//   hold; only as a root: its descendant runs' times), then records that it was done
//   (TributaryState 'namespace-summary'), so later starts read one node. Merged with min/max like the projection's, so a projector writing meanwhile loses
//   nothing. A graph with no job or dataset is recorded without a walk. Reads every job and dataset.
// Parameters: $at: ISO-8601 time
// Columns: namespaces (integer: summaries written; 0 when done before)
OPTIONAL MATCH (done:TributaryState {id: 'namespace-summary'})
WITH done WHERE done IS NULL
CALL () {
  CALL () {
    MATCH (d:Dataset) WHERE d.namespace IS NOT NULL
    RETURN d.namespace AS name, min(d.firstSeen) AS first, max(d.lastSeen) AS last
    UNION ALL
    MATCH (j:Job) WHERE j.namespace IS NOT NULL
    CALL (j) {
      MATCH (j)<-[:RUN_OF]-(:Run)<-[p:PARENT]-(:Run)
      RETURN min(p.firstSeen) AS pFirst, max(p.lastSeen) AS pLast
    }
    CALL (j) {
      MATCH (j)<-[:RUN_OF]-(:Run)<-[:ROOT]-(c:Run)
      RETURN min(c.firstSeen) AS rFirst, max(c.lastSeen) AS rLast
    }
    WITH j, [t IN [j.firstSeen, pFirst, rFirst] WHERE t IS NOT NULL] AS firsts, [t IN [j.lastSeen, pLast, rLast] WHERE t IS NOT NULL] AS lasts
    RETURN j.namespace AS name, reduce(m = firsts[0], t IN firsts | CASE WHEN t < m THEN t ELSE m END) AS first,
           reduce(m = lasts[0], t IN lasts | CASE WHEN t > m THEN t ELSE m END) AS last
  }
  WITH name, min(first) AS first, max(last) AS last
  MERGE (n:Namespace {name: name})
    ON CREATE SET n.firstSeen = first, n.lastSeen = last
  SET n.firstSeen = CASE WHEN n.firstSeen IS NULL OR first < n.firstSeen THEN first ELSE n.firstSeen END,
      n.lastSeen = CASE WHEN n.lastSeen IS NULL OR last > n.lastSeen THEN last ELSE n.lastSeen END
  RETURN count(*) AS namespaces
}
MERGE (m:TributaryState {id: 'namespace-summary'})
SET m.recordedAt = $at
RETURN namespaces
