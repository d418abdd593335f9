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
