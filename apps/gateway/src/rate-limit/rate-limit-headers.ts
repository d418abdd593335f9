import { RateLimitPolicy, RateLimitVerdict } from '@app/rate-limits';

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers-06 (the revision most
 * clients and proxies read): RateLimit-Limit, RateLimit-Remaining,
 * RateLimit-Reset (delta seconds) and RateLimit-Policy ("<limit>;w=<seconds>"),
 * for the policy closest to its limit; Retry-After (RFC 9110) on a refusal.
 */
export function rateLimitHeaders(verdict: RateLimitVerdict): Record<string, string> {
  const windowSeconds = windowSecondsOf(verdict);
  const headers: Record<string, string> = {
    'ratelimit-limit': String(verdict.policy.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(verdict.resetSeconds),
    'ratelimit-policy': `${verdict.policy.limit};w=${windowSeconds};name="${verdict.policy.name}"`,
  };
  if (!verdict.allowed) headers['retry-after'] = String(verdict.retryAfterSeconds);
  return headers;
}

export function windowSecondsOf({ policy }: { policy: RateLimitPolicy }): number {
  return Math.ceil(policy.windowMs / 1000);
}
