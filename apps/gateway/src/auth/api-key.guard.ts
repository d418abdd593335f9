import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, Scope } from '@app/contracts';
import { IS_PUBLIC } from '@app/observability';
import { AuthenticatedRequest } from './principal';
import { KeyAuthenticator } from './key-authenticator';
import { BODY_SCOPES, BodyScopes, REQUIRED_SCOPES } from './scopes.decorator';

/** Authorization: Bearer <key> on every route that is not @Public, then the route's scopes. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new DomainError('unauthenticated', 'send the header Authorization: Bearer <API key>');
    const principal = await this.keys.authenticate(match[1]);
    if (!principal) throw new DomainError('unauthenticated', 'the API key is not valid or has been revoked');
    request.principal = principal;
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const bodyScopes = this.reflector.getAllAndOverride<BodyScopes | undefined>(BODY_SCOPES, targets)?.(request.body) ?? [];
    assertScopes(principal.scopes, [...new Set([...required, ...bodyScopes])]);
    return true;
  }
}

function assertScopes(granted: Scope[], required: Scope[]): void {
  const missing = required.filter((scope) => !granted.includes(scope));
  if (missing.length) throw new DomainError('insufficient_scope', `this operation needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, { details: { missing } });
}
