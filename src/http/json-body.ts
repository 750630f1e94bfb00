import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, badInput, limitExceeded, unsupportedMediaType } from '../errors';
import { decodeUtf8 } from '../ingest/decode';
import type { IngestItem } from '../ingest/ingestor';
import { JsonScanner } from '../ingest/json-scan';
import type { Turns } from '../cpu-turns';

/**
 * Reading a JSON request body without letting one request hold the process: bytes (after gzip
 * decoding) are counted and scanned as they arrive (src/ingest/json-scan.ts), so a body over its
 * limit or nested too deep is refused at the chunk that crosses the line, the rest of a gzip bomb
 * is never inflated, and no parser ever sees deep nesting. A batch is cut into its elements by the
 * scan and each element is decoded and parsed on its own, one task of the turns (src/cpu-turns.ts)
 * each, so other requests and reads are served between them: an element that is not UTF-8, not
 * JSON or nested too deep fails alone.
 */

export interface BodyLimits {
  limit: number;
  maxDepth: number;
  /** Where the parse runs (ingestion: the service's turns, behind reads); at once when absent (GraphQL's own body). */
  turns?: Turns;
}

/** One element of a batch: the event's exact text and value, or why it was refused. */
export type BatchElement = IngestItem | { error: AppError };

/** What the batch route gets: its elements, or (a top level that is no array) the whole value. */
export type BatchBody = { elements: BatchElement[] } | { value: unknown };

/** Reads and scans the whole body; the scan's verdicts reject the promise. */
export function readScanned(req: FastifyRequest, payload: Readable, mode: 'single' | 'batch', limits: BodyLimits): Promise<{ bytes: Buffer; scanner: JsonScanner }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.limit) {
    return Promise.reject(limitExceeded(`request body exceeds the limit of ${limits.limit} bytes (Content-Length ${declared})`));
  }
  const scanner = new JsonScanner(mode, limits.maxDepth);
  const chunks: Buffer[] = [];
  let received = 0;
  return new Promise((resolve, reject) => {
    const stop = (err: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      // A decoding stream (gzip) stops inflating; the request itself is drained by Node once answered.
      if (payload !== req.raw) payload.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limits.limit) return stop(limitExceeded(`request body exceeds the limit of ${limits.limit} bytes${payload !== req.raw ? ' (after gzip decoding)' : ''}`));
      try {
        scanner.push(bytes);
      } catch (err) {
        return stop(err);
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      payload.removeListener('data', onData);
      payload.removeListener('error', onError);
      try {
        scanner.end();
      } catch (err) {
        return reject(err);
      }
      resolve({ bytes: Buffer.concat(chunks, received), scanner });
    };
    const onError = (err: Error & { code?: string }) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      reject(err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR' ? unsupportedMediaType('the body is not valid gzip') : badInput(`the request body could not be read (${err.message})`));
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

/** The body as one document: its exact text and value. */
export async function readDocument(req: FastifyRequest, payload: Readable, limits: BodyLimits): Promise<IngestItem> {
  const { bytes } = await readScanned(req, payload, 'single', limits);
  return limits.turns ? limits.turns.run(() => parseText(bytes, 'the request body')) : parseText(bytes, 'the request body');
}

/** A batch body cut into elements (at most `maxEvents`), each parsed on its own. */
export async function readBatch(req: FastifyRequest, payload: Readable, limits: BodyLimits & { maxEvents: number; turns: Turns }): Promise<BatchBody> {
  const { bytes, scanner } = await readScanned(req, payload, 'batch', limits);
  if (!scanner.foundBatch) return { value: parseText(bytes, 'the request body').value };
  if (scanner.elements.length > limits.maxEvents) {
    throw limitExceeded(`a batch holds at most ${limits.maxEvents} events (got ${scanner.elements.length})`);
  }
  const elements = await limits.turns.each(scanner.elements, (el): BatchElement => {
    if (el.error) return { error: badInput(`invalid OpenLineage event: ${el.error.message}`, [el.error]) };
    try {
      return parseText(bytes.subarray(el.start, el.end), 'the event', true);
    } catch (err) {
      return { error: err as AppError };
    }
  });
  return { elements };
}

/** Strict UTF-8 and JSON; `element` errors carry a reason, as batch failures do. */
function parseText(bytes: Uint8Array, what: string, element = false): IngestItem {
  const text = decodeUtf8(bytes);
  if (text === null) {
    const message = `${what} is not valid UTF-8 (invalid bytes would be stored as U+FFFD)`;
    throw element ? badInput(message, [{ path: '', message, reason: 'NOT_UTF8' }]) : badInput(message);
  }
  const raw = element ? text.trim() : text;
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch (err) {
    const message = `${what} is not valid JSON (${(err as Error).message.slice(0, 120)})`;
    throw element ? badInput(message, [{ path: '', message, reason: 'NOT_JSON' }]) : unsupportedMediaType(message);
  }
}
