/** The longest a rate-limited account is left alone. */
export const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * Per (platform, account): after a rate_limited answer, polls of that account
 * pause for twice the platform's interval, doubling on each further one up to
 * an hour; a successful poll clears it. Pure bookkeeping, times passed in.
 */
export class PollBackoff {
  private readonly paused = new Map<string, { until: number; delayMs: number }>();

  isPaused(key: string, now: number): boolean {
    return (this.paused.get(key)?.until ?? 0) > now;
  }

  rateLimited(key: string, intervalMs: number, now: number): number {
    const delayMs = Math.min(MAX_BACKOFF_MS, Math.max(intervalMs, (this.paused.get(key)?.delayMs ?? intervalMs)) * 2);
    this.paused.set(key, { until: now + delayMs, delayMs });
    return delayMs;
  }

  succeeded(key: string): void {
    this.paused.delete(key);
  }
}
