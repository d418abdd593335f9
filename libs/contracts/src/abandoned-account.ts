import type { PublishError } from './post-events';

/**
 * How an account ends when its publication attempt is given up before the account got an
 * outcome: the publisher's last delivery failed, or the scheduler found the publication running
 * past PUBLISH_ABANDON_AFTER_MS. The one rule for both (the posts decider and the publisher),
 * read from whether the attempt recorded AccountPublishStarted for the account, which the
 * publisher records before its one platform call:
 *
 * - not started (pending): the platform was never called, so nothing can be live:
 *   `publish_abandoned`, retryable.
 * - started: the call may have gone out and the post may be live: `outcome_unknown`, not
 *   retryable (a retry of the post does resend it, so the owner checks the account first).
 */
export function abandonedAccountError(account: { started: boolean }): PublishError {
  return account.started
    ? {
        code: 'outcome_unknown',
        message: 'publishing was given up after the platform call may have been made; the post may or may not be live: check the account before retrying',
        retryable: false,
      }
    : { code: 'publish_abandoned', message: 'publishing was given up before the platform was called; nothing was sent, so retrying is safe', retryable: true };
}
