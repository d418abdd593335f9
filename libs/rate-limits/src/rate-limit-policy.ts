/** A limit on requests per key: at most `limit` in any window of `windowMs` (approximately: see sliding-window.ts). */
export interface RateLimitPolicy {
  /** Stable name, stored with the counters and reported to clients ("general", "replies"). */
  name: string;
  /** Requests allowed per window; a policy with limit 0 is switched off. */
  limit: number;
  windowMs: number;
}

/** What the store holds for one key and policy once a request has been counted. */
export interface WindowCounts {
  /** Which window `current` belongs to: floor(epoch ms / windowMs). */
  windowIndex: number;
  /** Requests counted in that window, this one included. */
  current: number;
  /** Requests counted in the window before it. */
  previous: number;
}

/** The outcome of one policy for one request. */
export interface RateLimitVerdict {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Requests left before the limit, after this one. */
  remaining: number;
  /** Seconds until the key's usage under this policy is back to zero if it sends nothing more. */
  resetSeconds: number;
  /** Refused only: seconds until one more request would be allowed. */
  retryAfterSeconds: number;
}
