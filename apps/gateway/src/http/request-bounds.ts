import { Readable } from 'node:stream';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, findUnstorableString } from '@app/contracts';
import { readJsonBodies } from './json-body';

/**
 * The largest body of an API route. A command carries the body to its service
 * over NATS, whose messages stop at 1 MiB (max_payload): the body must leave
 * room for the rest of the command. The largest valid post (10,000 characters
 * of content, ten media urls with alt text, five first comments), even with
 * every character JSON-escaped, stays well under it.
 */
export const API_BODY_LIMIT_BYTES = 512 * 1024;
/** Meta batches many changes in one delivery and the webhook sends one command per comment, so it keeps 1 MiB. */
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;
/** Deeper than any body of this API (three levels at most) by far, shallow enough for every recursive walk after it. */
export const MAX_JSON_DEPTH = 64;
/**
 * The longest request target (path and query string). The longest legitimate
 * one is a sign-in callback (state, code and error_description, under 11,000
 * characters); Node refuses a request head over 16 KiB before this is asked.
 */
export const MAX_URL_CHARS = 12 * 1024;

/**
 * A bulk import (POST /api/v1/posts/bulk) carries up to 1,000 posts: its JSON body and its CSV
 * upload get more room than one post's, still within what the posts service takes in the one
 * command an atomic import is (NATS max_payload, 1 MiB).
 */
export const BULK_IMPORT_BODY_LIMIT_BYTES = 900 * 1024;

/** Routes whose handler needs the exact bytes of the body (signature checks), by route pattern. */
const RAW_BODY_ROUTES = new Set(['/webhooks/meta']);
const BULK_IMPORT_ROUTE = '/api/v1/posts/bulk';

function bodyLimitOf(request: FastifyRequest): number {
  const route = request.routeOptions.url ?? '';
  if (RAW_BODY_ROUTES.has(route)) return WEBHOOK_BODY_LIMIT_BYTES;
  return route === BULK_IMPORT_ROUTE ? BULK_IMPORT_BODY_LIMIT_BYTES : API_BODY_LIMIT_BYTES;
}

/** A multipart upload (the bulk import's CSV) is read by its handler as it streams in: counted here, never held whole. */
const isMultipart = (request: FastifyRequest): boolean => (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');

/** The body's bytes passed on as they arrive, refused (413) past `limit`. */
async function* counted(payload: AsyncIterable<Buffer>, limit: number, reply: FastifyReply): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of payload) {
    size += chunk.length;
    if (size > limit) throw refuseUnreadBody(reply, tooLarge(limit));
    yield chunk;
  }
}

const tooLarge = (limitBytes: number) => new DomainError('payload_too_large', `the body is larger than ${limitBytes} bytes`, { details: { limitBytes } });

/**
 * A refusal while the body is still arriving: the rest of it is never read, so
 * the connection cannot carry another request; it is closed after the answer
 * (RFC 9112 §9.6) rather than left for the client to reuse and hang on.
 */
function refuseUnreadBody(reply: FastifyReply, refusal: DomainError): DomainError {
  void reply.header('connection', 'close');
  return refusal;
}

const hasBody = (request: FastifyRequest): boolean => request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * Bounds every request before anything parses it, once for every route:
 * - onRequest: the target's length (414 uri_too_long) and the declared body length (413 payload_too_large);
 * - an application/json body, as it arrives (readJsonBodies): its bytes counted (413) and its nesting measured
 *   (400 invalid_body past MAX_JSON_DEPTH) without recursion, then kept as request.rawBody; a multipart upload's
 *   bytes counted (413) in preParsing as its handler streams them. Any other body is 415 before it is read;
 * - preValidation: every string of the parsed body (keys included) and of the query string must be
 *   text storage can hold (no NUL, no lone surrogate): 400 invalid_body / invalid_query naming the field.
 *   The Meta webhook is left to its parser, which skips the one bad entry instead of refusing a delivery.
 * Errors raised here reach the exception filter like any other, in the one error shape.
 * The hooks take Fastify's callback form: an async hook costs a promise (and its async hooks) per request.
 * (Fastify binds hooks to routes when it gets ready, so adding them at module
 * init covers the routes Nest registered just before.)
 */
@Injectable()
export class RequestBounds implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    installRequestBounds(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }
}

function installRequestBounds(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.url.length > MAX_URL_CHARS) {
      const refusal = new DomainError('uri_too_long', `the request target is longer than ${MAX_URL_CHARS} characters`, { details: { limitChars: MAX_URL_CHARS } });
      return done(hasBody(request) ? refuseUnreadBody(reply, refusal) : refusal);
    }
    const limit = bodyLimitOf(request);
    done(Number(request.headers['content-length'] ?? 0) > limit ? refuseUnreadBody(reply, tooLarge(limit)) : undefined);
  });

  readJsonBodies(fastify, { limitBytesOf: bodyLimitOf, maxDepth: MAX_JSON_DEPTH, tooLarge });

  fastify.addHook('preParsing', (request, reply, payload, done) => {
    if (!isMultipart(request) || !hasBody(request)) return done(null, payload);
    done(null, Readable.from(counted(payload as AsyncIterable<Buffer>, bodyLimitOf(request), reply), { objectMode: false }));
  });

  fastify.addHook('preValidation', (request, _reply, done) => {
    const query = findUnstorableString(request.query);
    if (query) return done(new DomainError('invalid_query', `query parameter ${query.path} ${query.reason}`, { details: { field: query.path, reason: query.reason } }));
    if (RAW_BODY_ROUTES.has(request.routeOptions.url ?? '')) return done();
    const body = findUnstorableString(request.body);
    done(body ? new DomainError('invalid_body', `${body.path} ${body.reason}`, { details: { field: body.path, reason: body.reason } }) : undefined);
  });
}
