import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, RateLimitBackoff } from './rate-limit-backoff';

describe('RateLimitBackoff', () => {
  const a = RateLimitBackoff.key('x', 'account-a');
  const b = RateLimitBackoff.key('x', 'account-b');

  it('waits what the platform named, for that account only', () => {
    const backoff = new RateLimitBackoff();
    expect(backoff.rateLimited(a, 0, 90_000)).toBe(90_000);
    expect(backoff.isPaused(a, 89_999)).toBe(true);
    expect(backoff.isPaused(a, 90_000)).toBe(false);
    expect(backoff.isPaused(b, 1)).toBe(false);
  });

  it('doubles from a minute when no wait was named, up to an hour, and clears on success', () => {
    const backoff = new RateLimitBackoff();
    expect(backoff.rateLimited(a, 0)).toBe(FIRST_BACKOFF_MS);
    expect(backoff.rateLimited(a, 0)).toBe(2 * FIRST_BACKOFF_MS);
    for (let i = 0; i < 10; i++) backoff.rateLimited(a, 0);
    expect(backoff.rateLimited(a, 0)).toBe(MAX_BACKOFF_MS);
    backoff.succeeded(a);
    expect(backoff.isPaused(a, 1)).toBe(false);
    expect(backoff.rateLimited(a, 0)).toBe(FIRST_BACKOFF_MS);
  });
});
