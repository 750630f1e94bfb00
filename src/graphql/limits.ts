import type { ApolloServerPlugin } from '@apollo/server';
import { type GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { limitExceeded } from '../errors';
import { toGraphQLError } from './errors';

/**
 * Depth and cost limits, checked once the operation is parsed and validated and before any
 * resolver runs (so an over-limit query never touches Neo4j). Depth counts nested selections
 * (introspection fields excepted). Cost: 1 per field; a field with a `first` argument costs
 * `first` times its selection (the page it asks for); `depth` arguments multiply likewise.
 */
export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
}

const pagedEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const multiplier = (typeof args.first === 'number' ? args.first : 1) * (typeof args.depth === 'number' ? Math.max(1, args.depth) : 1);
  return multiplier > 1 ? 1 + multiplier * childComplexity : undefined;
};

export function queryLimitsPlugin(schema: GraphQLSchema, limits: QueryLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          const depth = operationDepth(document, operationName ?? undefined);
          if (depth > limits.maxDepth) {
            throw limitError(`query depth ${depth} exceeds the limit of ${limits.maxDepth} (TRIBUTARY_MAX_QUERY_DEPTH)`);
          }
          const complexity = getComplexity({
            schema,
            query: document,
            operationName: operationName ?? undefined,
            variables: request.variables ?? {},
            estimators: [pagedEstimator, simpleEstimator({ defaultComplexity: 1 })],
          });
          if (complexity > limits.maxComplexity) {
            throw limitError(`query cost ${complexity} exceeds the limit of ${limits.maxComplexity} (TRIBUTARY_MAX_QUERY_COMPLEXITY); ask for smaller pages or fewer fields`);
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
