import type { Executor } from './executor';
import { cypherCode, Query } from './queries';

/**
 * The labels, relationship types and property keys the service's queries name, created in Neo4j
 * before any plan is compiled.
 *
 * Neo4j plans a query that names a token the database does not have yet (an empty store; a store
 * where no Kafka Connect job, column lineage or symlink has arrived yet) and caches that plan, then
 * throws it away once the token is created: the next use compiles again (tested against Neo4j 5.26:
 * a label, a relationship type and a property key each do it; no stale event, a plain cache miss).
 * On a new store that put 6 to 8 compiles of a second or so on the path of the first requests and
 * projection batches after the plan warm-up, and on an older store one more whenever a feature
 * first wrote a new name. Creating every name up front (`db.createLabel` and its siblings; a
 * token costs a few bytes, a label or type without data lists nowhere) keeps the warm-up's plans.
 *
 * The names are read from the query texts (comments and string literals left out): labels in node
 * patterns and label predicates (`(d:Dataset`, `e:Pending`), types in relationship patterns
 * (`-[:FEEDS|PRODUCES]->`), property keys of property reads, map projections and pattern maps
 * (`j.collectedBy`, `d {.name}`, `{id: $id}`). A map key read the same way (`item.fieldId`) becomes a property key too: harmless,
 * and the same vocabulary. The integration test checks every query against Neo4j's own
 * unknown-token notifications.
 */
export interface Tokens {
  labels: string[];
  relationshipTypes: string[];
  propertyKeys: string[];
}

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';

function keysOfMap(map: string, into: Set<string>): void {
  for (const m of map.matchAll(new RegExp(`(${IDENT})\\s*:`, 'g'))) into.add(m[1]!);
}

export function namedTokens(texts: Iterable<string>): Tokens {
  const labels = new Set<string>();
  const types = new Set<string>();
  const keys = new Set<string>();
  for (const text of texts) {
    // Relationship patterns first, then left out: `[r:T]` would read as a label predicate below.
    const rest = cypherCode(text).replace(/-\[([^\]]*)\]-/g, (_, inner: string) => {
      const [head = '', map] = inner.split('{', 2);
      const typed = new RegExp(`:\\s*(${IDENT}(?:\\s*\\|\\s*:?\\s*${IDENT})*)`).exec(head.split('*')[0]!);
      for (const t of typed?.[1]?.split('|') ?? []) types.add(t.replace(':', '').trim());
      if (map) keysOfMap(map, keys);
      return '--';
    });
    // Node patterns: `(x:A:B {k: v})`, `(:A|B)`.
    for (const m of rest.matchAll(new RegExp(`\\(\\s*(?:${IDENT})?\\s*:\\s*(${IDENT}(?:\\s*[:|&]\\s*${IDENT})*)\\s*(\\{[^}]*\\})?`, 'g'))) {
      for (const l of m[1]!.split(/[:|&]/)) labels.add(l.trim());
      if (m[2]) keysOfMap(m[2], keys);
    }
    // Label predicates and updates, written without spaces: `e:Pending`, `n:Job|Dataset` (a map
    // entry has a space after its colon).
    for (const m of rest.matchAll(new RegExp(`\\b${IDENT}:([A-Z][A-Za-z0-9_]*(?:[|&][A-Z][A-Za-z0-9_]*)*)`, 'g'))) {
      for (const l of m[1]!.split(/[|&]/)) labels.add(l);
    }
    // Property reads: `x.key`, not a namespace or call (`db.index.fulltext.queryNodes(`, `x.a.b`).
    for (const m of rest.matchAll(new RegExp(`\\b${IDENT}\\s*\\.\\s*(${IDENT})\\b(?!\\s*[.(])`, 'g'))) keys.add(m[1]!);
    // Map projections: `d {.id, .name}`.
    for (const m of rest.matchAll(new RegExp(`[{,]\\s*\\.(${IDENT})`, 'g'))) keys.add(m[1]!);
  }
  const sorted = (s: Set<string>) => [...s].filter(Boolean).sort();
  return { labels: sorted(labels), relationshipTypes: sorted(types), propertyKeys: sorted(keys) };
}

/** Creates each token Neo4j does not have yet (an existing one is left as it is). */
export async function createTokens(executor: Executor, tokens: Tokens): Promise<void> {
  await executor.autoCommit(Query.CreateTokens, { labels: tokens.labels, types: tokens.relationshipTypes, keys: tokens.propertyKeys });
}
