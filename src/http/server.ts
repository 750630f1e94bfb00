import { ApolloServer } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage } from 'node:http';
import { AppError, badInput, ErrorCode, limitExceeded, unsupportedMediaType } from '../errors';
import { createContext, type Context, type Services } from '../graphql/context';
import { formatError, unavailablePlugin } from '../graphql/errors';
import { checkDocument } from '../graphql/gate';
import { holdSlot } from './read-slots';
import { clientOf, createLanes, graphqlLane } from './lanes';
import { queryLimitsPlugin, responseBudgetPlugin, type QueryLimits, type WalkCaps } from '../graphql/limits';
import type { TlsMaterial } from './tls';
import cors from '@fastify/cors';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Scope, type Auth, type Principal } from './auth';
import { coverageRoutes, type CoverageRouteOptions } from './coverage-routes';
import { marquezRoutes } from '../marquez/routes';
import type { MarquezLineage } from '../marquez/lineage';
import type { MarquezService } from '../marquez/service';
import { explorerRoutes } from './explorer';
import { ingestRoutes } from './ingest-routes';
import { answerClientError } from './client-errors';
import { readDocument } from './json-body';
import { IMMEDIATE, type CpuTurns } from '../cpu-turns';
import type { GroupCommitter } from '../ingest/group-commit';
import type { EventLog } from '../ingest/event-log';
import type { IngestSettings } from '../config';
import { requestIdOf, requestScope, type Logger } from '../log';
import type { Metrics } from '../metrics';

/**
 * The one HTTP server: OpenLineage ingestion (`POST /api/v1/lineage`), GraphQL (`/graphql`),
 * liveness (`/healthz`: the process answers), readiness (`/readyz`: Neo4j answers and the schema
 * is applied) and Prometheus metrics (`/metrics`). Errors are JSON `{error: {code, message, details?}}` with codes from src/errors.ts.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts as (auth.ts); null on open routes. */
    principal: Principal | null;
  }
}

export interface ServerDeps {
  schema: GraphQLSchema;
  services: Services;
  /** Readiness from state the process already has (answers within a second, whatever Neo4j does). */
  ready: () => boolean | Promise<boolean>;
  /** False when the process cannot recover by itself (its Neo4j could not be restarted). */
  live?: () => boolean;
  log: Logger;
  committer: GroupCommitter;
  /** Where ingestion acknowledges: the spool (handing events to the projector) or the Kafka events topic. */
  eventLog: EventLog;
  /** Where ingestion's body parsing runs (src/cpu-turns.ts), behind reads; at once when absent. */
  turns?: CpuTurns;
  /** More for the /readyz body (the projection lag). */
  readyDetails?: () => Record<string, unknown>;
  /** Who may do what (tokens and scopes; src/http/auth.ts). */
  auth: Auth;
  /** Browser origins allowed to call the API (CORS); none when empty. */
  corsOrigins: string[];
  /** Requests per minute per principal (per client address without one); none when absent. */
  ratePerMinute?: number;
  limits: IngestSettings;
  queryLimits: QueryLimits & {
    introspection: boolean;
    maxTokens: number;
    maxAliases: number;
    maxResponseFields: number;
    maxBytes: number;
    concurrency: number;
    lookupConcurrency: number;
    embedConcurrency: number;
    queue: number;
    clientQueue: number;
  };
  /** The server's traversal caps, for the cost estimate. */
  walkCaps: WalkCaps;
  metrics: Metrics;
  /** Serve HTTPS with these (src/http/tls.ts); plain HTTP when absent. */
  tls?: TlsMaterial;
  /** The built explorer (src/http/explorer.ts) served at /; none when null or absent. */
  explorerDir?: string | null;
  /** The coverage badge and widget (src/http/coverage-routes.ts). */
  embed: CoverageRouteOptions['embed'];
  /** Marquez's read API (src/marquez/routes.ts); not served when absent. */
  marquez?: { service: MarquezService; lineage: MarquezLineage };
}

/**
 * The health endpoints and /metrics, shared by the full server and the worker-only process.
 */
