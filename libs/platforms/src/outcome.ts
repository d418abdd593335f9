import { MediaRefused } from '@app/media';
import type { PlatformError, PublishOutcome } from './connector';
import { PlatformCallFailed, PlatformOutcomeUnknown } from './http/platform-http';

export function published(platformPostId: string, url: string): PublishOutcome {
  return { status: 'published', platformPostId, url };
}

/**
 * A refused publish or comment. Its error is what the post's events record and the API shows: code, message,
 * retryable. The wait a throttled platform named (retryAfterMs) is for callers that schedule their own retry of
 * a read (metrics collection) and stays on PlatformCallFailed; the publisher retries with its own policy.
 */
export function failed({ code, message, retryable }: PlatformError): PublishOutcome {
  return { status: 'failed', error: { code, message, retryable } };
}

/**
 * Runs one publish/comment flow and turns the HTTP layer's exceptions into an outcome,
 * so callers get data, never a throw, for anything the platform did.
 */
export async function toOutcome(flow: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
  try {
    return await flow();
  } catch (error) {
    if (error instanceof PlatformCallFailed) return failed(error.error);
    // A media url refused before any platform call: nothing was created.
    if (error instanceof MediaRefused) return failed({ code: error.code, message: error.message, retryable: error.retryable });
    if (error instanceof PlatformOutcomeUnknown) {
      return { status: 'unknown', error: { code: 'outcome_unknown', message: error.message, retryable: false } };
    }
    throw error;
  }
}

/** A read answered 2xx but without what its API promises: report it, never guess. */
export function malformedAnswer(what: string): PlatformCallFailed {
  return new PlatformCallFailed({ code: 'unexpected_response', message: `the platform's answer had no ${what}`, retryable: false });
}

/** The irreversible call answered 2xx without the new item's id: it probably exists, so the outcome is unknown. */
export function unreadablePublishAnswer(what: string): PlatformOutcomeUnknown {
  return new PlatformOutcomeUnknown(`the platform accepted the request but its answer had no ${what}`);
}
