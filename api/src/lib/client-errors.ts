// Errors Node's HTTP parser raises before Fastify sees a request (an oversized request line
// or headers, malformed HTTP, a client too slow to send its request). Fastify's default
// answer is JSON without our `code`; this one is an ApiErrorBody like every other 4xx.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ErrorCode, type ApiErrorBody } from '@rescuelog/sync-protocol/errors';

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  const body: ApiErrorBody = {
    error: STATUS_CODES[status] ?? 'Bad Request',
    code: ErrorCode.MALFORMED_REQUEST,
  };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${String(Buffer.byteLength(text))}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
