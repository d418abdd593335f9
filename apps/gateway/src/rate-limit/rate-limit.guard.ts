import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyReply } from 'fastify';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/contracts';
import { IS_PUBLIC } from '@app/observability';
import { RateLimiter } from '@app/rate-limits';
import { AuthenticatedRequest } from '../auth/principal';
import { rateLimitHeaders, windowSecondsOf } from './rate-limit-headers';
import { NOT_COUNTED } from './not-counted.decorator';
import { GATEWAY_RATE_LIMITS, GatewayRateLimits, policiesFor } from './rate-limit-policies';

/**
 * Counts every authenticated request against its key's limits before the
 * handler runs (so a request the handler then refuses still counts), sets the
 * RateLimit-* headers and refuses with 429 rate_limited. Registered right after
 * ApiKeyGuard, which it relies on for request.principal; public routes pass, and
 * so do @NotCounted ones (GET /api/v1/me), uncounted and without the headers.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
    @Inject(GATEWAY_RATE_LIMITS) private readonly limits: GatewayRateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) || this.reflector.getAllAndOverride<boolean>(NOT_COUNTED, targets)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (!request.principal) throw new Error('RateLimitGuard ran before ApiKeyGuard: register it after');
    const policies = policiesFor(this.limits, request.method, request.routeOptions.url);
    const verdict = await this.limiter.check(request.principal.keyId, policies, this.config.now());
    if (!verdict) return true;
    void http.getResponse<FastifyReply>().headers(rateLimitHeaders(verdict));
    if (verdict.allowed) return true;
    const windowSeconds = windowSecondsOf(verdict);
    throw new DomainError('rate_limited', `this key may send ${verdict.policy.limit} ${verdict.policy.name === 'general' ? 'requests' : verdict.policy.name} per ${windowSeconds} seconds; retry in ${verdict.retryAfterSeconds} s`, {
      details: { limit: verdict.policy.limit, windowSeconds, policy: verdict.policy.name, retryAfterSeconds: verdict.retryAfterSeconds },
    });
  }
}
