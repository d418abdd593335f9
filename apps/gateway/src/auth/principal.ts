import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { KeyPrincipal } from '@app/workspaces';

/** What the guard attaches to an authenticated request. */
export interface AuthenticatedRequest extends FastifyRequest {
  principal: KeyPrincipal;
}

/** The caller's key: workspace and scopes. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): KeyPrincipal => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
});
