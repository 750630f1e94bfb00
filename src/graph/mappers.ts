import { type Integer, isDate, isDateTime, isDuration, isInt, isLocalDateTime, isLocalTime, isNode, isRelationship, isTime } from 'neo4j-driver';

/**
 * The one place Neo4j values become plain JSON-friendly values (the driver returns them as Neo4j
 * types: lossless Integers). Integers become numbers (counts and sizes stay far below 2^53; one
 * beyond that becomes its decimal string rather than a wrong number), temporal values ISO strings,
 * nodes and relationships their property maps. Queries in cypher/ return maps and scalars, so nodes
 * only appear here by mistake, and still map sanely.
 */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Strings, numbers and booleans first: most values of a large answer are.
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (isInt(value)) {
    const int = value as Integer;
    return int.inSafeRange() ? int.toNumber() : int.toString();
  }
  if (isDate(value) || isDateTime(value) || isLocalDateTime(value) || isTime(value) || isLocalTime(value) || isDuration(value)) {
    return String(value);
  }
  if (isNode(value)) return toPlain((value as { properties: unknown }).properties);
  if (isRelationship(value)) return toPlain((value as { properties: unknown }).properties);
  const out: Record<string, unknown> = {};
  for (const k in value) out[k] = toPlain((value as Record<string, unknown>)[k]);
  return out;
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
