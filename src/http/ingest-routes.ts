import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badInput, unavailable, unsupportedMediaType } from '../errors';
import { Scope, type Auth } from './auth';
import type { Turns } from '../cpu-turns';
import type { GroupCommitter } from '../ingest/group-commit';
import { MAX_NESTING } from '../ingest/validate';
import { readBatch, readDocument, type BatchBody } from './json-body';
import { outcomeLabel, type IngestItem, type IngestOutcome } from '../ingest/ingestor';
import { isLogPosition, type EventLog } from '../ingest/event-log';
import type { Metrics } from '../metrics';

/**
 * The OpenLineage HTTP transport contract, so an OpenLineage client works with only
 * `url: http://<host>:5000`.
 *
 * `POST /api/v1/lineage`, one event:
 *  201  stored durably (appended to the spool and synced, src/ingest/spool.ts; survives a crash of
 *       Tributary or of Neo4j; or, with TRIBUTARY_INGEST_LOG=kafka, in the events topic with acks=all,
 *       src/ingest/kafka-log.ts); the graph shows it once the projector has projected it
 *       (src/ingest/projector.ts, or the Kafka worker). Body {eventId, duplicate, projected}, and
 *       with Kafka `position: {topic, partition, offset}`.
 *       With `Tributary-Wait: projected` (or `?wait=projected`, or TRIBUTARY_INGEST_WAIT=projected),
 *       201 only once the graph shows it (read-your-writes); 202 with projected: false when that
 *       took longer than TRIBUTARY_WAIT_TIMEOUT_MS (stored all the same), or when the projection
 *       failed (stored, labelled ProjectionFailed: `projectionError` says why; never `projected: true`).
 *       `none` asks not to wait.
 *  400  not a valid OpenLineage event; body names every offending field path
 *  401  credentials missing or wrong; 403 without the ingest scope
 *  413  body (after gzip decoding) larger than the configured limit
 *  415  Content-Type is not JSON, Content-Encoding is neither identity nor gzip, or the body is not JSON
 *  503  nothing was stored (the client should retry): the spool holds more than its limit not yet
 *       projected, its disk failed, the events topic did not acknowledge, more than TRIBUTARY_INGEST_MAX_WAITING
 *       events wait to be parsed or validated (src/cpu-turns.ts: reads being served first), or the service
 *       is shutting down
 *
 * `POST /api/v1/lineage/batch`, a JSON array of events (or `{"events": [...]}`): 200 with
 * `{status: success | partial_success | failure, summary: {received, successful, failed},
 * failed_events: [{index, reason, details?}], projected}` (202 when asked to wait and the wait
 * timed out; with Kafka also `positions`: the last offset of the batch's events in each partition);
 * invalid events never cost valid ones their place. 400 when the body is not an array;
 * 413 over the batch byte or event limits; 401/403/415/503 as above.
 */

export interface IngestHttpOptions {
  /** Validates and stores (durably); the stored events are then projected in the background. */
  eventLog: EventLog;
  committer: GroupCommitter;
  /** Where bodies are parsed (src/cpu-turns.ts): behind reads. */
  turns: Turns;
  /** Who may ingest (scope `ingest`; see auth.ts). */
  auth: Auth;
  maxEventBytes: number;
  maxBatchBytes: number;
  maxBatchEvents: number;
  /** Tasks that may wait in `turns` before new bodies are refused (503). */
  maxWaitingTasks: number;
  /** The default when a request does not say (Tributary-Wait / ?wait=). */
  wait: 'none' | 'projected';
  waitTimeoutMs: number;
  metrics?: Metrics;
}

