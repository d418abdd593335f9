import type { RetryPolicy } from '../http/retry-policy';

/** The first wait between two reads of a platform's processing state; it doubles up to MAX_POLL_DELAY_MS. */
const FIRST_POLL_DELAY_MS = 1_000;
const MAX_POLL_DELAY_MS = 10_000;

/**
 * Reads a platform's asynchronous processing state (a video being transcoded, a post being
 * published) until `read` answers a result, waiting between reads with a doubling delay on
 * the retry policy's clock (tests make it instant). Gives up after `maxWaitMs` of that
 * clock and answers undefined: the caller decides what an unfinished wait means on its
 * platform (a refusal before the publish call, an accepted post still in progress after it).
 * `read` answers undefined while the platform is still working, and throws to stop.
 */
export async function pollUntilDone<T>(retry: RetryPolicy, maxWaitMs: number, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = retry.now() + maxWaitMs;
  for (let delay = FIRST_POLL_DELAY_MS; ; delay = Math.min(delay * 2, MAX_POLL_DELAY_MS)) {
    const result = await read();
    if (result !== undefined) return result;
    const left = deadline - retry.now();
    if (left <= 0) return undefined;
    await retry.sleep(Math.min(delay, left));
  }
}
