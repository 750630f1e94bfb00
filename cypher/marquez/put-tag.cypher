// Purpose: define a tag or change its description (PUT /api/v1/tags/{tag}); idempotent.
// Parameters: $name; $description (or null: keep the one it has); $now: ISO-8601 UTC time
// Columns: name, description
MERGE (t:Tag {name: $name})
  ON CREATE SET t.createdAt = $now
SET t.description = coalesce($description, t.description), t.updatedAt = $now
RETURN t.name AS name, t.description AS description
