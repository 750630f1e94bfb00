// Purpose: every name a dataset is known by: the node itself (its stored raw spellings and
//   normalisation steps) and each dataset SYMLINKed to it (either direction, up to 3 symlinks away),
//   with the symlink that links it (declared on which node, type, first time, declaring event and
//   that event's job and run). For a field name, the field of that name under each of those names.
// Parameters: $id: the dataset id; $field: a field name or null; $limit: maximum names returned
// Columns: one row, none when the dataset is absent: node {id, namespace, name, rawNames,
//   normalisations, fieldId}, names: list of {id, namespace, name, rawNames, normalisations, fieldId,
//   hops, via: {from, to, type, firstSeen, eventId, eventTime, jobId, runId, producer} of the last
//   symlink on the shortest link}, ordered by hops then id; more: true when names were cut at $limit
// Warm-up: {"id": ["-"], "field": [null, "-"], "limit": [1]}
MATCH (d:Dataset {id: $id})
WITH d, COLLECT {
  MATCH p = (d)-[:SYMLINK*1..3]-(a:Dataset)
  WHERE a <> d
  WITH a, min(length(p)) AS hops, collect(p) AS ps
  WITH a, hops, [q IN ps WHERE length(q) = hops][0] AS p
  WITH a, hops, last(relationships(p)) AS s
  OPTIONAL MATCH (e:Event {id: s.firstEvent})
  RETURN {id: a.id, namespace: a.namespace, name: a.name, rawNames: coalesce(a.rawNames, []),
          normalisations: coalesce(a.normalisations, []), hops: hops,
          fieldId: CASE WHEN $field IS NULL THEN null
                   ELSE COLLECT { MATCH (a)-[:HAS_FIELD]->(f:Field {name: $field}) RETURN f.id LIMIT 1 }[0] END,
          via: {from: startNode(s).id, to: endNode(s).id, type: s.type, firstSeen: s.firstSeen, eventId: s.firstEvent,
                eventTime: e.eventTime, jobId: e.jobId, runId: e.runId, producer: e.producer}} AS n
  ORDER BY hops, a.id
  LIMIT toInteger($limit) + 1
} AS names
RETURN {id: d.id, namespace: d.namespace, name: d.name, rawNames: coalesce(d.rawNames, []),
        normalisations: coalesce(d.normalisations, []),
        fieldId: CASE WHEN $field IS NULL THEN null
                 ELSE COLLECT { MATCH (d)-[:HAS_FIELD]->(f:Field {name: $field}) RETURN f.id LIMIT 1 }[0] END} AS node,
       names[0..toInteger($limit)] AS names, size(names) > toInteger($limit) AS more
