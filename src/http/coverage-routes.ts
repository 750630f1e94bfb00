import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badInput } from '../errors';
import { encodeOffset, offsetAfter } from '../graphql/paging';
import type { CoverageService } from '../lineage/coverage-service';
import type { DiffService } from '../lineage/diff-service';
import { Bucket, CoverageScope, DiffChangeKind } from '../lineage/types';
import { Scope, type Auth } from './auth';
import { badgeSvg, widgetHtml } from './coverage-embeds';
import { OPENAPI } from './openapi';
import { clientOf, Lane, type Lanes } from './lanes';
import { holdSlot } from './read-slots';

/**
 * Coverage outside GraphQL, computed by the same service (src/lineage/coverage-service.ts):
 *   GET /api/v1/coverage        the coverage report as JSON (Grafana Infinity: root selector
 *                               `byEngine`, `byNamespace`, `byJob` or `trend` for flat rows)
 *   GET /api/v1/coverage/gaps   the ranked dataset-level-only edges
 *   GET /api/v1/lineage/diff    what changed between two times (src/lineage/diff-service.ts; Infinity: root `changes`)
 *   GET /api/v1/openapi.json    the OpenAPI 3.1 document of these routes
 *   GET /embed/coverage.svg     a badge (shields.io flat style), ETag and Cache-Control
 *   GET /embed/coverage         an HTML widget for an iframe, CSP frame-ancestors from config
 * All take scope (ALL, NAMESPACE, JOB, ENGINE) and value as the GraphQL `coverage` does; bad
 * parameters are 400 with the reason. They need the read scope like /graphql (the embeds not when
 * TRIBUTARY_EMBED_PUBLIC=true; openapi.json too), checked before the parameters. Admission
 * (src/http/lanes.ts): the heavy lane, with GraphQL's walks and analytics; anonymous embeds in a
 * lane of their own.
 */

export interface CoverageRouteOptions {
  coverage: CoverageService;
  diff: DiffService;
  auth: Auth;
  lanes: Lanes;
  embed: { thresholds: [number, number]; frameAncestors: string; public: boolean };
}

const scopeParams = {
  scope: z.enum(CoverageScope).default(CoverageScope.ALL),
  value: z.string().min(1).max(2_000).optional(),
};
const reportParams = z.object({
  ...scopeParams,
  bucket: z.enum(Bucket).default(Bucket.WEEK),
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
});
const gapParams = z.object({ ...scopeParams, first: z.coerce.number().int().min(1).max(200).default(20) });
const diffParams = z.object({
  ...scopeParams,
  from: z.string().min(1).max(100),
  to: z.string().min(1).max(100).optional(),
  kinds: z
    .string()
    .max(1_000)
    .optional()
    .transform((k) => (k ? k.split(',').map((x) => x.trim()).filter(Boolean) : []))
    .pipe(z.array(z.enum(DiffChangeKind)).max(20)),
  first: z.coerce.number().int().min(1).max(1000).default(100),
  after: z.string().max(100).optional(),
});
const badgeParams = z.object({ ...scopeParams, label: z.string().min(1).max(40).default('lineage coverage') });

function parse<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const r = schema.safeParse(query);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw badInput(`query parameter ${issue.path.join('.') || '(query)'}: ${issue.message}`);
}

export async function coverageRoutes(app: FastifyInstance, o: CoverageRouteOptions): Promise<void> {
  /** Read access, checked in onRequest like every route's (the rate limit keys on the principal after it). */
  const read = {
    onRequest: async (req: FastifyRequest) => {
      req.principal = await o.auth.check(req, Scope.READ);
    },
  };
  /** The embeds: read access unless TRIBUTARY_EMBED_PUBLIC. */
  const embedRead = o.embed.public ? {} : read;
  /** An admission slot held until the answer is sent (anonymous embeds in their own lane); false when the client left while waiting. */
  const admit = (req: FastifyRequest, reply: FastifyReply, embed = false): Promise<boolean> =>
    holdSlot(o.lanes[embed && o.embed.public ? Lane.EMBED : Lane.HEAVY], req.raw, reply.raw, clientOf(req));
  const gone = (reply: FastifyReply) => reply.code(499).send();

  app.get('/api/v1/coverage', read, async (req, reply) => {
    const p = parse(reportParams, req.query);
    if (!(await admit(req, reply))) return gone(reply);
    const report = await o.coverage.coverage(p.scope, p.value ?? null, p.bucket, p.from ?? null, p.to ?? null);
    return { generatedAt: new Date().toISOString(), ...report };
  });

  app.get('/api/v1/coverage/gaps', read, async (req, reply) => {
    const p = parse(gapParams, req.query);
    if (!(await admit(req, reply))) return gone(reply);
    const gaps = await o.coverage.gaps(p.scope, p.value ?? null, p.first);
    return { generatedAt: new Date().toISOString(), scope: p.scope, value: p.value ?? null, ...gaps };
  });

  app.get('/api/v1/lineage/diff', read, async (req, reply) => {
    const p = parse(diffParams, req.query);
    const offset = offsetAfter(p.after);
    if (!(await admit(req, reply))) return gone(reply);
    const d = await o.diff.diff({ scope: p.scope, value: p.value ?? null, from: p.from, to: p.to ?? null, kinds: p.kinds, first: p.first, offset });
    const { offset: _offset, ...rest } = d;
    const next = offset + d.changes.length < d.total ? encodeOffset(offset + d.changes.length) : null;
    return { generatedAt: new Date().toISOString(), ...rest, nextCursor: next };
  });

  // The API's shape, the REST counterpart of GraphQL introspection (off under a tokens file): it
  // holds no data, but it needs the read scope like the routes it describes, so that with tokens
  // every route but health and the explorer's static files needs a token. Open without tokens.
  app.get('/api/v1/openapi.json', read, async () => OPENAPI);

  app.get('/embed/coverage.svg', embedRead, async (req, reply) => {
    const p = parse(badgeParams, req.query);
    if (!(await admit(req, reply, true))) return gone(reply);
    const { overall } = await o.coverage.summary(p.scope, p.value ?? null);
    const svg = badgeSvg(p.label, overall.columnLevelShare, overall.edges, o.embed.thresholds);
    const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"`;
    // A badge answered to a token is the token holder's: shared caches must not keep it.
    void reply
      .header('etag', etag)
      .header('cache-control', `${o.embed.public ? 'public' : 'private'}, max-age=300`)
      .header('vary', 'Authorization')
      .header('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('image/svg+xml; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(svg);
  });

  app.get('/embed/coverage', embedRead, async (req, reply) => {
    const p = parse(reportParams, req.query);
    if (!(await admit(req, reply, true))) return gone(reply);
    const [report, gaps] = await Promise.all([
      o.coverage.coverage(p.scope, p.value ?? null, p.bucket, p.from ?? null, p.to ?? null),
      o.coverage.gaps(p.scope, p.value ?? null, 5),
    ]);
    const back = `/coverage${p.scope === CoverageScope.ALL ? '' : `?scope=${p.scope}&value=${encodeURIComponent(p.value ?? '')}`}`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', `${o.embed.public ? 'public' : 'private'}, max-age=300`)
      .header('vary', 'Authorization')
      .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${o.embed.frameAncestors}`)
      .header('x-content-type-options', 'nosniff')
      .send(widgetHtml(report, gaps, back, o.embed.thresholds));
  });
}
