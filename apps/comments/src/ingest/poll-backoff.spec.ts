import { MAX_BACKOFF_MS, PollBackoff } from './poll-backoff';

describe('PollBackoff', () => {
  it('pauses a rate-limited account for twice the interval, doubling each time, up to an hour', () => {
    const backoff = new PollBackoff();
    expect(backoff.rateLimited('x:a', 60_000, 0)).toBe(120_000);
    expect(backoff.isPaused('x:a', 119_999)).toBe(true);
    expect(backoff.isPaused('x:a', 120_000)).toBe(false);
    expect(backoff.rateLimited('x:a', 60_000, 120_000)).toBe(240_000);
    for (let i = 0; i < 10; i++) backoff.rateLimited('x:a', 60_000, 0);
    expect(backoff.rateLimited('x:a', 60_000, 0)).toBe(MAX_BACKOFF_MS);
  });

  it('keeps accounts apart and forgets the pause after a successful poll', () => {
    const backoff = new PollBackoff();
    backoff.rateLimited('x:a', 1_000, 0);
    expect(backoff.isPaused('x:b', 1)).toBe(false);
    backoff.succeeded('x:a');
    expect(backoff.isPaused('x:a', 1)).toBe(false);
    expect(backoff.rateLimited('x:a', 1_000, 0)).toBe(2_000);
  });
});
