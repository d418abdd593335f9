import { Body, CallHandler, ExecutionContext, Injectable, NestInterceptor, Query } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { DomainError } from '@app/contracts';
import { IS_PUBLIC } from '@app/observability';
import { UnknownName, unknownNamesRefusal } from './unknown-names';
import { bodyValidation, queryValidation } from './validation-pipes';

const TAKES_JSON_BODY = 'takesJsonBody';
const TAKES_QUERY = 'takesQuery';

/** Marks the method a parameter decorator is applied to (the handler Reflector reads in the interceptor). */
function markHandler(key: string): ParameterDecorator {
  return (target, method) => {
    if (method === undefined) throw new Error(`${key} marks a handler's parameter, not a constructor's`);
    Reflect.defineMetadata(key, true, (target as Record<string | symbol, object>)[method]);
  };
}

function both(...decorators: ParameterDecorator[]): ParameterDecorator {
  return (target, method, index) => decorators.forEach((decorate) => decorate(target, method, index));
}

/**
 * The operation's JSON body, checked by its DTO (bodyValidation: unknown fields refused).
 * Marks the operation as one that takes a body: it must come as application/json.
 */
export const JsonBody = (): ParameterDecorator => both(Body(bodyValidation), markHandler(TAKES_JSON_BODY));

/**
 * The operation's query string, checked by its DTO (queryValidation: unknown
 * parameters refused). An operation without it takes no query parameter at all.
 */
export const QueryParameters = (): ParameterDecorator => both(Query(queryValidation), markHandler(TAKES_QUERY));

/** application/json, whatever its parameters (charset); the media type is case-insensitive (RFC 9110 §8.3.1). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

const noneTaken = (names: string[]): UnknownName[] => names.map((field) => ({ field, suggestion: null, allowed: [] }));

/**
 * The request's shape, for every operation behind the API key, before its pipes
 * (in this order, the README's):
 * - an operation that takes a body (@JsonBody) takes it as application/json only:
 *   a missing Content-Type (or no body at all) is 415 unsupported_media_type like
 *   any other type (Fastify already refuses the types it has no parser for);
 * - an operation without @QueryParameters refuses every query parameter
 *   (unknown_query_parameter); those with it leave theirs to queryValidation;
 * - an operation that takes no body refuses one with fields (unknown_field): a
 *   client that sends {"accounts": [...]} to publish believes it means something;
 *   an empty {} is what many clients send by habit, and passes.
 * Public operations are called by platforms (sign-in redirects, Meta's webhook),
 * which send what they send: they are left to their own checks.
 */
@Injectable()
export class RequestShapeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    if (context.getType() !== 'http' || this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()])) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const takesBody = this.reflector.get<boolean>(TAKES_JSON_BODY, handler) === true;
    if (takesBody && !isJson(request.headers['content-type'])) throw new DomainError('unsupported_media_type', 'this operation takes a JSON body: send it with Content-Type: application/json');
    if (this.reflector.get<boolean>(TAKES_QUERY, handler) !== true) refuseQuery(request.query);
    if (!takesBody) refuseBody(request.body);
    return next.handle();
  }
}

function refuseBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new DomainError('invalid_body', 'this operation takes no body');
  const names = noneTaken(Object.keys(body));
  if (names.length) throw unknownNamesRefusal('unknown_field', names);
}

function refuseQuery(query: unknown): void {
  const names = noneTaken(Object.keys((query ?? {}) as object));
  if (names.length) throw unknownNamesRefusal('unknown_query_parameter', names);
}