export function addOpsRoutes(
  app: FastifyInstance,
  ready: () => boolean | Promise<boolean>,
  metrics: Metrics,
  live: () => boolean = () => true,
  auth?: Auth,
  details: () => Record<string, unknown> = () => ({}),
): void {
  app.get('/healthz', async (_req, reply) =>
    live() ? { status: 'ok' } : reply.code(503).send({ status: 'failed', reason: 'the embedded Neo4j could not be restarted; restart Tributary' }),
  );
  app.get('/readyz', async (_req, reply) => {
    const ok = await Promise.resolve()
      .then(ready)
      .catch(() => false);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable', ...details() });
  });
  // Authenticated in onRequest, as every route is (the rate limit keys on the principal after it).
  const admin = async (req: FastifyRequest) => {
    if (auth) req.principal = await auth.check(req, Scope.ADMIN);
  };
  app.get('/metrics', { onRequest: admin }, async (_req, reply) => {
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** Deepest nesting of a /graphql body (the variables of the deepest input types need far fewer). */
const MAX_VARIABLE_NESTING = 64;

/**
 * Every error answered as JSON `{error: {code, message, details?}}` with its status (and
 * Retry-After where a client should retry); unknown routes 404. Shared by the full server and the
 * worker-only process's ops port.
 */
export function answerErrorsAsJson(app: FastifyInstance, log: Logger): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const { status, body } = errorResponse(err, log, `${req.method} ${req.url}`);
    // OpenLineage clients and proxies retry 503s; say when (and when a limited client may try again).
    if (status === 503) void reply.header('retry-after', '5');
    if (err instanceof AppError && err.retryAfterS !== undefined) void reply.header('retry-after', String(err.retryAfterS));
    void reply.code(status).send(body);
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: { code: ErrorCode.NOT_FOUND, message: `no route ${req.method} ${req.url}` } });
  });
}

/**
 * Fastify logs through the service's pino logger (none for a test's logger) and names requests by
 * requestIdOf; the access line (buildServer) is the request log, so Fastify's own is off.
 */
export const loggingOptions = (log: Logger) => ({
  ...(log.pino ? { loggerInstance: log.pino, logController: new LogController({ disableRequestLogging: true }) } : { logger: false }),
  genReqId: (req: IncomingMessage) => requestIdOf(req.headers['x-request-id']),
});

/**
 * Every request gets an id (the client's X-Request-Id when it is a plain token of at most 128
 * characters, else a new UUID), answered in X-Request-Id; what runs on its behalf runs in its
 * requestScope, so its log lines and its Neo4j transactions' metadata carry it. Registered first:
 * the hooks after it run inside that scope.
 */
