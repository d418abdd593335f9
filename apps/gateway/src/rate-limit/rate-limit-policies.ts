import { AppConfig } from '@app/config';
import { RateLimitPolicy } from '@app/rate-limits';

const MINUTE_MS = 60_000;

/** The reply route (spec, Limits: 20 replies per minute per token), matched by method and route path. */
export const REPLY_ROUTE = { method: 'POST', path: '/api/v1/comments/reply' } as const;

/** Injection token of the GatewayRateLimits built from the configuration. */
export const GATEWAY_RATE_LIMITS = Symbol('GATEWAY_RATE_LIMITS');

/** The policies every authenticated request counts against, and those of one route on top. */
export interface GatewayRateLimits {
  general: RateLimitPolicy;
  replies: RateLimitPolicy;
}

export function gatewayRateLimits(config: AppConfig): GatewayRateLimits {
  return {
    general: { name: 'general', limit: config.rateLimitGeneralPerMinute, windowMs: MINUTE_MS },
    replies: { name: 'replies', limit: config.rateLimitRepliesPerMinute, windowMs: MINUTE_MS },
  };
}

/**
 * The policies a request counts against. `routePath` is the matched route's
 * pattern (not the raw URL), so query strings and ids do not change the match.
 */
export function policiesFor(limits: GatewayRateLimits, method: string, routePath: string | undefined): RateLimitPolicy[] {
  const isReply = method.toUpperCase() === REPLY_ROUTE.method && routePath === REPLY_ROUTE.path;
  return isReply ? [limits.general, limits.replies] : [limits.general];
}
