/**
 * The closed set of error codes Tributary reports to clients, over HTTP and GraphQL alike.
 * Anything that is not an AppError is an internal error: logged in full, shown to the client
 * only as INTERNAL with no detail.
 */
export enum ErrorCode {
  /** The request is malformed or names something in a malformed way. */
  BAD_INPUT = 'BAD_INPUT',
  /** A node id is well formed but nothing has that id. */
  NOT_FOUND = 'NOT_FOUND',
  /** Depth, size or cost limit exceeded; the message names the limit. */
  LIMIT_EXCEEDED = 'LIMIT_EXCEEDED',
  /** Missing or wrong credentials. */
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  /** A valid token without the scope the route needs. */
  FORBIDDEN = 'FORBIDDEN',
  /** A dependency (Neo4j) is down or not ready; retrying later may succeed. */
  UNAVAILABLE = 'UNAVAILABLE',
  /** Anything unexpected. Never carries details to the client. */
  INTERNAL = 'INTERNAL',
}

export interface ErrorDetail {
  /** JSON path of the offending value, e.g. `run.runId` or `inputs[0].facets.schema.fields[2].name`. */
  path: string;
  message: string;
  /** For rejected events: the tolerance-policy reason (README), e.g. INVALID_RUN_ID. */
  reason?: string;
}

/**
 * HTTP status of each code: the first is the default, the others the only alternatives an AppError
 * may choose (`status`), each for the case named here.
 *   BAD_INPUT 415: the body is not JSON, not of a JSON content type, or in an unknown encoding;
 *   408: a request not received in time (answered by the HTTP layer, src/http/client-errors.ts).
 *   LIMIT_EXCEEDED 400: a GraphQL operation refused before it runs (depth, cost); 413 is for
 *   request bodies (event, batch) over their byte or event limits; 429 for a client over
 *   TRIBUTARY_RATE_LIMIT or over TRIBUTARY_AUTH_FAILURES_PER_MINUTE; 431 for request headers over
 *   Node's limit.
 */
export const httpStatuses: Record<ErrorCode, readonly number[]> = {
  [ErrorCode.BAD_INPUT]: [400, 415, 408],
  [ErrorCode.NOT_FOUND]: [404],
  [ErrorCode.LIMIT_EXCEEDED]: [413, 400, 429, 431],
  [ErrorCode.UNAUTHENTICATED]: [401],
  [ErrorCode.FORBIDDEN]: [403],
  [ErrorCode.UNAVAILABLE]: [503],
  [ErrorCode.INTERNAL]: [500],
};

/** The one error type: a code from the closed set, a message for the client, details, an HTTP status. */
export class AppError extends Error {
  /** The HTTP status this error is answered with (one of httpStatuses[code]). */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    status?: number,
    /** Seconds after which a retry may succeed, sent as Retry-After (429s); absent when unknown. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'AppError';
    const allowed = httpStatuses[code];
    if (status !== undefined && !allowed.includes(status)) throw new Error(`HTTP ${status} is not a status of ${code}`);
    this.status = status ?? allowed[0]!;
  }
}

export const badInput = (message: string, details: ErrorDetail[] = []) =>
  new AppError(ErrorCode.BAD_INPUT, message, details);
/** A request body that is not JSON, or not in an accepted content type or encoding (HTTP 415). */
export const unsupportedMediaType = (message: string) => new AppError(ErrorCode.BAD_INPUT, message, [], 415);
export const notFound = (message: string) => new AppError(ErrorCode.NOT_FOUND, message);
/**
 * Over a limit: a request body (HTTP 413), a GraphQL operation refused before it runs (`status`
 * 400), or a client over a rate (429, with the seconds until it may retry).
 */
export const limitExceeded = (message: string, status?: 400 | 413 | 429, retryAfterS?: number) =>
  new AppError(ErrorCode.LIMIT_EXCEEDED, message, [], status, retryAfterS);
export const unavailable = (message: string) => new AppError(ErrorCode.UNAVAILABLE, message);
export const unauthenticated = (message: string) => new AppError(ErrorCode.UNAUTHENTICATED, message);
export const forbidden = (message: string) => new AppError(ErrorCode.FORBIDDEN, message);
