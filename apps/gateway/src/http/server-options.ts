import { STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { AppConfig } from '@app/config';
import { DomainError, ErrorBody, ErrorCode } from '@app/contracts';
import { FastifyServerOptions } from '@app/runtime';
import { toErrorResponse } from '../errors/api-exception.filter';
import { MAX_URL_CHARS, WEBHOOK_BODY_LIMIT_BYTES } from './request-bounds';

/** Errors node's HTTP parser raises before a request exists (https://nodejs.org/api/http.html#event-clienterror), as our codes. */
function clientErrorAnswer(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large', message: 'the request line and headers are larger than 16 KiB' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout', message: 'the request did not arrive in time' };
  return { status: 400, code: 'malformed_request', message: 'the request is not valid HTTP/1.1' };
}

/**
 * Node answers a request it cannot parse (headers over its 16 KiB maxHeaderSize, a
 * bad request line, a timeout) through the server's clientError event, before
 * Fastify or Nest see anything: written here in the one error shape, then the
 * connection is closed as node itself would (the stream's framing is lost).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already begun on it (node's own rule): another would corrupt it; the connection is only closed.
  if ((socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy(error);
    return;
  }
  const answer = clientErrorAnswer(error.code);
  const body: ErrorBody = { error: { code: answer.code, message: answer.message } };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify's own refusals before routing (a path that does not decode, a parameter
 * over maxParamLength) in the one error shape: a path that does not decode names
 * no resource (404 not_found), one too long is uri_too_long.
 */
export const answerFrameworkError: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, _request, reply) => {
  const refusal =
    error.code === 'FST_ERR_BAD_URL'
      ? new DomainError('not_found', 'no resource at this path (it does not decode as UTF-8)')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new DomainError('uri_too_long', `a path segment is longer than ${MAX_URL_CHARS} characters`, { details: { limitChars: MAX_URL_CHARS } })
        : error;
  const { status, body } = toErrorResponse(refusal);
  // Written on the raw response, as Fastify's own answer would be: no route, so no hooks to run.
  const text = JSON.stringify(body);
  reply.raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
};

/**
 * The request, headers and connection timeouts (README, Configuration): Fastify's
 * requestTimeout and connectionTimeout, node's headersTimeout. Node checks for requests
 * past their time every connectionsCheckingInterval (30 s by default, which would let a
 * 1 s timeout run 31 s): a quarter of the headers timeout, at most a second. A request
 * past its time reaches answerClientError as ERR_HTTP_REQUEST_TIMEOUT: 408 request_timeout.
 */
export function serverTimeouts(config: Pick<AppConfig, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpConnectionTimeoutMs'>): FastifyServerOptions {
  return {
    requestTimeout: config.httpRequestTimeoutMs,
    connectionTimeout: config.httpConnectionTimeoutMs,
    http: {
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.max(1, Math.min(1_000, Math.floor(config.httpHeadersTimeoutMs / 4))),
    },
  };
}

/**
 * The gateway's Fastify options. Fastify's parser limit is the largest route
 * limit (the request bounds hooks enforce each route's own, with the limit in
 * the answer); a path parameter may be as long as a URL may be, so an
 * over-long id reaches its route and gets that route's not-found answer.
 */
export const GATEWAY_SERVER_OPTIONS: FastifyServerOptions = {
  bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
  routerOptions: { maxParamLength: MAX_URL_CHARS },
  clientErrorHandler: answerClientError,
  frameworkErrors: answerFrameworkError,
};
