import type { Dispatcher } from 'undici';

/** How hard a connector tries before giving up on a call. Tests pass tiny delays or a recording `sleep`. */
export interface RetryPolicy {
  /** Attempts per call, the first included. */
  maxAttempts: number;
  /** First backoff delay; doubles per attempt (with jitter) up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A rate-limit reset further away than this is not waited for: the call fails as retryable. */
  maxRateLimitWaitMs: number;
  /** Per-request timeout; a timeout on the irreversible call makes the outcome unknown. */
  requestTimeoutMs: number;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** How calls connect: the guarded dialer (platform-dialer.ts) in the services; absent, undici's global Agent (tests of one connector). */
  dispatcher?: Dispatcher;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRateLimitWaitMs: 60_000,
  requestTimeoutMs: 15_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
};

/** Exponential backoff with equal jitter: half fixed, half random, so retries of many accounts spread out. */
export function backoffDelayMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * How long the platform asked us to wait, from whichever header it uses, or null:
 * - `retry-after`: delta seconds or an HTTP date (most platforms, RFC 9110);
 * - `x-rate-limit-reset`: epoch seconds (X API v2);
 * - `ratelimit-reset`: epoch seconds (Bluesky PDS) or delta seconds (IETF draft);
 * - `x-ratelimit-reset`: an ISO 8601 time (Mastodon).
 */
export function rateLimitDelayMs(headers: Headers, nowMs: number): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) return fromSecondsOrDate(retryAfter, nowMs);
  const reset = headers.get('x-rate-limit-reset') ?? headers.get('ratelimit-reset');
  if (reset !== null) return fromEpochOrDelta(reset, nowMs);
  const isoReset = headers.get('x-ratelimit-reset');
  if (isoReset !== null) return fromSecondsOrDate(isoReset, nowMs);
  return null;
}

function fromSecondsOrDate(value: string, nowMs: number): number | null {
  if (/^\d+$/.test(value.trim())) return fromEpochOrDelta(value, nowMs);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Values above a billion are epoch seconds (2001 onwards); smaller ones are seconds to wait. */
function fromEpochOrDelta(value: string, nowMs: number): number | null {
  const seconds = Number(value);
  if (!Number.isFinite(seconds)) return null;
  return seconds > 1e9 ? Math.max(0, seconds * 1000 - nowMs) : seconds * 1000;
}