export async function ingestRoutes(app: FastifyInstance, opts: IngestHttpOptions): Promise<void> {
  // Encapsulated: this JSON parser (exact text kept for storage) applies to these routes only.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Bodies are counted, scanned and parsed as they arrive (json-body.ts): the limits and the
  // nesting check apply at the chunk that crosses them, and a batch's elements fail one by one.
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(\s*;.*)?$/i, (req, payload, done) => {
    // Bodies waiting for their turn hold memory: past the bound, new ones are refused before they are read.
    if (opts.turns.backlog > opts.maxWaitingTasks) {
      return done(unavailable(`ingestion has ${opts.turns.backlog} events waiting to be parsed or validated (reads are being served first); retry shortly`), undefined);
    }
    const work: Promise<unknown> = req.url.startsWith('/api/v1/lineage/batch')
      ? readBatch(req, payload, { limit: opts.maxBatchBytes, maxDepth: MAX_NESTING, maxEvents: opts.maxBatchEvents, turns: opts.turns })
      : readDocument(req, payload, { limit: opts.maxEventBytes, maxDepth: MAX_NESTING, turns: opts.turns });
    work.then(
      (body) => done(null, body),
      (err: Error) => done(err, undefined),
    );
  });
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

  /** Whether this request waits for its projection: the header, else the query parameter, else the default. */
  const waits = (req: FastifyRequest): boolean => {
    const asked = req.headers['tributary-wait'] ?? (req.query as { wait?: unknown } | undefined)?.wait ?? opts.wait;
    const value = String(Array.isArray(asked) ? asked[0] : asked).trim().toLowerCase();
    if (value !== 'none' && value !== 'projected') throw badInput(`Tributary-Wait (or ?wait=) is none or projected (got ${value.slice(0, 40)})`);
    return value === 'projected';
  };
  /** True when every event is in the graph (waiting for it when asked to); the pending ones otherwise are still stored. */
  const projected = (req: FastifyRequest, outcomes: IngestOutcome[]): Promise<boolean> => opts.eventLog.projected(outcomes, waits(req), opts.waitTimeoutMs);
  /** Why each of these events, past the projection, is not in the graph. */
  const errorsOf = (passed: boolean, outcomes: IngestOutcome[]) =>
    passed ? opts.eventLog.projectionErrors(outcomes.flatMap((o) => (o.ok ? [o.eventId] : []))) : Promise.resolve(new Map<string, string>());

  app.post('/api/v1/lineage', async (req: FastifyRequest, reply: FastifyReply) => {
    const item = requireBody(req);
    if (Array.isArray(item.value)) {
      throw badInput('one event per request here; send arrays to /api/v1/lineage/batch');
    }
    const wait = waits(req);
    const outcome = await opts.committer.submit(item);
    opts.metrics?.ingestEvents.inc({ transport: 'http', outcome: outcomeLabel(outcome) });
    if (!outcome.ok) throw outcome.error;
    const passed = await projected(req, [outcome]);
    // Past the checkpoint is not in the graph when its projection failed (stored, labelled ProjectionFailed).
    const projectionError = (await errorsOf(passed, [outcome])).get(outcome.eventId) ?? null;
    const inGraph = passed && projectionError === null;
    // Waiting also tells whether the projection found the event stored before.
    const duplicate = outcome.duplicate || (inGraph && opts.eventLog.wasStoredBefore(outcome.eventId));
    const position = outcome.pending && isLogPosition(outcome.pending) ? outcome.pending : null;
    return reply
      .code(wait && !inGraph ? 202 : 201)
      .send({ eventId: outcome.eventId, duplicate, projected: inGraph, ...(projectionError !== null ? { projectionError } : {}), ...(position ? { position } : {}) });
  });

  app.post('/api/v1/lineage/batch', async (req: FastifyRequest, reply: FastifyReply) => {
    const body = req.body as BatchBody | undefined;
    if (!body) throw unsupportedMediaType('a JSON body is required');
    if (!('elements' in body)) throw badInput('a batch is a JSON array of OpenLineage events (or {"events": [...]})');
    const { elements } = body;
    const wait = waits(req);
    const valid = elements.flatMap((e, index) => ('error' in e ? [] : [{ index, item: e }]));
    const stored = valid.length > 0 ? await opts.eventLog.store(valid.map((v) => v.item)) : [];
    const outcomes: IngestOutcome[] = elements.map((e) => ('error' in e ? { ok: false, error: e.error } : { ok: false, error: badInput('not stored') }));
    valid.forEach((v, k) => (outcomes[v.index] = stored[k]!));
    for (const o of outcomes) opts.metrics?.ingestEvents.inc({ transport: 'batch', outcome: outcomeLabel(o) });
    const failed = outcomes.flatMap((o, index) =>
      o.ok ? [] : [{ index, reason: o.error.message, ...(o.error.details.length ? { details: o.error.details } : {}) }],
    );
    const successful = elements.length - failed.length;
    const status = failed.length === 0 ? 'success' : successful === 0 ? 'failure' : 'partial_success';
    const passed = await projected(req, outcomes);
    const errors = await errorsOf(passed, outcomes);
    const projectionFailed = outcomes.flatMap((o, index) => {
      const error = o.ok ? errors.get(o.eventId) : undefined;
      return error !== undefined ? [{ index, reason: error }] : [];
    });
    const inGraph = passed && projectionFailed.length === 0;
    return reply.code(wait && !inGraph ? 202 : 200).send({
      status,
      summary: { received: elements.length, successful, failed: failed.length },
      failed_events: failed,
      projected: inGraph,
      ...(projectionFailed.length > 0 ? { projection_failed: projectionFailed } : {}),
      ...(opts.eventLog.kind === 'kafka' ? { positions: lastPositions(outcomes) } : {}),
    });
  });
}

function requireBody(req: FastifyRequest): IngestItem {
  const item = req.body as IngestItem | undefined;
  if (!item) throw unsupportedMediaType('a JSON body is required');
  return item;
}

/** The last offset of these outcomes' events in each partition of the events topic. */
function lastPositions(outcomes: IngestOutcome[]): { topic: string; partition: number; offset: number }[] {
  const last = new Map<number, { topic: string; partition: number; offset: number }>();
  for (const o of outcomes) {
    if (!o.ok || !o.pending || !isLogPosition(o.pending)) continue;
    const seen = last.get(o.pending.partition);
    if (!seen || seen.offset < o.pending.offset) last.set(o.pending.partition, o.pending);
  }
  return [...last.values()].sort((a, b) => a.partition - b.partition);
}
