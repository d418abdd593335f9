import { rateLimitDelayMs } from './retry-policy';

describe('rateLimitDelayMs reads each platform reset header', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const delay = (headers: Record<string, string>) => rateLimitDelayMs(new Headers(headers), now);

  it('reads retry-after as seconds or as an HTTP date', () => {
    expect(delay({ 'retry-after': '7' })).toBe(7_000);
    expect(delay({ 'retry-after': new Date(now + 4_000).toUTCString() })).toBe(4_000);
  });

  it("reads X's x-rate-limit-reset as epoch seconds", () => {
    expect(delay({ 'x-rate-limit-reset': String(now / 1000 + 30) })).toBe(30_000);
  });

  it("reads Bluesky's ratelimit-reset as epoch seconds and the IETF draft's as a delta", () => {
    expect(delay({ 'ratelimit-reset': String(now / 1000 + 12) })).toBe(12_000);
    expect(delay({ 'ratelimit-reset': '5' })).toBe(5_000);
  });

  it("reads Mastodon's x-ratelimit-reset as an ISO time", () => {
    expect(delay({ 'x-ratelimit-reset': new Date(now + 9_000).toISOString() })).toBe(9_000);
  });

  it('never answers a negative wait, and null without a header', () => {
    expect(delay({ 'x-rate-limit-reset': String(now / 1000 - 60) })).toBe(0);
    expect(delay({})).toBeNull();
  });
});
