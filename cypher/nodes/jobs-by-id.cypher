// Purpose: job lookup by id (DataLoader batch).
// Parameters: $ids: list of job ids
// Columns: job: {id, namespace, name, description, integration, processingType, jobType, facets (JSON text),
//   firstSeen, lastSeen}; ids not found are absent
UNWIND $ids AS id
MATCH (j:Job {id: id})
RETURN j {.id, .namespace, .name, .description, .integration, .processingType, .jobType, .facets,
          .firstSeen, .lastSeen} AS job
