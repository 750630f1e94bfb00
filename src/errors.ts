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

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badInput = (message: string, details: ErrorDetail[] = []) =>
  new AppError(ErrorCode.BAD_INPUT, message, details);
export const notFound = (message: string) => new AppError(ErrorCode.NOT_FOUND, message);
export const limitExceeded = (message: string) => new AppError(ErrorCode.LIMIT_EXCEEDED, message);
export const unavailable = (message: string) => new AppError(ErrorCode.UNAVAILABLE, message);

/** HTTP status for each code. */
export const httpStatus: Record<ErrorCode, number> = {
  [ErrorCode.BAD_INPUT]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.LIMIT_EXCEEDED]: 413,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
};
