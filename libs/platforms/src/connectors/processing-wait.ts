import type { RetryPolicy } from '../http/retry-policy';

/** The first wait between two reads of a platform's processing state; it doubles up to MAX_POLL_DELAY_MS. */
const FIRST_POLL_DELAY_MS = 1_000;
const MAX_POLL_DELAY_MS = 10_000;

/** What a read answers while the platform is still working and says when to look again (X's processing_info.check_after_secs). */
export class CheckAgain {
  constructor(readonly afterMs: number) {}
}

/**
 * Reads a platform's asynchronous processing state (a video being transcoded, a post being
 * published) until `read` answers a result, waiting between reads on the retry policy's
 * clock (tests make it instant): as long as the last read asked (CheckAgain), else with a
 * doubling delay. Gives up after `maxWaitMs` of that clock and answers undefined: the caller
 * decides what an unfinished wait means on its platform (a refusal before the publish call,
 * an accepted post still in progress after it). `read` answers undefined or CheckAgain while
 * the platform is still working, and throws to stop. `lastRead`: the platform's answer already
 * in hand (an upload's own answer), so the first read waits as that answer asked.
 */
export async function pollUntilDone<T>(retry: RetryPolicy, maxWaitMs: number, read: () => Promise<T | CheckAgain | undefined>, lastRead?: CheckAgain): Promise<T | undefined> {
  const deadline = retry.now() + maxWaitMs;
  let answer = lastRead ?? (await read());
  for (let delay = FIRST_POLL_DELAY_MS; ; delay = Math.min(delay * 2, MAX_POLL_DELAY_MS)) {
    if (answer !== undefined && !(answer instanceof CheckAgain)) return answer;
    const left = deadline - retry.now();
    if (left <= 0) return undefined;
    const asked = answer instanceof CheckAgain && answer.afterMs > 0 ? answer.afterMs : delay;
    await retry.sleep(Math.min(asked, left));
    answer = await read();
  }
}
