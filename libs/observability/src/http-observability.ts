import { AsyncResource } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { httpRequestDuration } from './metrics';
import { acceptRequestId, REQUEST_ID_HEADER, runInRequestContext } from './request-context';
import { traceContextOf } from './trace-propagation';

/** The access log's context: one line per request, at log level (JsonLogger's alsoLogFrom can keep it alone). */
export const ACCESS_LOG_CONTEXT = 'HTTP';

/** Probes and scrapes: counted, but logged only at verbose level so they do not drown the access log. */
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

/** The async scope each request runs in, kept by its raw request (hooks run in scopes Fastify does not carry over). */
const scopes = new WeakMap<object, AsyncResource>();

/** What the access log reads of a finished request (structural: Nest bundles its own copy of fastify's types). */
interface FinishedRequest {
  method: string;
  routeOptions: { url?: string };
}
interface FinishedReply {
  statusCode: number;
  elapsedTime: number;
}

/**
 * Observes every request of a Fastify instance: settles its request id (the
 * client's x-request-id if acceptable, else a new one; echoed on the response
 * and visible to handlers as the header), runs the rest of the request in its
 * context (request id and extracted trace context), times it into the
 * histogram and writes one access-log line.
 */
export function observeHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const logger = new Logger(ACCESS_LOG_CONTEXT);

  fastify.addHook('onRequest', (request, reply, done) => {
    const requestId = acceptRequestId(request.headers[REQUEST_ID_HEADER]);
    request.headers[REQUEST_ID_HEADER] = requestId;
    reply.header(REQUEST_ID_HEADER, requestId);
    runInRequestContext({ requestId, trace: traceContextOf(request.headers) }, () => {
      scopes.set(request.raw, new AsyncResource('http-request'));
      done();
    });
  });

  // The body is parsed in the socket's own scope: re-enter the request's before validation and the handler.
  fastify.addHook('preValidation', (request, _reply, done) => {
    const scope = scopes.get(request.raw);
    if (scope) scope.runInAsyncScope(done);
    else done();
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const seconds = reply.elapsedTime / 1000;
    httpRequestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, seconds);
    const line = accessLogLine(request, reply, route);
    const write = () => (QUIET_ROUTES.has(route) ? logger.verbose(line) : logger.log(line));
    const scope = scopes.get(request.raw);
    if (scope) scope.runInAsyncScope(write);
    else write();
    scopes.delete(request.raw);
    done();
  });
}

/** The route pattern (/api/v1/posts/:id), never the raw URL: ids in labels would make a series per post. */
function routeOf(request: FinishedRequest): string {
  return request.routeOptions.url ?? '(unmatched)';
}

function accessLogLine(request: FinishedRequest, reply: FinishedReply, route: string) {
  const durationMs = Math.round(reply.elapsedTime * 10) / 10;
  return { msg: `${request.method} ${route} ${reply.statusCode} ${durationMs}ms`, method: request.method, route, status: reply.statusCode, durationMs };
}
