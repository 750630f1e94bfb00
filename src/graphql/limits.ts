import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLOutputType, isListType, isNonNullType, Kind, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { badInput, ErrorCode, limitExceeded } from '../errors';
import { toGraphQLError } from './errors';

/**
 * Depth and cost limits, checked once the operation is parsed and validated and before any
 * resolver runs (so an over-limit query never touches Neo4j). Depth counts nested selections
 * (introspection fields excepted). Cost estimates the work an operation can do and the nodes its
 * answer can hold, bounded by the server's own caps: 1 per field; a field with a `first` argument
 * costs `first` times its selection (the page it asks for); a walk with a `depth` argument and no
 * `first` (lineage, trace) costs its selection times the nodes it can return, min(TRIBUTARY_MAX_NODES
 * per direction, 4^depth), with the depth the server uses when none is given; an unpaged list on an
 * entity (a dataset's consumers, a job's outputs) costs LIST_FANOUT times its selection. A root
 * field whose service reads a whole region before it pages (REGION_READS: blastRadius walks all
 * downstream, path searches, search ranks every hit, namespaces counts every node, identity walks
 * 3 symlinks, the analytics) costs that region whatever its page size, plus `first` times its
 * selection. Aliases add up, nesting multiplies.
 */
export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
}

/** What the estimate needs of the server's caps (TRIBUTARY_MAX_NODES, the default and maximum lineage depth). */
export interface WalkCaps {
  maxNodes: number;
  defaultDepth: number;
  maxDepth: number;
}

/**
 * Entity types whose list fields navigate the graph (a dataset's consumers, a job's outputs, ...):
 * unpaged and nestable, so each level multiplies by LIST_FANOUT, the estimate of a list's length.
 */
const NAVIGATION_TYPES = new Set(['Dataset', 'Job', 'Run', 'DatasetField', 'JobVersion', 'ImpactItem']);
export const LIST_FANOUT = 20;

/**
 * Operations whose work the server bounds by its own caps rather than by arguments (coverage over
 * every edge of a scope, coverageGaps' walk from up to 500 outputs, lineageBreaks over every
 * dataset, lineageDiff's two snapshots of a scope): each costs this much besides its answer, so a few fit in one query, not a hundred.
 */
export const ANALYTICS_COST = 10_000;

/** min(nodes a walk may return, 4^depth): the nodes a walk of `depth` edges can reach. */
const walkNodes = (caps: WalkCaps, depth: number): number => Math.min(caps.maxNodes, 4 ** Math.min(Math.max(1, depth), caps.maxDepth));

/**
 * Root fields that read a whole region before they answer a page of it, and that region's cost
 * (independent of `first`): what a query pays for asking for one item of a blast radius is the walk.
 */
const REGION_READS: Record<string, (args: Record<string, unknown>, caps: WalkCaps) => number> = {
  coverage: () => ANALYTICS_COST,
  coverageGaps: () => ANALYTICS_COST,
  lineageBreaks: () => ANALYTICS_COST,
  // Two snapshots of its scope.
  lineageDiff: () => 2 * ANALYTICS_COST,
  // Everything downstream to `depth` (default TRIBUTARY_MAX_DEPTH), with owners and run states, then the page.
  blastRadius: (args, caps) => walkNodes(caps, typeof args.depth === 'number' ? args.depth : caps.maxDepth),
  // Up to TRIBUTARY_MAX_NODES nodes searched, then `first` paths.
  path: (_args, caps) => caps.maxNodes,
  // Every full-text hit is ranked before the page is cut.
  search: (_args, caps) => caps.maxNodes,
  // Every dataset and job is counted.
  namespaces: (_args, caps) => caps.maxNodes,
  // Every name up to 3 symlinks away.
  identity: (_args, caps) => walkNodes(caps, 3),
};

/** Root fields that walk the graph or read a region of it: never lookups (see isLookup). */
export const WALK_FIELDS: ReadonlySet<string> = new Set([...Object.keys(REGION_READS), 'lineage', 'trace']);

export function costEstimator(caps: WalkCaps): ComplexityEstimator {
  return ({ args, field, type, childComplexity }) => {
    const region = type.name === 'Query' ? REGION_READS[field.name] : undefined;
    if (region) return 1 + region(args, caps) + Math.max(1, Number(args.first) || 1) * childComplexity;
    if (typeof args.first === 'number') return 1 + Math.max(1, args.first) * childComplexity;
    if (NAVIGATION_TYPES.has(type.name) && isList(field.type)) return 1 + LIST_FANOUT * childComplexity;
    if (!field.args.some((a) => a.name === 'depth')) return undefined;
    // lineage defaults to TRIBUTARY_DEFAULT_DEPTH; trace walks to TRIBUTARY_MAX_DEPTH.
    const fallback = field.name === 'lineage' ? caps.defaultDepth : caps.maxDepth;
    const depth = Math.min(typeof args.depth === 'number' ? Math.max(1, args.depth) : fallback, caps.maxDepth);
    const directions = args.direction === 'BOTH' ? 2 : 1;
    return 1 + Math.min(caps.maxNodes * directions, 4 ** depth) * childComplexity;
  };
}

