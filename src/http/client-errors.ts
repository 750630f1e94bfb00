import type { Socket } from 'node:net';
import { ErrorCode } from '../errors';

/**
 * What Node's HTTP parser refuses before any route sees it (a body longer than its Content-Length
 * read as a broken next request, bad framing, headers too large, a request too slow): answered,
 * like every other error, as JSON with a code from src/errors.ts, then the connection is closed
 * (its framing can no longer be trusted).
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', ErrorCode.LIMIT_EXCEEDED, 'the request headers are larger than the server accepts']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', ErrorCode.BAD_INPUT, 'the request was not received in time']
        : [400, 'Bad Request', ErrorCode.BAD_INPUT, `the request is not valid HTTP (${err.code ?? 'malformed'}): check its framing and Content-Length`];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}
