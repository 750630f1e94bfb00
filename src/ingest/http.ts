import { timingSafeEqual } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ErrorCode } from '../errors';
import type { IngestItem, Ingestor } from './ingestor';

/**
 * The OpenLineage HTTP transport contract: `POST /api/v1/lineage` with one event as JSON, so an
 * OpenLineage client works with only `url: http://<host>:5000`.
 *
 *  201  stored and projected (committed in Neo4j); body {eventId, duplicate}
 *  400  not a valid OpenLineage event; body names every offending field path
 *  401  an ingest key is configured and `Authorization: Bearer <key>` is missing or wrong
 *  413  body (after gzip decoding) larger than the configured limit
 *  415  Content-Type is not JSON, Content-Encoding is neither identity nor gzip, or the body is not JSON
 *  503  Neo4j unavailable (the client should retry)
 */

export interface IngestHttpOptions {
  ingestor: Ingestor;
  /** When set, requests must carry `Authorization: Bearer <key>`. */
  key?: string;
  maxEventBytes: number;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function ingestRoutes(app: FastifyInstance, opts: IngestHttpOptions): Promise<void> {
  // Encapsulated: this JSON parser (exact text kept for hashing and storage) applies to these routes only.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: opts.maxEventBytes },
    (_req, body, done) => {
      try {
        const text = body as string;
        done(null, { raw: text, value: JSON.parse(text) } satisfies IngestItem);
      } catch {
        done(new HttpError(415, ErrorCode.BAD_INPUT, 'the request body is not valid JSON'), undefined);
      }
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    done(
      new HttpError(415, ErrorCode.BAD_INPUT, `Content-Type must be application/json (got ${req.headers['content-type'] ?? 'none'})`),
      undefined,
    );
  });

  app.addHook('onRequest', async (req) => checkKey(req, opts.key));
  app.addHook('preParsing', async (req, _reply, payload) => {
    const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
    if (encoding === 'identity') return payload;
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      // The body limit then applies to the decoded bytes (fastify counts what this stream yields).
      delete req.headers['content-length'];
      return payload.pipe(zlib.createGunzip());
    }
    throw new HttpError(415, ErrorCode.BAD_INPUT, `Content-Encoding ${encoding} is not supported (use gzip or none)`);
  });

  app.post('/api/v1/lineage', async (req: FastifyRequest, reply: FastifyReply) => {
    const item = req.body as IngestItem | undefined;
    if (!item) throw new HttpError(415, ErrorCode.BAD_INPUT, 'an OpenLineage event (JSON) is required in the body');
    const [outcome] = await opts.ingestor.ingest([item]);
    if (!outcome!.ok) throw outcome!.error;
    return reply.code(201).send({ eventId: outcome!.eventId, duplicate: outcome!.duplicate });
  });
}

function checkKey(req: FastifyRequest, key: string | undefined): void {
  if (!key) return;
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  const given = Buffer.from(m?.[1]?.trim() ?? '');
  const expected = Buffer.from(key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError(ErrorCode.UNAUTHENTICATED, 'missing or invalid ingest key: send Authorization: Bearer <key>');
  }
}
