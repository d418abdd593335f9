import { RateLimitPolicy, RateLimitVerdict, WindowCounts } from './rate-limit-policy';

/**
 * Sliding-window approximation over two fixed windows (the scheme Cloudflare
 * describes): the requests of the previous window count in proportion to how
 * much of it still overlaps the sliding window ending now. The weighted part
 * is rounded up, so a burst that straddles a window boundary is counted in
 * full and never lets an extra request through.
 */
export function windowIndexAt(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs);
}

/**
 * A key's stored counts as they stand at `nowMs`, without counting a request:
 * the roll forward the store's upsert performs (HIT_SQL), read-only. A row of
 * this window or a later one (a replica's clock ahead) is as stored; one window
 * behind becomes the previous window; anything older, another window length, or
 * no row at all is nothing.
 */
export function countsAt(stored: (WindowCounts & { windowMs: number }) | null, windowMs: number, nowMs: number): WindowCounts {
  const windowIndex = windowIndexAt(nowMs, windowMs);
  if (!stored || stored.windowMs !== windowMs) return { windowIndex, current: 0, previous: 0 };
  if (stored.windowIndex >= windowIndex) return { windowIndex: stored.windowIndex, current: stored.current, previous: stored.previous };
  if (stored.windowIndex === windowIndex - 1) return { windowIndex, current: 0, previous: stored.current };
  return { windowIndex, current: 0, previous: 0 };
}

export function evaluateWindow(policy: RateLimitPolicy, counts: WindowCounts, nowMs: number): RateLimitVerdict {
  const { limit, windowMs } = policy;
  // Another replica's clock may run slightly ahead and have opened the window already: clamp.
  const elapsed = Math.min(Math.max(nowMs - counts.windowIndex * windowMs, 0), windowMs);
  const carried = carriedOver(counts.previous, elapsed, windowMs);
  const used = carried + counts.current;
  const allowed = used <= limit;
  return {
    policy,
    allowed,
    remaining: Math.max(limit - used, 0),
    resetSeconds: toSeconds(counts.current > 0 ? 2 * windowMs - elapsed : carried > 0 ? windowMs - elapsed : 0),
    retryAfterSeconds: allowed ? 0 : Math.max(1, toSeconds(msUntilNextAllowed(limit, counts, elapsed, windowMs))),
  };
}

/** The previous window's requests still inside the sliding window, rounded up. */
function carriedOver(previous: number, elapsedMs: number, windowMs: number): number {
  return Math.ceil((previous * (windowMs - elapsedMs)) / windowMs);
}

/**
 * How long until one more request fits, if none is sent meanwhile: later in
 * this window when enough of the previous one has slid out, otherwise in the
 * next window once enough of this one has.
 */
function msUntilNextAllowed(limit: number, counts: WindowCounts, elapsedMs: number, windowMs: number): number {
  const roomNow = limit - 1 - counts.current;
  if (roomNow >= 0) return Math.max(elapsedUntilCarriedAtMost(roomNow, counts.previous, windowMs) - elapsedMs, 0);
  return windowMs - elapsedMs + elapsedUntilCarriedAtMost(limit - 1, counts.current, windowMs);
}

/** The point in a window after which ceil(count × the unelapsed fraction) is at most `room`. */
function elapsedUntilCarriedAtMost(room: number, count: number, windowMs: number): number {
  return count <= room ? 0 : windowMs * (1 - room / count);
}

function toSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * The verdict a response reports when several policies apply: a refusal (the
 * longest wait, since every policy must pass), else the one closest to its limit.
 */
export function decisiveVerdict(verdicts: RateLimitVerdict[]): RateLimitVerdict | null {
  const refused = verdicts.filter((verdict) => !verdict.allowed);
  if (refused.length) return refused.reduce((a, b) => (b.retryAfterSeconds > a.retryAfterSeconds ? b : a));
  return verdicts.reduce<RateLimitVerdict | null>((a, b) => (a === null || b.remaining < a.remaining ? b : a), null);
}
