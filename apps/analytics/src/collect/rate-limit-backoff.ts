/** The longest an account is left alone after rate limits. */
export const MAX_BACKOFF_MS = 60 * 60_000;
/** The first pause when the platform named no wait. */
export const FIRST_BACKOFF_MS = 60_000;

/**
 * Per (platform, account): after a rate-limited answer, that account's collections
 * pause — for the wait the platform named (Retry-After, x-rate-limit-reset) when it
 * named one, else for a minute doubling on each further refusal up to an hour; a
 * successful call clears it. Other accounts are not affected. Pure bookkeeping, times passed in.
 */
export class RateLimitBackoff {
  private readonly paused = new Map<string, { until: number; delayMs: number }>();

  static key(platform: string, accountId: string): string {
    return `${platform}:${accountId}`;
  }

  isPaused(key: string, now: number): boolean {
    return (this.paused.get(key)?.until ?? 0) > now;
  }

  /** Until when the account waits; returns the pause in ms. */
  rateLimited(key: string, now: number, retryAfterMs?: number): number {
    const previous = this.paused.get(key)?.delayMs;
    const delayMs = Math.min(MAX_BACKOFF_MS, retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : previous ? previous * 2 : FIRST_BACKOFF_MS);
    this.paused.set(key, { until: now + delayMs, delayMs });
    return delayMs;
  }

  succeeded(key: string): void {
    this.paused.delete(key);
  }
}
