import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type DestinationStream, type Logger as Pino } from 'pino';

/**
 * Structured logs: pino, the logger Fastify ships, one JSON object per line on stderr (stdout stays
 * free for command output: summaries, emitted schema). Each line: `level` (a name), `time` (ISO),
 * `name`, `msg`, the caller's fields, and `reqId` when written while serving an HTTP request, so a
 * request's access line, its errors and its Cypher queries' lines (executor, debug level) share one
 * id. Levels below the configured one are dropped. Errors in an `error` field are written with their
 * type, message and stack.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The pino logger underneath, given to Fastify (absent for loggers that tests make). */
  readonly pino?: Pino;
}

/** What the request being served is, for the code that runs on its behalf (log lines, transaction metadata). */
export interface RequestScope {
  reqId: string;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

/** The request id of the request being served, if any. */
export const currentRequestId = (): string | undefined => requestScope.getStore()?.reqId;

/** A client's X-Request-Id is kept when it is 1 to 128 of [A-Za-z0-9._:-]; otherwise a new UUID stands in. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : randomUUID();
}

export function createLogger(level: LogLevel, name = 'tributary', destination: DestinationStream = pino.destination({ dest: 2, sync: true })): Logger {
  const p = pino(
    {
      level,
      base: { name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
      // Fastify's own request loggers already bind reqId: not twice.
      mixin: (_fields, _level, logger) => {
        const reqId = currentRequestId();
        return reqId === undefined || 'reqId' in logger.bindings() ? {} : { reqId };
      },
    },
    destination,
  );
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
    pino: p,
  };
}
