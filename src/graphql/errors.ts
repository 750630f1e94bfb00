import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, ErrorCode } from '../errors';
import type { Logger } from '../log';

/**
 * Maps every GraphQL error onto the closed set of codes in src/errors.ts (`extensions.code`):
 * AppErrors keep their code, message and details; GraphQL syntax and validation errors become
 * BAD_INPUT; anything else is logged in full and answered as INTERNAL with no detail.
 */
export function formatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const unwrapped = unwrapResolverError(error);
    const original = unwrapped instanceof GraphQLError && unwrapped.originalError instanceof AppError ? unwrapped.originalError : unwrapped;
    if (original instanceof AppError) {
      return {
        message: original.message,
        path: formatted.path,
        locations: formatted.locations,
        extensions: { code: original.code, ...(original.details.length ? { details: original.details } : {}) },
      };
    }
    const code = String(formatted.extensions?.code ?? '');
    // graphql-armor's refusals (aliases, directives) are limits, not syntax.
    const armor = /^Syntax Error: (Aliases|Directives) limit of (\d+) exceeded, found (\d+)\.$/.exec(formatted.message);
    if (armor) {
      const variable = armor[1] === 'Aliases' ? 'TRIBUTARY_MAX_QUERY_ALIASES' : 'a fixed limit';
      return {
        message: `the query has ${armor[3]} ${armor[1]!.toLowerCase()}, over the limit of ${armor[2]} (${variable}): split it into several requests`,
        extensions: { code: ErrorCode.LIMIT_EXCEEDED },
      };
    }
    if (['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST'].includes(code)) {
      const message = /introspection is not allowed/i.test(formatted.message)
        ? 'introspection (__schema, __type) is turned off on this server (TRIBUTARY_GRAPHQL_INTROSPECTION=false); the schema is published as schema.graphql'
        : formatted.message;
      return { message, locations: formatted.locations, extensions: { code: ErrorCode.BAD_INPUT } };
    }
    if (code === 'PERSISTED_QUERY_NOT_FOUND' || code === 'PERSISTED_QUERY_NOT_SUPPORTED') {
      return { message: formatted.message, extensions: { code: ErrorCode.BAD_INPUT } };
    }
    log.error('unexpected GraphQL error', { error: original, path: formatted.path });
    return { message: 'internal error', path: formatted.path, extensions: { code: ErrorCode.INTERNAL } };
  };
}

/**
 * An AppError as a GraphQLError for Apollo's request phases (before execution), carrying its code
 * and HTTP status; formatError then answers it like any AppError.
 */
export function toGraphQLError(err: AppError): GraphQLError {
  return new GraphQLError(err.message, { originalError: err, extensions: { code: err.code, http: { status: err.status } } });
}

/**
 * An answer with an UNAVAILABLE error (Neo4j down, not answering, or restarting) is HTTP 503 with
 * `Retry-After: 5`, as on every other route: clients and proxies retry it, dashboards see an outage
 * rather than a 200 with errors.
 */
export function unavailablePlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          if (!response.body.singleResult.errors?.some((e) => e.extensions?.code === ErrorCode.UNAVAILABLE)) return;
          response.http.status = 503;
          response.http.headers.set('retry-after', '5');
        },
      };
    },
  };
}
