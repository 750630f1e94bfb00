import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badInput, ErrorCode } from '../errors';
import { UUID_PATTERN } from '../ids';
import { EntityKind, TruncationReason } from '../lineage/types';
import { Scope, type Auth } from '../http/auth';
import { clientOf, Lane, type Lanes } from '../http/lanes';
import { holdSlot } from '../http/read-slots';
import { jsonArrayStream } from '../http/json-stream';
import type { Logger } from '../log';
import type { MarquezLineage } from './lineage';
import { boolParam, enumListParam, enumParam, intParam, pageParams, ParamError, stringParam, timeParam } from './params';
import type { MarquezService } from './service';
import { buckets, knownZone, type Period } from './stats';

/**
 * Marquez's read API (as its web UI and clients use it: ../shared/marquez-api/CONTRACT.md) under
 * /api/v1 and /api/v2beta, so a team on Marquez points its UI and clients here and changes nothing.
 * Conventions kept: Marquez's shapes with nulls written out, `totalCount` where Marquez has it,
 * errors as `{code, message}` (and `{errors: [...]}` for a bad query parameter), enum parameters in
 * any case, path segments percent-decoded one by one (`%2F` inside a name), trailing slashes
 * accepted. Reads need the read scope (writes: ingest), like /graphql; lineage takes a heavy
 * admission slot, the rest a lookup slot (src/http/lanes.ts). Where Tributary's caps cut an answer
 * Marquez would give whole, a header says so: `Tributary-Truncated: NODE_LIMIT`, `Tributary-Depth`
 * (the depth used, when a larger one was asked), `Tributary-Limit` (the page size used).
 */
export interface MarquezRouteOptions {
  service: MarquezService;
  lineage: MarquezLineage;
  auth: Auth;
  lanes: Lanes;
  log: Logger;
}

type Query = Record<string, unknown>;
type Params = Record<string, string>;
const RUN_STATES = ['NEW', 'RUNNING', 'COMPLETED', 'ABORTED', 'FAILED', 'OTHER'] as const;

