import { FIRST_RETRY_MS, MAX_RETRY_AFTER_MS, retryAfterMs, throttledUntil } from './retry-schedule';

/**
 * Standard Webhooks (github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md,
 * "Delivery success and failure"): throttle on 429, take a Retry-After (e.g. on 503) into
 * account when scheduling the next attempt. Retry-After is delay seconds or an HTTP date
 * (RFC 9110 §10.2.3).
 */
const failedAt = new Date('2026-11-23T12:00:00Z');
const later = (ms: number) => new Date(failedAt.getTime() + ms);

describe('retryAfterMs', () => {
  it('reads delay seconds and HTTP dates, from the time of the answer', () => {
    expect(retryAfterMs('120', failedAt)).toBe(120_000);
    expect(retryAfterMs(' 0 ', failedAt)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:05:00 GMT', failedAt)).toBe(300_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', failedAt)).toBe(0);
  });

  it('is null for anything else', () => {
    expect(retryAfterMs('soon', failedAt)).toBeNull();
    expect(retryAfterMs('-5', failedAt)).toBeNull();
    expect(retryAfterMs('', failedAt)).toBeNull();
  });
});

describe('throttledUntil', () => {
  it('429 and 503 with Retry-After: at least the time asked', () => {
    expect(throttledUntil({ responseStatus: 429, retryAfter: '120' }, failedAt)).toEqual(later(120_000));
    expect(throttledUntil({ responseStatus: 503, retryAfter: 'Mon, 23 Nov 2026 12:10:00 GMT' }, failedAt)).toEqual(later(600_000));
  });

  it('never sooner than the first retry step, never later than the cap', () => {
    expect(throttledUntil({ responseStatus: 429, retryAfter: '0' }, failedAt)).toEqual(later(FIRST_RETRY_MS));
    expect(throttledUntil({ responseStatus: 503, retryAfter: String(24 * 3600) }, failedAt)).toEqual(later(MAX_RETRY_AFTER_MS));
  });

  it('null (the normal backoff) for 502 and 504, other failures, no header or an unreadable one', () => {
    expect(throttledUntil({ responseStatus: 502, retryAfter: '120' }, failedAt)).toBeNull();
    expect(throttledUntil({ responseStatus: 504, retryAfter: '120' }, failedAt)).toBeNull();
    expect(throttledUntil({ responseStatus: 500, retryAfter: '120' }, failedAt)).toBeNull();
    expect(throttledUntil({ responseStatus: null, retryAfter: null }, failedAt)).toBeNull();
    expect(throttledUntil({ responseStatus: 429, retryAfter: null }, failedAt)).toBeNull();
    expect(throttledUntil({ responseStatus: 503, retryAfter: 'later' }, failedAt)).toBeNull();
  });
});
