import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, findUnstorableString } from '@app/contracts';

/**
 * The path parameters of a request (as the router decoded them: `%00` is U+0000)
 * must be text storage can hold, as the body and the query string must
 * (http/request-bounds.ts): an id with NUL reaches a query as a parameter, and
 * PostgreSQL refuses the string, which would be a 500. Refused here with
 * invalid_query, the code of the request target's parameters, naming the parameter.
 */
export function unstorablePathParameter(params: unknown): DomainError | null {
  const found = findUnstorableString(params ?? {});
  if (!found) return null;
  return new DomainError('invalid_query', `path parameter ${found.path} ${found.reason}`, { details: { field: found.path, in: 'path', reason: found.reason } });
}

/**
 * Checks every route's path parameters, once, before validation: a Fastify hook
 * rather than a pipe on each @Param, so a route cannot forget it. (Added at
 * module init, like the request bounds: Fastify binds hooks to routes when it gets ready.)
 */
@Injectable()
export class StorablePathParams implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    this.adapterHost.httpAdapter.getInstance<FastifyInstance>().addHook('preValidation', async (request: FastifyRequest) => {
      const refusal = unstorablePathParameter(request.params);
      if (refusal) throw refusal;
    });
  }
}
