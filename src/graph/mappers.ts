import { type Integer, isDate, isDateTime, isDuration, isInt, isLocalDateTime, isLocalTime, isNode, isRelationship, isTime } from 'neo4j-driver';

/**
 * The one place Neo4j values become plain JSON-friendly values (the driver returns them as Neo4j
 * types: lossless Integers). Integers become numbers (counts and sizes stay far below 2^53; one
 * beyond that becomes its decimal string rather than a wrong number), temporal values ISO strings,
 * nodes and relationships their property maps. Queries in cypher/ return maps and scalars, so nodes
 * only appear here by mistake, and still map sanely.
 * Lists and maps are converted in place (the driver decodes fresh ones for every record, and a
 * 20,000-node answer would otherwise be copied once more): pass only values nothing else holds.
 */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Strings, numbers and booleans first: most values of a large answer are.
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = toPlain(value[i]);
    return value;
  }
  if (isInt(value)) {
    const int = value as Integer;
    return int.inSafeRange() ? int.toNumber() : int.toString();
  }
  if (isDate(value) || isDateTime(value) || isLocalDateTime(value) || isTime(value) || isLocalTime(value) || isDuration(value)) {
    return String(value);
  }
  if (isNode(value) || isRelationship(value)) return toPlain({ ...(value as { properties: object }).properties });
  const map = value as Record<string, unknown>;
  for (const k in map) map[k] = toPlain(map[k]);
  return map;
}

/** Parses a JSON property (facets, transformations); null or invalid text gives null. */
export function parseJsonProperty(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
