import type { Scope } from './scopes';

/** Where a key stands under one rate limit, as GET /api/v1/me shows it (nothing counted to ask). */
export interface RateLimitStandingView {
  /** Requests allowed in any window of windowSeconds. */
  limit: number;
  windowSeconds: number;
  /** Requests the key may still send now. */
  remaining: number;
  /** Seconds until the key's usage is back to zero if it sends nothing more (RateLimit-Reset). */
  resetSeconds: number;
}

/** GET /api/v1/me: who the calling key is. */
export interface MeView {
  workspace: { id: string; name: string };
  key: { id: string; scopes: Scope[] };
  /** By policy name (general; replies, on POST /api/v1/comments/reply); a limit switched off is absent. */
  rateLimits: Record<string, RateLimitStandingView>;
}
