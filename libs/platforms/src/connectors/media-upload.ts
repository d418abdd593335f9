import type { MediaFile } from '@app/media';
import { PlatformCallFailed } from '../http/platform-http';
import type { RetryPolicy } from '../http/retry-policy';
import { CheckAgain, pollUntilDone } from './processing-wait';

/**
 * What a platform says of an upload it may still be processing (a video being transcoded);
 * `checkAfterMs` where it says when to look again (X's check_after_secs).
 */
export type ProcessingState = { state: 'ready' } | { state: 'processing'; checkAfterMs?: number } | { state: 'failed'; message: string };

/** A few minutes: longer than a short clip's transcoding, short enough not to hold a publication worker for ever. */
export const MAX_PROCESSING_WAIT_MS = 5 * 60_000;

/**
 * Waits, before the publish call, until the platform has processed an upload that `started`
 * processing, reading its state with `check` (pollUntilDone: pauses on the retry policy's
 * clock, as long as the platform asks or growing, bounded by `maxWaitMs`). Throws
 * media_processing_failed when the platform gave up on the media, media_processing_timeout
 * (retryable: a later attempt uploads again) when it was still processing at the deadline.
 */
export async function waitUntilProcessed(
  policy: RetryPolicy,
  what: string,
  started: ProcessingState,
  check: () => Promise<ProcessingState>,
  maxWaitMs = MAX_PROCESSING_WAIT_MS,
): Promise<void> {
  const outcome = (state: ProcessingState): true | CheckAgain | undefined => {
    if (state.state === 'failed') {
      throw new PlatformCallFailed({ code: 'media_processing_failed', message: `the platform could not process ${what}: ${state.message}`, retryable: false });
    }
    if (state.state === 'ready') return true;
    return state.checkAfterMs === undefined ? undefined : new CheckAgain(state.checkAfterMs);
  };
  const first = outcome(started);
  if (first === true) return;
  if (await pollUntilDone(policy, maxWaitMs, async () => outcome(await check()), first)) return;
  throw new PlatformCallFailed({
    code: 'media_processing_timeout',
    message: `${what} was still being processed after ${maxWaitMs / 1000} s; try again later`,
    retryable: true,
  });
}

/**
 * Uploads every item side by side (uploads are safe to repeat: an unattached one is harmless)
 * and gives their ids in the post's order. Waits for all of them before failing with the
 * first failure, so no upload still reads a spooled file once its batch is removed.
 */
export async function uploadAll<T>(files: readonly MediaFile[], upload: (file: MediaFile, index: number) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(files.map(upload));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/**
 * The name a file part is uploaded under: the last segment of its url (what a browser
 * would send for a file it saved from there), or `media` when the path has none.
 */
export function uploadFileName(file: MediaFile): string {
  try {
    return decodeURIComponent(new URL(file.url).pathname.split('/').pop() ?? '') || 'media';
  } catch {
    return 'media';
  }
}