export async function marquezRoutes(app: FastifyInstance, o: MarquezRouteOptions): Promise<void> {
  const read = { onRequest: async (req: FastifyRequest) => void (req.principal = await o.auth.check(req, Scope.READ)) };
  const write = { onRequest: async (req: FastifyRequest) => void (req.principal = await o.auth.check(req, Scope.INGEST)) };

  app.setErrorHandler((err: Error, req, reply) => {
    if (err instanceof ParamError) return reply.code(400).send({ errors: [err.message] });
    if (err instanceof AppError) {
      if (err.status === 503) void reply.header('retry-after', '5');
      return reply.code(err.status).send({ code: err.status, message: err.message });
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) return reply.code(status).send({ code: status, message: err.message });
    o.log.error('unexpected error', { where: `${req.method} ${req.url}`, error: err });
    return reply.code(500).send({ code: 500, message: 'There was an error processing your request. It has been logged.' });
  });

  /** A route at `path` and at `path/` (Marquez's Java client adds the slash). */
  const route = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, lane: Lane | null, handler: (q: Query, p: Params, reply: FastifyReply) => Promise<unknown>) => {
    for (const url of [path, `${path}/`]) {
      app.route({
        method,
        url,
        ...(lane === null ? write : read),
        handler: async (req, reply) => {
          const params = decodeSegments(req.params as Params);
          const query = (req.query ?? {}) as Query;
          if (lane !== null && !(await holdSlot(o.lanes[lane], req.raw, reply.raw, clientOf(req)))) return reply.code(499).send();
          return handler(query, params, reply);
        },
      });
    }
  };
  const page = (q: Query, reply: FastifyReply, dflt = 100) => {
    const p = pageParams(q, dflt);
    if (p.capped) void reply.header('tributary-limit', String(p.limit));
    return p;
  };
  const s = o.service;
  const L = Lane.LOOKUP;

  route('GET', '/api/v1/namespaces', L, async (q, _p, reply) => ({ namespaces: await s.namespaces(page(q, reply)) }));
  route('GET', '/api/v1/namespaces/:ns', L, async (_q, p) => s.namespace(p.ns!));
  route('GET', '/api/v1/tags', L, async (q, _p, reply) => ({ tags: await s.tags(page(q, reply)) }));
  route('PUT', '/api/v1/tags/:tag', null, async (_q, p, reply) => {
    const body = (reply.request.body ?? {}) as { description?: unknown };
    const description = typeof body.description === 'string' ? body.description.slice(0, 10_000) : null;
    return s.putTag(tagName(p.tag!), description);
  });

  const jobsList = async (q: Query, ns: string | null, reply: FastifyReply) => s.jobs(ns, enumListParam(q, 'lastRunStates', RUN_STATES), page(q, reply));
  route('GET', '/api/v1/jobs', L, (q, _p, reply) => jobsList(q, null, reply));
  route('GET', '/api/v1/namespaces/:ns/jobs', L, (q, p, reply) => jobsList(q, p.ns!, reply));
  route('GET', '/api/v1/namespaces/:ns/jobs/:job', L, async (_q, p) => s.job(p.ns!, p.job!));
  route('GET', '/api/v1/namespaces/:ns/jobs/:job/versions', L, async (q, p, reply) => ({ versions: await s.jobVersions(p.ns!, p.job!, page(q, reply)) }));
  route('GET', '/api/v1/namespaces/:ns/jobs/:job/versions/:version', L, async (_q, p) => s.jobVersion(p.ns!, p.job!, uuid(p.version!)));
  route('GET', '/api/v1/sources', L, async (q, _p, reply) => ({ sources: await s.sources(null, page(q, reply)) }));
  route('GET', '/api/v1/sources/:source', L, async (_q, p) => s.source(p.source!));
  route('GET', '/api/v1/namespaces/:ns/jobs/:job/runs', L, async (q, p, reply) => s.runsOfJob(p.ns!, p.job!, page(q, reply)));
  route('GET', '/api/v1/jobs/runs/:id', L, async (_q, p) => s.run(uuid(p.id!)));
  route('GET', '/api/v1/jobs/runs/:id/facets', L, async (q, p, reply) => {
    const type = enumParam(q, 'type', ['RUN', 'JOB', 'DATASET'] as const, true);
    if (type === 'DATASET') return reply.code(204).send();
    return s.runFacets(uuid(p.id!), type as 'RUN' | 'JOB');
  });
  route('DELETE', '/api/v1/namespaces/:ns/jobs/:job', null, async (_q, p) => {
    await s.annotate({ kind: EntityKind.JOB, namespace: p.ns!, name: p.job! }, { hide: true });
    return s.job(p.ns!, p.job!, true);
  });
  for (const [method, change] of [['POST', 'addTag'], ['DELETE', 'removeTag']] as const) {
    route(method, '/api/v1/namespaces/:ns/jobs/:job/tags/:tag', null, async (_q, p) => {
      await s.annotate({ kind: EntityKind.JOB, namespace: p.ns!, name: p.job! }, { [change]: tagName(p.tag!) });
      return s.job(p.ns!, p.job!, true);
    });
    route(method, '/api/v1/namespaces/:ns/datasets/:ds/tags/:tag', null, async (_q, p) => {
      await s.annotate({ kind: EntityKind.DATASET, namespace: p.ns!, name: p.ds! }, { [change]: tagName(p.tag!) });
      return s.dataset(p.ns!, p.ds!, true);
    });
    route(method, '/api/v1/namespaces/:ns/datasets/:ds/fields/:field/tags/:tag', null, async (_q, p) => {
      // Marquez upper-cases the tags it puts on fields.
      await s.annotate({ kind: EntityKind.DATASET, namespace: p.ns!, name: p.ds!, field: p.field! }, { [change]: tagName(p.tag!).toUpperCase() });
      return s.dataset(p.ns!, p.ds!, true);
    });
  }

  route('GET', '/api/v1/namespaces/:ns/datasets', L, async (q, p, reply) => s.datasets(p.ns!, page(q, reply)));
  route('GET', '/api/v1/namespaces/:ns/datasets/:ds', L, async (_q, p) => s.dataset(p.ns!, p.ds!));
  route('DELETE', '/api/v1/namespaces/:ns/datasets/:ds', null, async (_q, p) => {
    await s.annotate({ kind: EntityKind.DATASET, namespace: p.ns!, name: p.ds! }, { hide: true });
    return s.dataset(p.ns!, p.ds!, true);
  });
  route('GET', '/api/v1/namespaces/:ns/datasets/:ds/versions', L, async (q, p, reply) => s.datasetVersions(p.ns!, p.ds!, page(q, reply)));
  route('GET', '/api/v1/namespaces/:ns/datasets/:ds/versions/:version', L, async (_q, p) => s.datasetVersion(p.ns!, p.ds!, uuid(p.version!)));

  route('GET', '/api/v1/lineage', Lane.HEAVY, async (q, _p, reply) => {
    const nodeId = required(q, 'nodeId');
    const depth = intParam(q, 'depth', 20);
    const answer = await o.lineage.table(nodeId, depth);
    withCuts(reply, answer, depth);
    return reply.type('application/json; charset=utf-8').send(jsonArrayStream('graph', answer.graph));
  });
  route('GET', '/api/v1/column-lineage', Lane.HEAVY, async (q, _p, reply) => {
    const nodeId = required(q, 'nodeId');
    const depth = intParam(q, 'depth', 20);
    const answer = await o.lineage.column(nodeId, depth, boolParam(q, 'withDownstream', false));
    return withCuts(reply, answer, depth);
  });

  route('GET', '/api/v1/search', L, async (q, _p, reply) => {
    const text = stringParam(q, 'q', 1_000);
    if (text === null || text.trim() === '') throw new ParamError('query param q must not be blank');
    enumParam(q, 'sort', ['NAME', 'UPDATE_AT'] as const);
    const filter = enumParam(q, 'filter', ['DATASET', 'JOB'] as const);
    const { limit } = page(q, reply, 10);
    const answer = await s.search(text, filter, stringParam(q, 'namespace', 1_024), Math.min(limit, 100));
    const after = dateParam(q, 'after');
    const before = dateParam(q, 'before');
    if (!after && !before) return answer;
    const results = answer.results.filter((r) => (!after || String(r.updatedAt) >= after) && (!before || String(r.updatedAt) < before));
    return { totalCount: results.length, results };
  });
  route('GET', '/api/v2beta/search/:kind', L, async (_q, _p, reply) =>
    reply.code(503).send({ code: 503, message: 'Advanced search (OpenSearch) is not available: Tributary answers /api/v1/search.' }),
  );

  route('GET', '/api/v1/events/lineage', L, async (q, _p, reply) => {
    const before = timeParam(q, 'before', '2030-01-01T00:00:00.000Z');
    const after = timeParam(q, 'after', '1970-01-01T00:00:00.000Z');
    const direction = enumParam(q, 'sortDirection', ['ASC', 'DESC'] as const) ?? 'DESC';
    return s.events(after, before, direction === 'ASC', page(q, reply));
  });
  route('GET', '/api/v1/stats/:what', L, async (q, p, reply) => {
    const what = p.what!;
    if (!['lineage-events', 'jobs', 'datasets', 'sources'].includes(what)) return reply.code(404).send({ code: 404, message: 'HTTP 404 Not Found' });
    const period = String((Array.isArray(q.period) ? q.period[0] : q.period) ?? '').toUpperCase();
    const timezone = stringParam(q, 'timezone', 100);
    // Marquez answers these in plain text.
    if (period !== 'DAY' && period !== 'WEEK') return reply.code(400).type('text/plain').send('Invalid period');
    if (period === 'WEEK' && !timezone) return reply.code(400).type('text/plain').send('Timezone is required for WEEK period');
    if (timezone && !knownZone(timezone)) return reply.code(400).type('text/plain').send('Invalid timezone');
    const b = buckets(period as Period, new Date(), timezone);
    return what === 'lineage-events' ? s.statsEvents(b) : s.statsCreated(what as 'jobs' | 'datasets' | 'sources', b);
  });
}