export function traceRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id);
    requestScope.run({ reqId: req.id }, done);
  });
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggingOptions(deps.log),
    bodyLimit: deps.queryLimits.maxBytes,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // Path parameters carry dataset names (Marquez's API: S3 paths, URIs), percent-encoded: up to
    // 4,096 characters decoded (src/marquez/routes.ts refuses longer with a 400); longer is a 414.
    routerOptions: { maxParamLength: 12_288 },
    ...(deps.tls ? { https: deps.tls } : {}),
  }) as unknown as FastifyInstance;
  // /graphql bodies: their own limit (TRIBUTARY_MAX_QUERY_BYTES), counted and scanned as they arrive
  // (json-body.ts), nesting refused before JSON.parse. Ingestion routes have their own parser.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (req, payload, done) => {
    readDocument(req, payload, { limit: deps.queryLimits.maxBytes, maxDepth: MAX_VARIABLE_NESTING }).then(
      (item) => done(null, item.value),
      (err: Error) => done(err, undefined),
    );
  });
  answerErrorsAsJson(app, deps.log);
  traceRequests(app);

  if (deps.ratePerMinute) {
    // Keyed by who the request acts as, never by the header's text: the principal's name once
    // authenticated, else the client address (IPv6 by its /64). So it runs after authentication,
    // which every route does in an onRequest hook (auth.ts), and before the body is read
    // (preParsing). A random or re-spelled Authorization header is therefore no new budget: on an
    // open route it is not a principal, and with tokens a wrong one is a 401 (auth-failures.ts).
    // Requests refused by authentication (401, 403) do not count here. Health is exempt.
    await app.register(rateLimit, {
      max: deps.ratePerMinute,
      timeWindow: 60_000,
      hook: 'preParsing',
      cache: 10_000,
      allowList: (req) => req.routeOptions.url === '/healthz' || req.routeOptions.url === '/readyz',
      keyGenerator: (req) => (req.principal ? `principal ${req.principal.name}` : `address ${normalizeIP(req.ip)}`),
      errorResponseBuilder: (_req, ctx) => limitExceeded(`more than ${ctx.max} requests a minute (TRIBUTARY_RATE_LIMIT); retry in ${ctx.after}`, 429),
    });
  }
  if (deps.corsOrigins.length > 0) {
    await app.register(cors, { origin: deps.corsOrigins.includes('*') ? true : deps.corsOrigins, methods: ['GET', 'POST'] });
  }
  // One access-log line per authenticated request: who, what, how it ended, how long. Never the token.
  app.decorateRequest('principal', null);
  app.addHook('onResponse', async (req, reply) => {
    if (!req.principal) return;
    const operation = (req.body as { operationName?: unknown } | null)?.operationName;
    deps.log.info('access', {
      who: req.principal.name,
      method: req.method,
      route: req.routeOptions.url ?? req.url,
      ...(typeof operation === 'string' ? { operation: operation.slice(0, 200) } : {}),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });

  addOpsRoutes(app, deps.ready, deps.metrics, deps.live, deps.auth, deps.readyDetails);

  await app.register(ingestRoutes, {
    eventLog: deps.eventLog,
    committer: deps.committer,
    turns: deps.turns ?? IMMEDIATE,
    auth: deps.auth,
    metrics: deps.metrics,
    ...deps.limits,
  });

  const q = deps.queryLimits;
  const lanes = createLanes({ heavy: q.concurrency, lookup: q.lookupConcurrency, embed: q.embedConcurrency, queue: q.queue, clientQueue: q.clientQueue });
  deps.metrics.readState = () => Object.fromEntries(Object.entries(lanes).map(([lane, slots]) => [lane, slots.state]));
  const slots = Object.values(lanes);
  deps.turns?.yieldTo(() => slots.some((lane) => lane.busy));
  await app.register(coverageRoutes, { coverage: deps.services.coverage, diff: deps.services.diff, auth: deps.auth, lanes, embed: deps.embed });
  if (deps.marquez) await app.register(marquezRoutes, { ...deps.marquez, auth: deps.auth, lanes, log: deps.log });
  const laneOf = graphqlLane(deps.schema, deps.walkCaps, q.maxTokens);
  // Who: before anything else (the rate limit, in preParsing, keys on the principal).
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.url === '/graphql') req.principal = await deps.auth.check(req, Scope.READ);
  });
  // Before Apollo parses and validates: token count and fragment expansion (src/graphql/gate.ts).
  app.addHook('preHandler', async (req, reply) => {
    if (req.routeOptions.url !== '/graphql') return;
    const request = req.method === 'GET' ? req.query : req.body;
    const query = (request as { query?: unknown } | null)?.query;
    const refused = typeof query === 'string' ? checkDocument(query, q) : null;
    if (refused) return reply.code(400).send({ errors: [{ message: refused.message, extensions: { code: refused.code } }] });
    // Then a slot of its lane (src/http/lanes.ts), in the client's turn; released when the response
    // is sent or the client goes away. A client gone while it waited gets nothing more.
    if (!(await holdSlot(lanes[laneOf(request)], req.raw, reply.raw, clientOf(req)))) return reply.code(499).send();
  });

  // graphql-armor: aliases and directives per operation; field suggestions ("Did you mean ...")
  // off with introspection. Depth and cost are Tributary's own (limits.ts): they know the caps.
  const armor = new ApolloArmor({
    maxAliases: { n: q.maxAliases, exposeLimits: true },
    maxDirectives: { n: 10, exposeLimits: true },
    blockFieldSuggestion: { enabled: !q.introspection },
    maxDepth: { enabled: false },
    costLimit: { enabled: false },
    maxTokens: { enabled: false },
  }).protect();
  const apollo = new ApolloServer<Context>({
    schema: deps.schema,
    formatError: formatError(deps.log),
    includeStacktraceInErrorResponses: false,
    introspection: q.introspection,
    parseOptions: { maxTokens: q.maxTokens },
    validationRules: armor.validationRules,
    plugins: [
      fastifyApolloDrainPlugin(app),
      ...armor.plugins,
      queryLimitsPlugin(deps.schema, q, deps.walkCaps),
      responseBudgetPlugin(q.maxResponseFields),
      unavailablePlugin(),
    ],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), { context: async () => createContext(deps.services) });
  if (deps.explorerDir) await explorerRoutes(app, deps.explorerDir, deps.log);
  return app;
}

function errorResponse(err: FastifyError | Error, log: Logger, where: string): { status: number; body: unknown } {
  const known = err instanceof AppError ? err : fromFastify(err as FastifyError);
  if (known) {
    const details = known.details.length ? { details: known.details } : {};
    return { status: known.status, body: { error: { code: known.code, message: known.message, ...details } } };
  }
  log.error('unexpected error', { where, error: err });
  return { status: 500, body: { error: { code: ErrorCode.INTERNAL, message: 'internal error' } } };
}

/** Fastify's own client errors (body limit, content type, gzip, other 4xx) as AppErrors; null for anything else. */
function fromFastify(fe: FastifyError): AppError | null {
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return limitExceeded('request body exceeds the configured limit (TRIBUTARY_MAX_QUERY_BYTES for /graphql)');
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return unsupportedMediaType(fe.message);
  if (fe.code === 'Z_DATA_ERROR' || fe.code === 'Z_BUF_ERROR') return unsupportedMediaType('the body is not valid gzip');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) return badInput(fe.message);
  return null;
}
