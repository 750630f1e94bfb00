import { GraphQLError, Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';
import { limitExceeded, type AppError } from '../errors';

/**
 * The document gate: checks a GraphQL document before Apollo parses and validates it, in time
 * linear in its size, so that no document can make parsing, validation or the cost estimate run
 * long. Refuses (LIMIT_EXCEEDED) a document over `maxTokens` lexical tokens (graphql-js stops
 * lexing there), and one whose fragments expand to more than `maxTokens` field selections (each
 * fragment counted once, with memoisation: fragments that spread the next one twice cannot blow up
 * here, only in validation, which they then never reach). Documents that do not parse pass
 * through: Apollo answers their syntax error.
 */
export interface GateLimits {
  maxTokens: number;
}

/**
 * Documents that passed, so that a client repeating its queries (dashboards, the explorer) costs
 * one parse here, as Apollo's own document cache does there. Bounded: short texts only, emptied
 * when full.
 */
const passed = new Set<string>();
const CACHE_ENTRIES = 1000;
const CACHE_TEXT = 10_000;

export function checkDocument(query: string, limits: GateLimits): AppError | null {
  const key = `${limits.maxTokens}\u0000${query}`;
  if (passed.has(key)) return null;
  const refused = check(query, limits);
  if (refused === null && query.length <= CACHE_TEXT) {
    if (passed.size >= CACHE_ENTRIES) passed.clear();
    passed.add(key);
  }
  return refused;
}

function check(query: string, limits: GateLimits): AppError | null {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens, noLocation: true });
  } catch (err) {
    if (err instanceof GraphQLError && /Document contains more th\w+ \d+ tokens/.test(err.message)) {
      return limitExceeded(
        `the query has more than ${limits.maxTokens} tokens (TRIBUTARY_MAX_QUERY_TOKENS): ask for fewer fields or aliases, or split it`,
        400,
      );
    }
    return null;
  }
  const expanded = expandedSelections(document);
  if (expanded > limits.maxTokens) {
    return limitExceeded(
      `the query's fragments expand to ${expanded > 1e12 ? 'more than 10^12' : expanded} field selections, over the limit of ${limits.maxTokens} ` +
        '(TRIBUTARY_MAX_QUERY_TOKENS): spread each fragment fewer times',
      400,
    );
  }
  return null;
}

/** Field selections of the largest operation with fragments expanded (memoised; cycles count 0). */
export function expandedSelections(document: DocumentNode): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else n += fragment(sel.name.value);
      if (n > 1e12) return n;
    }
    return n;
  };
  const fragment = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const set = fragments.get(name);
    if (!set || visiting.has(name)) return 0;
    visiting.add(name);
    const n = count(set);
    visiting.delete(name);
    memo.set(name, n);
    return n;
  };
  let max = 0;
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) max = Math.max(max, count(d.selectionSet));
  return max;
}
