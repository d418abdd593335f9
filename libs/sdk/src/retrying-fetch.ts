import { retryAfterSecondsOf } from './api-error';

/** How the SDK retries an answer that says "later" (429 with Retry-After, 503). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** The longest wait the SDK accepts; a Retry-After beyond it is answered to the caller as it is (default 120 s: a one-minute sliding window can ask for more than 60). */
  maxDelayMs?: number;
  /** The wait between attempts when the answer has no Retry-After: base × 2^(attempt-1) (default 500 ms). */
  baseDelayMs?: number;
  /** How to wait (tests pass a clock of their own). */
  sleep?: (ms: number) => Promise<void>;
}

/** Methods RFC 9110 §9.2.2 calls idempotent: sending one twice does what sending it once does. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that sends a request again when the API answers 429 with a Retry-After
 * (a rate limit; a 429 without one, like x_quota_exhausted, is not a "later")
 * or 503 (service_unavailable), waiting what Retry-After says (or backing off).
 * Only a request that is safe to send twice is retried: an idempotent method,
 * or a POST/PATCH carrying an Idempotency-Key (the API answers a repeat with the
 * first answer and creates nothing). Any other call is answered as it came.
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxDelayMs = options.maxDelayMs ?? 120_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? defaultSleep;
  return async (request) => {
    const retryable = IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      const response = await send(retryable && attempt < maxAttempts ? request.clone() : request);
      if (!retryable || attempt >= maxAttempts) return response;
      const delayMs = delayBeforeRetry(response, attempt, baseDelayMs);
      if (delayMs === null || delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delayMs);
    }
  };
}

/** How long to wait before sending again, or null when this answer is not one to retry. */
function delayBeforeRetry(response: Response, attempt: number, baseDelayMs: number): number | null {
  const retryAfter = retryAfterSecondsOf(response.headers.get('retry-after'));
  if (response.status === 429) return retryAfter === null ? null : retryAfter * 1000;
  if (response.status === 503) return retryAfter === null ? baseDelayMs * 2 ** (attempt - 1) : retryAfter * 1000;
  return null;
}
