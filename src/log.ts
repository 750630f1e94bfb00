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

/**
 * Log lines since start that stderr did not take (a full disk under a redirected log, a closed
 * pipe): `failed` writes (each kept for the next write, which retries them) and `dropped` lines (the
 * kept text past LOG_BACKLOG_BYTES). Never fatal: a service that cannot log still serves, and says
 * so on /metrics (tributary_log_write_failures_total).
 */
export const logLoss = { failed: 0, dropped: 0 };

/** Text of failed log writes kept for a retry, at most; lines past it are dropped (logLoss.dropped). */
export const LOG_BACKLOG_BYTES = 1 << 20;

/**
 * stderr, written synchronously (a line is out before the next statement), with write errors
 * counted instead of thrown: pino's destination emits them as 'error' events, which with no
 * listener take the process down (seen when the disk under a redirected stderr filled up: the
 * spool's own "no space left" line crashed the service).
 */
export function stderrDestination(fd = 2): DestinationStream {
  const d = pino.destination({ dest: fd, sync: true, maxLength: LOG_BACKLOG_BYTES });
  d.on('error', () => void logLoss.failed++);
  d.on('drop', () => void logLoss.dropped++);
  return d;
}

export function createLogger(level: LogLevel, name = 'tributary', destination: DestinationStream = stderrDestination()): Logger {
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