/** Sets the headers that say where Tributary cut an answer Marquez would have given whole. */
function withCuts<G>(reply: FastifyReply, answer: { graph: G; truncatedBy: TruncationReason[]; depth: number }, requested: number): { graph: G } {
  if (answer.truncatedBy.length) void reply.header('tributary-truncated', answer.truncatedBy.join(','));
  if (answer.depth < requested) void reply.header('tributary-depth', String(answer.depth));
  return { graph: answer.graph };
}

/**
 * Path parameters percent-decoded once each. The router matches on the raw path, split at '/', so an
 * encoded '/' (%2F) stays inside its segment; it hands parameters over decoded, except where a
 * segment is not valid percent-encoding, which is refused here.
 */
function decodeSegments(params: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (typeof v !== 'string' || v.length === 0) throw badInput(`empty path segment ${k}`);
    if (v.length > 4_096) throw badInput(`path segment ${k} is longer than 4096 characters`);
    out[k] = v;
  }
  return out;
}

function required(q: Query, name: string): string {
  const v = stringParam(q, name, 10_000);
  if (v === null || v.trim() === '') throw new ParamError(`query param ${name} must not be null`);
  return v;
}

function uuid(text: string): string {
  if (!UUID_PATTERN.test(text)) throw new AppError(ErrorCode.BAD_INPUT, `'${text.slice(0, 100)}' is not a UUID`);
  return text.toLowerCase();
}

function tagName(text: string): string {
  if (text.length > 255) throw badInput('a tag name is at most 255 characters');
  return text;
}

/** Marquez's search dates (YYYY-MM-DD) as the start of that UTC day; null when absent. */
function dateParam(q: Query, name: string): string | null {
  const v = stringParam(q, name, 20);
  if (v === null || v === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw new ParamError(`query param ${name} must be a date (YYYY-MM-DD)`);
  return `${v}T00:00:00.000Z`;
}
