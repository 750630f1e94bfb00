// Purpose: the writes Marquez's UI makes to a job, dataset or field: add or remove a tag, or soft
//   delete. They live on an Annotation keyed by the node's id, never on the projected node, so they
//   survive re-projection; a tag put on a node is also defined as a Tag. A soft delete records
//   hiddenAt ($now): the node is hidden while hiddenAt is at or after its lastSeen, so an event newer
//   than the deletion brings it back, as in Marquez. A field's Annotation also keeps its datasetId,
//   so a dataset's field tags are one index lookup. Idempotent; the node must exist.
// Parameters: $id: node id; $kind: 'DATASET', 'JOB' or 'FIELD'; $addTag, $removeTag: a tag name or null;
//   $hide (boolean); $now: ISO-8601 UTC time
// Columns: id (no row when no node has that id)
CALL () {
  MATCH (n:Dataset {id: $id}) WHERE $kind = 'DATASET' RETURN n
  UNION
  MATCH (n:Job {id: $id}) WHERE $kind = 'JOB' RETURN n
  UNION
  MATCH (n:Field {id: $id}) WHERE $kind = 'FIELD' RETURN n
}
MERGE (a:Annotation {id: $id})
  ON CREATE SET a.kind = $kind, a.tags = [], a.datasetId = n.datasetId
WITH n, a,
     [t IN coalesce(a.tags, []) WHERE t <> coalesce($removeTag, '') | t] +
     CASE WHEN $addTag IS NULL OR $addTag IN coalesce(a.tags, []) THEN [] ELSE [$addTag] END AS tags
SET a.tags = COLLECT { UNWIND tags AS t RETURN t ORDER BY t },
    a.hiddenAt = CASE WHEN $hide THEN $now ELSE a.hiddenAt END,
    a.updatedAt = $now
FOREACH (_ IN CASE WHEN $addTag IS NULL THEN [] ELSE [1] END |
  MERGE (t:Tag {name: $addTag}) ON CREATE SET t.createdAt = $now, t.updatedAt = $now)
RETURN n.id AS id
