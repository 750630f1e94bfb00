// Purpose: one step of an upstream trace. From a field item: the input fields of each job that
//   writes its dataset, under any of its SYMLINKed names (the field of the same name there; column
//   lineage, FIELD hops): those it derives from (DERIVES) and those that
//   affect the whole dataset (INFLUENCES, columnLineage `dataset[]`: filter, join, group-by keys;
//   types INDIRECT); for a writing job with neither, the job's input datasets instead (DATASET
//   hops: field precision lost there). With $indirect false, INDIRECT-only dependencies are left out. From a
//   dataset item: the input datasets of the jobs that write it (DATASET hops). Writers of SYMLINKed
//   names of the dataset count as writers. Edges: current ones, or as of $asOf (first seen by then).
// Parameters: $fields: list of {fieldId, datasetId, name}; $datasets: list of dataset ids (none: [""]); $asOf: ISO time or null;
//   $limit: maximum rows; $follow: edge kinds to follow, of 'DERIVES', 'INFLUENCES' (without them every hop is dataset level),
//   'ALIAS' (readers and writers of symlinked names), 'COLLECTED' (the edges of jobs whose lineage
//   Tributary collected, collectedBy: the Kafka Connect collector); FEEDS and PRODUCES of other jobs are always followed;
//   $indirect: follow INDIRECT dependencies (boolean)
//   $metadata: metadata columns of table formats, {storageLayer: [names]} (src/lineage/metadata-columns.ts)
// Columns: toId (the item), toKind ('FIELD' | 'DATASET'), fromId (the input), jobId, granularity ('FIELD' |
//   'DATASET'), types, subtypes, transformations (JSON or null), reportedId (FIELD hops the job reported
//   under another name of the item's dataset: the field there, or that dataset for INFLUENCES; else
//   null), node: the input
//   {id, kind, namespace, name, datasetId}, metadataColumn (the input is a metadata column in $metadata:
//   the engine leaves such rows out unless asked), evidence ('REPORTED' | 'COLLECTED')
// Warm-up: [{"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1, 10, 100, 1000, 10000]}], "datasets": [{"listOf": "-", "sizes": [1]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "DERIVES", "INFLUENCES", "COLLECTED"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}, {"fields": [{"listOf": {"fieldId": "-", "datasetId": "-", "name": "-"}, "sizes": [1]}], "datasets": [{"listOf": "-", "sizes": [10, 100, 1000, 10000]}], "asOf": [null, "2000-01-01T00:00:00.000Z"], "limit": [1], "follow": [["FEEDS", "PRODUCES", "ALIAS", "DERIVES", "INFLUENCES", "COLLECTED"]], "indirect": [true], "metadata": [{"iceberg": ["_file"]}]}]
CALL () {
  UNWIND $fields AS item
  MATCH (d:Dataset {id: item.datasetId})
  CALL (d) { RETURN d AS m UNION MATCH (d)-[:SYMLINK]-(m:Dataset) WHERE 'ALIAS' IN $follow RETURN m }
  MATCH (j:Job)-[p:PRODUCES]->(m)
  WHERE (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND (($asOf IS NULL AND p.current) OR ($asOf IS NOT NULL AND p.firstSeen <= $asOf))
  WITH item, j, collect(DISTINCT m.id) AS outs
  CALL (item, j, outs) {
    // The item's field under every name of its dataset the job wrote (same field name).
    UNWIND outs AS o
    MATCH (:Dataset {id: o})-[:HAS_FIELD]->(rf:Field {name: item.name})<-[e:DERIVES {jobId: j.id}]-(src:Field)
    WHERE 'DERIVES' IN $follow AND ($asOf IS NULL OR e.firstSeen <= $asOf) AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
    MATCH (sd:Dataset {id: src.datasetId})
    RETURN src.name IN coalesce($metadata[toLower(coalesce(sd.storageLayer, ''))], []) AS metadataColumn, src.id AS fromId, 'FIELD' AS granularity, e.types AS types, e.subtypes AS subtypes,
           e.transformations AS transformations, CASE WHEN rf.id <> item.fieldId THEN rf.id END AS reportedId,
           {id: src.id, kind: 'FIELD', namespace: sd.namespace, name: src.name, datasetId: src.datasetId} AS node
    UNION ALL
    UNWIND outs AS o
    MATCH (src:Field)-[e:INFLUENCES {jobId: j.id}]->(:Dataset {id: o})
    WHERE 'INFLUENCES' IN $follow AND $indirect AND ($asOf IS NULL OR e.firstSeen <= $asOf)
    MATCH (sd:Dataset {id: src.datasetId})
    RETURN src.name IN coalesce($metadata[toLower(coalesce(sd.storageLayer, ''))], []) AS metadataColumn, src.id AS fromId, 'FIELD' AS granularity, e.types AS types, e.subtypes AS subtypes,
           e.transformations AS transformations, CASE WHEN o <> item.datasetId THEN o END AS reportedId,
           {id: src.id, kind: 'FIELD', namespace: sd.namespace, name: src.name, datasetId: src.datasetId} AS node
    UNION ALL
    WITH item, j, outs
    CALL (item, j, outs) {
      // Does the job report any column dependency into the field (under any name it wrote)?
      UNWIND outs AS o
      MATCH (d:Dataset {id: o})
      OPTIONAL MATCH (d)-[:HAS_FIELD]->(:Field {name: item.name})<-[e:DERIVES {jobId: j.id}]-()
      WHERE 'DERIVES' IN $follow AND ($asOf IS NULL OR e.firstSeen <= $asOf) AND ($indirect OR NOT (size(coalesce(e.types, [])) > 0 AND all(t IN e.types WHERE t = 'INDIRECT')))
      OPTIONAL MATCH (d)<-[i:INFLUENCES {jobId: j.id}]-()
      WHERE 'INFLUENCES' IN $follow AND $indirect AND ($asOf IS NULL OR i.firstSeen <= $asOf)
      RETURN count(e) + count(i) > 0 AS columnLevel
    }
    WITH j, columnLevel WHERE NOT columnLevel
    MATCH (src:Dataset)-[f:FEEDS]->(j)
    WHERE ($asOf IS NULL AND f.current) OR ($asOf IS NOT NULL AND f.firstSeen <= $asOf)
    RETURN false AS metadataColumn, src.id AS fromId, 'DATASET' AS granularity, null AS types, null AS subtypes, null AS transformations,
           null AS reportedId, {id: src.id, kind: 'DATASET', namespace: src.namespace, name: src.name, datasetId: null} AS node
  }
  RETURN item.fieldId AS toId, 'FIELD' AS toKind, fromId, j.id AS jobId, granularity, types, subtypes, transformations,
         reportedId, node, metadataColumn, CASE WHEN j.collectedBy IS NULL THEN 'REPORTED' ELSE 'COLLECTED' END AS evidence
  UNION ALL
  UNWIND $datasets AS id
  MATCH (d:Dataset {id: id})
  CALL (d) { RETURN d AS m UNION MATCH (d)-[:SYMLINK]-(m:Dataset) WHERE 'ALIAS' IN $follow RETURN m }
  MATCH (j:Job)-[p:PRODUCES]->(m)
  WHERE (j.collectedBy IS NULL OR 'COLLECTED' IN $follow) AND (($asOf IS NULL AND p.current) OR ($asOf IS NOT NULL AND p.firstSeen <= $asOf))
  WITH DISTINCT id, j
  MATCH (src:Dataset)-[f:FEEDS]->(j)
  WHERE ($asOf IS NULL AND f.current) OR ($asOf IS NOT NULL AND f.firstSeen <= $asOf)
  RETURN id AS toId, 'DATASET' AS toKind, src.id AS fromId, j.id AS jobId, 'DATASET' AS granularity, null AS types,
         null AS subtypes, null AS transformations, null AS reportedId,
         {id: src.id, kind: 'DATASET', namespace: src.namespace, name: src.name, datasetId: null} AS node, false AS metadataColumn,
         CASE WHEN j.collectedBy IS NULL THEN 'REPORTED' ELSE 'COLLECTED' END AS evidence
}
RETURN toId, toKind, fromId, jobId, granularity, types, subtypes, transformations, reportedId, node, metadataColumn, evidence
LIMIT toInteger($limit)
