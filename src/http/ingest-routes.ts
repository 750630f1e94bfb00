import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badInput, limitExceeded, unsupportedMediaType } from '../errors';
import { Scope, type Auth } from './auth';
import type { GroupCommitter } from '../ingest/group-commit';
import { decodeUtf8 } from '../ingest/decode';
import { outcomeLabel, type IngestItem, type Ingestor } from '../ingest/ingestor';
import type { Metrics } from '../metrics';

/**
 * The OpenLineage HTTP transport contract, so an OpenLineage client works with only
 * `url: http://<host>:5000`.
 *
 * `POST /api/v1/lineage`, one event:
 *  201  stored and projected (committed in Neo4j); body {eventId, duplicate}
 *  400  not a valid OpenLineage event; body names every offending field path
 *  401  an ingest key is configured and `Authorization: Bearer <key>` is missing or wrong
 *  413  body (after gzip decoding) larger than the configured limit
 *  415  Content-Type is not JSON, Content-Encoding is neither identity nor gzip, or the body is not JSON
 *  503  Neo4j unavailable (the client should retry)
 *
 * `POST /api/v1/lineage/batch`, a JSON array of events (or `{"events": [...]}`): 200 with
 * `{status: success | partial_success | failure, summary: {received, successful, failed},
 * failed_events: [{index, reason, details?}]}`; invalid events never cost valid ones their place.
 * 400 when the body is not an array; 413 over the batch byte or event limits; 401/415/503 as above.
 */

export interface IngestHttpOptions {
  ingestor: Ingestor;
  committer: GroupCommitter;
  /** Who may ingest (scope `ingest`; see auth.ts). */
  auth: Auth;
  maxEventBytes: number;
  maxBatchBytes: number;
  maxBatchEvents: number;
  metrics?: Metrics;
}

export async function ingestRoutes(app: FastifyInstance, opts: IngestHttpOptions): Promise<void> {
  // Encapsulated: this JSON parser (exact text kept for storage) applies to these routes only.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'buffer', bodyLimit: Math.max(opts.maxEventBytes, opts.maxBatchBytes) },
    (req, body, done) => {
      const bytes = body as Buffer;
      const limit = req.url.startsWith('/api/v1/lineage/batch') ? opts.maxBatchBytes : opts.maxEventBytes;
      if (bytes.length > limit) {
        done(limitExceeded(`request body exceeds the limit of ${limit} bytes`), undefined);
        return;
      }
      const text = decodeUtf8(bytes);
      if (text === null) {
        done(badInput('the request body is not valid UTF-8 (invalid bytes would be stored as U+FFFD)'), undefined);
        return;
      }
      try {
        done(null, { raw: text, value: JSON.parse(text) } satisfies IngestItem);
      } catch {
        done(unsupportedMediaType('the request body is not valid JSON'), undefined);
      }
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    done(unsupportedMediaType(`Content-Type must be application/json (got ${req.headers['content-type'] ?? 'none'})`), undefined);
  });

  app.addHook('onRequest', async (req) => {
    req.principal = await opts.auth.check(req, Scope.INGEST);
  });
  app.addHook('preParsing', async (req, _reply, payload) => {
    const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
    if (encoding === 'identity') return payload;
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      // The body limit then applies to the decoded bytes (fastify counts what this stream yields).
      delete req.headers['content-length'];
      return payload.pipe(zlib.createGunzip());
    }
    throw unsupportedMediaType(`Content-Encoding ${encoding} is not supported (use gzip or none)`);
  });

  app.addHook('onResponse', async (req, reply) => {
    opts.metrics?.httpIngestSeconds.observe(
      { route: req.routeOptions.url ?? req.url, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.post('/api/v1/lineage', async (req: FastifyRequest, reply: FastifyReply) => {
    const item = requireBody(req);
    if (Array.isArray(item.value)) {
      throw badInput('one event per request here; send arrays to /api/v1/lineage/batch');
    }
    const outcome = await opts.committer.submit(item);
    opts.metrics?.ingestEvents.inc({ transport: 'http', outcome: outcomeLabel(outcome) });
    if (!outcome.ok) throw outcome.error;
    return reply.code(201).send({ eventId: outcome.eventId, duplicate: outcome.duplicate });
  });

  app.post('/api/v1/lineage/batch', async (req: FastifyRequest, reply: FastifyReply) => {
    const body = requireBody(req).value;
    const events = Array.isArray(body) ? body : (body as { events?: unknown } | null)?.events;
    if (!Array.isArray(events)) {
      throw badInput('a batch is a JSON array of OpenLineage events (or {"events": [...]})');
    }
    if (events.length > opts.maxBatchEvents) {
      throw limitExceeded(`a batch holds at most ${opts.maxBatchEvents} events (got ${events.length})`);
    }
    const outcomes = await opts.ingestor.ingest(events.map((value) => ({ raw: stringifyOrEmpty(value), value })));
    for (const o of outcomes) opts.metrics?.ingestEvents.inc({ transport: 'batch', outcome: outcomeLabel(o) });
    const failed = outcomes.flatMap((o, index) =>
      o.ok ? [] : [{ index, reason: o.error.message, ...(o.error.details.length ? { details: o.error.details } : {}) }],
    );
    const successful = events.length - failed.length;
    const status = failed.length === 0 ? 'success' : successful === 0 ? 'failure' : 'partial_success';
    return reply.code(200).send({ status, summary: { received: events.length, successful, failed: failed.length }, failed_events: failed });
  });
}

/**
 * One batch element's text for storage. Nesting too deep to stringify is left '' (validation
 * refuses that event, NESTING_TOO_DEEP, before its text is used); its neighbours are unaffected.
 */
function stringifyOrEmpty(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '';
  }
}

function requireBody(req: FastifyRequest): IngestItem {
  const item = req.body as IngestItem | undefined;
  if (!item) throw unsupportedMediaType('a JSON body is required');
  return item;
}
