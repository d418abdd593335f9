import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { DomainError } from '@app/contracts';
import { IS_PUBLIC } from '@app/observability';
import { ACCEPTS_UPLOAD } from './accepts-upload';
import { closestName } from './closest-name';
import { unknownNamesRefusal } from './unknown-names';

/**
 * What an operation takes, as its handler's parameters declare it: a body if it
 * has a @Body parameter; its query parameters are a DTO's (a @Query() parameter,
 * whose pipe, queryValidation, judges the names) or the names of its
 * @Query('name') parameters (none for most). Read from the metadata Nest routes
 * arguments by, as @nestjs/swagger reads it, so no operation can forget to say.
 */
interface OperationShape {
  takesBody: boolean;
  /** Also a multipart/form-data upload (AcceptsUpload), which its handler reads and checks itself. */
  takesUpload: boolean;
  query: { dto: true } | { names: string[] };
}

function shapeOf(controller: object, method: string): OperationShape {
  // Keys are `${paramtype}:${index}` (a custom decorator's paramtype is its own id), values { index, data, pipes }.
  const args: Record<string, { data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  const of = (type: RouteParamtypes) => Object.entries(args).filter(([key]) => key.split(':')[0] === String(type)).map(([, arg]) => arg);
  const queries = of(RouteParamtypes.QUERY);
  const takesUpload = Reflect.getMetadata(ACCEPTS_UPLOAD, (controller as { prototype: Record<string, object> }).prototype[method]) === true;
  return {
    takesBody: takesUpload || of(RouteParamtypes.BODY).length > 0,
    takesUpload,
    query: queries.some((arg) => typeof arg.data !== 'string') ? { dto: true } : { names: queries.map((arg) => arg.data as string) },
  };
}

/** application/json, whatever its parameters (charset); the media type is case-insensitive (RFC 9110 §8.3.1). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

function isMultipart(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'multipart/form-data';
}

/**
 * The request's shape, for every operation behind the API key, before its pipes
 * (in this order, the README's):
 * - an operation that takes a body takes it as application/json only: a missing
 *   Content-Type (or no body at all) is 415 unsupported_media_type like any other
 *   type (Fastify already refuses the types it has no parser for); an operation
 *   marked AcceptsUpload takes multipart/form-data as well (the bulk import's CSV);
 * - a query parameter the operation does not name is unknown_query_parameter
 *   (one with a query DTO leaves that to the DTO's pipe, queryValidation);
 * - an operation that takes no body refuses one with fields (unknown_field): a
 *   client that sends {"accounts": [...]} to publish believes it means something;
 *   an empty {} is what many clients send by habit, and passes.
 * Fields of a body the operation takes are its DTO's pipe's (bodyValidation).
 * Public operations are called by platforms (sign-in redirects, Meta's webhook),
 * which send what they send: they are left to their own checks.
 *
 * A guard, the last of the global ones (after the key and the rate limit), not an
 * interceptor: it only refuses, and the gateway's only interceptor cost every
 * request Nest's interceptor chain (rxjs and two async-resource bindings), about
 * a twentieth of its CPU per draft.
 */
@Injectable()
export class RequestShapeGuard implements CanActivate {
  private readonly shapes = new WeakMap<object, OperationShape>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    if (context.getType() !== 'http' || this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const shape = this.shape(context);
    const contentType = request.headers['content-type'];
    if (isMultipart(contentType)) {
      // The multipart parser is registered for the one upload operation: anywhere else an upload is refused, as before it was.
      if (shape.takesUpload) return true;
      throw new DomainError('unsupported_media_type', shape.takesBody ? 'this operation takes a JSON body: send it with Content-Type: application/json' : 'this operation takes no body');
    }
    if (shape.takesBody && !isJson(contentType)) {
      throw new DomainError('unsupported_media_type', `this operation takes a JSON body${shape.takesUpload ? ' or a multipart/form-data upload' : ''}: send it with Content-Type: application/json`);
    }
    if ('names' in shape.query) refuseQueryBeyond(request.query, shape.query.names);
    if (!shape.takesBody) refuseBody(request.body);
    return true;
  }

  private shape(context: ExecutionContext): OperationShape {
    const handler = context.getHandler();
    let shape = this.shapes.get(handler);
    if (!shape) {
      shape = shapeOf(context.getClass(), handler.name);
      this.shapes.set(handler, shape);
    }
    return shape;
  }
}

function refuseQueryBeyond(query: unknown, names: string[]): void {
  const unknown = Object.keys((query ?? {}) as object).filter((name) => !names.includes(name));
  if (unknown.length) throw unknownNamesRefusal('unknown_query_parameter', unknown.map((field) => ({ field, suggestion: closestName(field, names), allowed: names })));
}

function refuseBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new DomainError('invalid_body', 'this operation takes no body');
  const fields = Object.keys(body);
  if (fields.length) throw unknownNamesRefusal('unknown_field', fields.map((field) => ({ field, suggestion: null, allowed: [] })));
}
