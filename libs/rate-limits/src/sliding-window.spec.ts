import { RateLimitPolicy, RateLimitVerdict } from './rate-limit-policy';
import { countsAt, decisiveVerdict, evaluateWindow, windowIndexAt } from './sliding-window';

const W = 60_000;
const policy: RateLimitPolicy = { name: 'general', limit: 5, windowMs: W };
/** A moment `elapsed` ms into window 1000. */
const at = (elapsed: number) => 1000 * W + elapsed;

describe('sliding window approximation', () => {
  it('numbers windows from the epoch', () => {
    expect(windowIndexAt(at(0), W)).toBe(1000);
    expect(windowIndexAt(at(W - 1), W)).toBe(1000);
    expect(windowIndexAt(at(W), W)).toBe(1001);
  });

  it('allows up to the limit in one window and refuses the next, with the time to wait', () => {
    const fifth = evaluateWindow(policy, { windowIndex: 1000, current: 5, previous: 0 }, at(30_000));
    expect(fifth).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 90 });
    const sixth = evaluateWindow(policy, { windowIndex: 1000, current: 6, previous: 0 }, at(30_000));
    expect(sixth.allowed).toBe(false);
    // Next window, once ceil(6 × unelapsed fraction) ≤ 4: a third of the way in → 30 s + 20 s.
    expect(sixth.retryAfterSeconds).toBe(50);
  });

  it('weighs the previous window by how much of it is still inside the sliding window', () => {
    // Half-way: ceil(5 × 0.5) = 3 carried, so two more fit.
    expect(evaluateWindow(policy, { windowIndex: 1000, current: 2, previous: 5 }, at(W / 2))).toMatchObject({ allowed: true, remaining: 0 });
    const refused = evaluateWindow(policy, { windowIndex: 1000, current: 3, previous: 5 }, at(W / 2));
    expect(refused.allowed).toBe(false);
    // Needs ceil(5 × unelapsed) ≤ 1, i.e. 80% in: 48 s - 30 s.
    expect(refused.retryAfterSeconds).toBe(18);
  });

  it('counts a burst straddling a boundary in full (rounding the carried part up)', () => {
    // Three just before the boundary, two just after: the sixth is refused.
    const sixth = evaluateWindow(policy, { windowIndex: 1000, current: 3, previous: 3 }, at(5));
    expect(sixth.allowed).toBe(false);
    expect(sixth.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('resets when the current window has slid out entirely; the previous one nearly out weighs one request', () => {
    expect(evaluateWindow(policy, { windowIndex: 1000, current: 1, previous: 0 }, at(0))).toMatchObject({ remaining: 4, resetSeconds: 120 });
    // 1 ms before the boundary: ceil(4 × 1/60000) = 1 carried; this request counts until the next window ends.
    expect(evaluateWindow(policy, { windowIndex: 1000, current: 1, previous: 4 }, at(W - 1))).toMatchObject({ remaining: 3, resetSeconds: 61 });
  });

  it('clamps a window opened by a replica whose clock runs ahead', () => {
    const verdict = evaluateWindow(policy, { windowIndex: 1001, current: 1, previous: 5 }, at(W - 10));
    // Treated as the start of window 1001: all 5 previous still count, so 5 + 1 > 5.
    expect(verdict.allowed).toBe(false);
  });

  it('reports a refusal over an allowance, else the policy closest to its limit', () => {
    const verdict = (name: string, allowed: boolean, remaining: number, retryAfterSeconds = 0): RateLimitVerdict => ({
      policy: { name, limit: 10, windowMs: W },
      allowed,
      remaining,
      resetSeconds: 60,
      retryAfterSeconds,
    });
    expect(decisiveVerdict([verdict('general', true, 7), verdict('replies', true, 2)])?.policy.name).toBe('replies');
    expect(decisiveVerdict([verdict('general', true, 0), verdict('replies', false, 0, 12)])?.policy.name).toBe('replies');
    expect(decisiveVerdict([verdict('general', false, 0, 40), verdict('replies', false, 0, 12)])?.policy.name).toBe('general');
    expect(decisiveVerdict([])).toBeNull();
  });

  it('reads stored counts at a moment without counting: the roll forward the upsert performs', () => {
    const stored = { windowMs: W, windowIndex: 1000, current: 4, previous: 2 };
    expect(countsAt(stored, W, at(10))).toEqual({ windowIndex: 1000, current: 4, previous: 2 });
    expect(countsAt(stored, W, at(W + 10))).toEqual({ windowIndex: 1001, current: 0, previous: 4 });
    expect(countsAt(stored, W, at(2 * W))).toEqual({ windowIndex: 1002, current: 0, previous: 0 });
    // A replica ahead opened a later window: as stored.
    expect(countsAt({ ...stored, windowIndex: 1001 }, W, at(10))).toEqual({ windowIndex: 1001, current: 4, previous: 2 });
    // Another window length, or no row: nothing.
    expect(countsAt({ ...stored, windowMs: 2 * W }, W, at(10))).toEqual({ windowIndex: 1000, current: 0, previous: 0 });
    expect(countsAt(null, W, at(10))).toEqual({ windowIndex: 1000, current: 0, previous: 0 });
  });
});
