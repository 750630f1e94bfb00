// Purpose: one step of a downstream trace (the mirror of trace-upstream-step.cypher). From a field
//   item: the output fields each job that reads its dataset (under any SYMLINKed name: the field of
//   the same name there) derives from it (DERIVES) and, where
//   the field affects a whole output (INFLUENCES: filter, join, group-by keys; types INDIRECT),
//   every field of that output (FIELD hops); for a reading job with neither, the job's output
//   datasets (DATASET hops: field precision lost there). With $indirect false, INDIRECT-only
//   dependencies are left out; output fields that are metadata columns of their table's format
//   ($metadata) always. From a dataset item: the output datasets of the jobs that read it.
//   Readers of SYMLINKed names count as readers. Edges: current ones, or as of $asOf.
// Parameters: $fields: list of {fieldId, datasetId, name}; $datasets: list of dataset ids (none: [""]); $asOf: ISO time or null;
//   $limit: maximum rows; $follow: edge kinds to follow, of 'DERIVES', 'INFLUENCES' (without them every hop is dataset level),
//   'ALIAS' (readers and writers of symlinked names), 'COLLECTED' (the edges of jobs whose lineage
//   Tributary collected, collectedBy: the Kafka Connect collector); FEEDS and PRODUCES of other jobs are always followed;
//   $indirect: follow INDIRECT dependencies (boolean)
//   $metadata: the metadata columns of table formats to leave out, {storageLayer: [names]} (src/lineage/metadata-columns.ts; {} keeps them)
// Columns: fromId (the item), fromKind ('FIELD' | 'DATASET'), toId (the output), jobId, granularity,
//   types, subtypes, transformations (JSON or null), reportedId (FIELD hops the job reported under
//   another name of the item's dataset: the field there; else null), node: the output {id, kind,
//   namespace, name, datasetId}, evidence ('REPORTED' | 'COLLECTED')
// Warm-up: [{"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1, 10, 100, 1000, 10000]}], "datasets": [{"listOf": "-", "sizes": [1]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "DERIVES", "INFLUENCES", "COLLECTED"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}, {"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1]}], "datasets": [{"listOf": "-", "sizes": [10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "DERIVES", "INFLUENCES", "COLLECTED"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}]
CALL () {
  UNWIND $fields AS item
  MATCH (d:Dataset {id: item.datasetId})
  CALL (d) { RETURN d AS m UNION MATCH (d)-[:SYMLINK]-(m:Dataset) WHERE 'ALIAS' IN $follow RETURN m }
  MATCH (m)-[r:FEEDS]->(j:Job)
  WHERE (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND (($asOf IS NULL AND r.current) OR ($asOf IS NOT NULL AND r.firstSeen <= $asOf))
  WITH item, j, collect(DISTINCT m.id) AS ins
  CALL (item, j, ins) {
    // The item's field under every name of its dataset the job read (same field name).
    UNWIND ins AS i
    MATCH (:Dataset {id: i})-[:HAS_FIELD]->(rf:Field {name: item.name})-[e:DERIVES {jobId: j.id}]->(dst:Field)
    WHERE 'DERIVES' IN $follow AND ($asOf IS NULL OR e.firstSeen <= $asOf) AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
    MATCH (dd:Dataset {id: dst.datasetId})
    WHERE NOT dst.name IN coalesce($metadata[toLower(coalesce(dd.storageLayer, ''))], [])
    RETURN dst.id AS toId, 'FIELD' AS granularity, e.types AS types, e.subtypes AS subtypes,
           e.transformations AS transformations, CASE WHEN rf.id <> item.fieldId THEN rf.id END AS reportedId,
           {id: dst.id, kind: 'FIELD', namespace: dd.namespace, name: dst.name, datasetId: dst.datasetId} AS node
    UNION ALL
    UNWIND ins AS i
    MATCH (:Dataset {id: i})-[:HAS_FIELD]->(rf:Field {name: item.name})-[e:INFLUENCES {jobId: j.id}]->(dd:Dataset)-[:HAS_FIELD]->(dst:Field)
    WHERE 'INFLUENCES' IN $follow AND $indirect AND ($asOf IS NULL OR e.firstSeen <= $asOf) AND NOT dst.name IN coalesce($metadata[toLower(coalesce(dd.storageLayer, ''))], [])
    RETURN dst.id AS toId, 'FIELD' AS granularity, e.types AS types, e.subtypes AS subtypes,
           e.transformations AS transformations, CASE WHEN rf.id <> item.fieldId THEN rf.id END AS reportedId,
           {id: dst.id, kind: 'FIELD', namespace: dd.namespace, name: dst.name, datasetId: dst.datasetId} AS node
    UNION ALL
    WITH item, j, ins
    CALL (item, j, ins) {
      // Does the job report any column dependency from the field (under any name it read)?
      UNWIND ins AS i
      MATCH (:Dataset {id: i})-[:HAS_FIELD]->(:Field {name: item.name})-[e:DERIVES|INFLUENCES {jobId: j.id}]->()
      WHERE ($asOf IS NULL OR e.firstSeen <= $asOf)
        AND ((type(e) = 'DERIVES' AND 'DERIVES' IN $follow AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT'))))
             OR (type(e) = 'INFLUENCES' AND 'INFLUENCES' IN $follow AND $indirect))
      RETURN count(e) > 0 AS columnLevel
    }
    WITH j, columnLevel WHERE NOT columnLevel
    MATCH (j)-[p:PRODUCES]->(dst:Dataset)
    WHERE ($asOf IS NULL AND p.current) OR ($asOf IS NOT NULL AND p.firstSeen <= $asOf)
    RETURN dst.id AS toId, 'DATASET' AS granularity, null AS types, null AS subtypes, null AS transformations,
           null AS reportedId, {id: dst.id, kind: 'DATASET', namespace: dst.namespace, name: dst.name, datasetId: null} AS node
  }
  RETURN item.fieldId AS fromId, 'FIELD' AS fromKind, toId, j.id AS jobId, granularity, types, subtypes, transformations,
         reportedId, node, CASE WHEN j.collectedBy IS NULL THEN 'REPORTED' ELSE 'COLLECTED' END AS evidence
  UNION ALL
  UNWIND $datasets AS id
  MATCH (d:Dataset {id: id})
  CALL (d) { RETURN d AS m UNION MATCH (d)-[:SYMLINK]-(m:Dataset) WHERE 'ALIAS' IN $follow RETURN m }
  MATCH (m)-[r:FEEDS]->(j:Job)
  WHERE (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND (($asOf IS NULL AND r.current) OR ($asOf IS NOT NULL AND r.firstSeen <= $asOf))
  WITH DISTINCT id, j
  MATCH (j)-[p:PRODUCES]->(dst:Dataset)
  WHERE ($asOf IS NULL AND p.current) OR ($asOf IS NOT NULL AND p.firstSeen <= $asOf)
  RETURN id AS fromId, 'DATASET' AS fromKind, dst.id AS toId, j.id AS jobId, 'DATASET' AS granularity, null AS types,
         null AS subtypes, null AS transformations, null AS reportedId,
         {id: dst.id, kind: 'DATASET', namespace: dst.namespace, name: dst.name, datasetId: null} AS node,
         CASE WHEN j.collectedBy IS NULL THEN 'REPORTED' ELSE 'COLLECTED' END AS evidence
}
RETURN fromId, fromKind, toId, jobId, granularity, types, subtypes, transformations, reportedId, node, evidence
LIMIT toInteger($limit)