const isList = (t: GraphQLOutputType): boolean => (isNonNullType(t) ? isList(t.ofType) : isListType(t));

/** The estimated cost of an operation (see above). */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, caps: WalkCaps, variables: Record<string, unknown> = {}, operationName?: string): number {
  return getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [costEstimator(caps), simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** The estimate up to which an operation without walks is a lookup (src/http/lanes.ts admits lookups on their own slots). */
export const LOOKUP_COST = 1_000;

/**
 * Whether an operation is a lookup: no root field in WALK_FIELDS (through fragments too) and an
 * estimated cost of at most LOOKUP_COST. Throws as operationCost does (e.g. a variable of the wrong type).
 */
export function isLookup(schema: GraphQLSchema, document: DocumentNode, caps: WalkCaps, variables: Record<string, unknown> = {}, operationName?: string): boolean {
  if (rootFields(document, operationName).some((name) => WALK_FIELDS.has(name))) return false;
  return operationCost(schema, document, caps, variables, operationName) <= LOOKUP_COST;
}

/** Names of the fields an operation selects at its root, fragments expanded. */
function rootFields(document: DocumentNode, operationName?: string): string[] {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const op = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName));
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) return [];
  const names: string[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) names.push(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const frag = fragments.get(sel.name.value);
        if (frag) visit(frag);
      }
    }
  };
  visit(op.selectionSet);
  return names;
}

export function queryLimitsPlugin(schema: GraphQLSchema, limits: QueryLimits, caps: WalkCaps): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          const depth = operationDepth(document, operationName ?? undefined);
          if (depth > limits.maxDepth) {
            throw limitError(`query depth ${depth} exceeds the limit of ${limits.maxDepth} (TRIBUTARY_MAX_QUERY_DEPTH)`);
          }
          let cost: number;
          try {
            cost = operationCost(schema, document, caps, request.variables ?? {}, operationName ?? undefined);
          } catch (err) {
            // The estimate coerces the variables first: a variable of the wrong type is the client's error.
            if (err instanceof GraphQLError) throw toGraphQLError(badInput(err.message));
            throw err;
          }
          if (cost > limits.maxComplexity) {
            throw limitError(
              `query cost ${cost} exceeds the limit of ${limits.maxComplexity} (TRIBUTARY_MAX_QUERY_COMPLEXITY): ask for smaller pages ` +
                '(first), a smaller depth, fewer aliases or fewer fields per item',
            );
          }
        },
      };
    },
  };
}

/** A LIMIT_EXCEEDED AppError, as the GraphQLError Apollo answers with its status (400) before execution. */
function limitError(message: string): GraphQLError {
  return toGraphQLError(limitExceeded(message, 400));
}

/** Deepest nesting of the operation's selections, fragments expanded. */
export function operationDepth(document: DocumentNode, operationName?: string): number {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const op = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) return 0;
  const depthOf = (set: SelectionSetNode, seen: Set<string>): number => {
    let max = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        max = Math.max(max, 1 + (sel.selectionSet ? depthOf(sel.selectionSet, seen) : 0));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, depthOf(sel.selectionSet, seen));
      } else {
        const frag = fragments.get(sel.name.value);
        if (frag && !seen.has(sel.name.value)) max = Math.max(max, depthOf(frag, new Set([...seen, sel.name.value])));
      }
    }
    return max;
  };
  return depthOf(op.selectionSet, new Set());
}

/**
 * The backstop behind the estimate: an operation that resolves more than `maxFields` fields (a
 * list far longer than LIST_FANOUT, nested) stops resolving there, and its whole answer is one
 * LIMIT_EXCEEDED error (HTTP 400), never a partial answer of unbounded size.
 */
export function responseBudgetPlugin(maxFields: number): ApolloServerPlugin {
  const message =
    `the answer would hold more than ${maxFields} values (TRIBUTARY_MAX_RESPONSE_FIELDS): ` +
    'ask for fewer nested lists (consumers, outputs, ...), smaller pages (first) or a smaller depth';
  return {
    async requestDidStart() {
      let resolved = 0;
      let over = false;
      return {
        async executionDidStart() {
          return {
            willResolveField() {
              if (over || ++resolved > maxFields) {
                over = true;
                throw limitError(message);
              }
            },
          };
        },
        async willSendResponse({ response }) {
          if (!over || response.body.kind !== 'single') return;
          response.body.singleResult = { errors: [{ message, extensions: { code: ErrorCode.LIMIT_EXCEEDED } }] };
          response.http.status = 400;
        },
      };
    },
  };
}
