/**
 * When a failed delivery is tried again: exponential backoff with full jitter
 * (each wait drawn between half and all of the step), five seconds doubling
 * up to a ceiling of twelve hours, and given up after about three days
 * (RETRY_WINDOW_MS from when it was queued). Standard Webhooks
 * (github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md,
 * "Deliverability and reliability") recommends a schedule spanning multiple days
 * with exponential backoff and jitter; its example: immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (about 75 hours).
 */
export const FIRST_RETRY_MS = 5_000;
export const MAX_RETRY_STEP_MS = 12 * 60 * 60_000;
export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60_000;
/** An endpoint whose every attempt failed this long is disabled (issue 14: five days). */
export const DISABLE_FAILING_AFTER_MS = 5 * 24 * 60 * 60_000;

/** The wait after the `attempts`-th failed attempt (1-based); `random` in [0, 1). */
export function retryDelayMs(attempts: number, random: number = Math.random()): number {
  const step = Math.min(MAX_RETRY_STEP_MS, FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (step / 2) * random);
}

/** The next attempt's time after a failure, or null when the delivery's window is over (it fails for good). */
export function nextAttemptAt(attempts: number, failedAt: Date, giveUpAt: Date, random: number = Math.random()): Date | null {
  const next = new Date(failedAt.getTime() + retryDelayMs(attempts, random));
  return next.getTime() > giveUpAt.getTime() ? null : next;
}

/**
 * Answers that ask the sender to slow down, and whose Retry-After is honoured. Standard
 * Webhooks ("Delivery success and failure"): 429 Too Many Requests means a rate limit was
 * met, and a Retry-After (e.g. on 503 Service Unavailable) "should be taken into
 * consideration when scheduling the next attempt". 502 and 504 carry no such header as a
 * rule and keep the normal backoff (already growing).
 */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];
/** The longest Retry-After honoured: an endpoint asking for more is tried again after this (then asks again if it must). */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** A Retry-After value (RFC 9110 §10.2.3: delay seconds or an HTTP date) as a wait from `now`; null when it is neither. */
export function retryAfterMs(value: string, now: Date): number | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month (IMF-fixdate, or the obsolete RFC 850 and asctime forms).
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * Until when a failed attempt's answer asks the endpoint to be left alone: a 429 or 503
 * with a Retry-After, at least the time it names — never sooner than the first retry step,
 * never later than MAX_RETRY_AFTER_MS — or null for any other failure (the normal backoff).
 */
export function throttledUntil(result: { responseStatus: number | null; retryAfter: string | null }, failedAt: Date): Date | null {
  if (result.responseStatus === null || !RETRY_AFTER_STATUSES.includes(result.responseStatus) || result.retryAfter === null) return null;
  const wait = retryAfterMs(result.retryAfter, failedAt);
  if (wait === null) return null;
  return new Date(failedAt.getTime() + Math.min(MAX_RETRY_AFTER_MS, Math.max(FIRST_RETRY_MS, wait)));
}
