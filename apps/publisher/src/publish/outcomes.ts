import { PublishError } from '@app/contracts';
import { PublishOutcome } from '@app/platforms';
import { AccountOutcome } from './posts-publication.client';

/**
 * Per-account error codes the publisher itself decides (the connectors' own codes pass through;
 * an abandoned account's code is the shared rule, abandonedAccountError in @app/contracts).
 */
export const publishErrors = {
  outcomeUnknown: (why: string): PublishError => ({
    code: 'outcome_unknown',
    message: `the platform's answer was lost and ${why}; the post may or may not be live, so it is not sent again`,
    retryable: false,
  }),
  commentSkipped: (failedIndex: number, cause: PublishError): PublishError => ({
    code: 'first_comment_skipped',
    message: `not posted: first comment ${failedIndex} failed (${cause.code}) and first comments are posted in order`,
    retryable: cause.retryable,
  }),
};

/** A platform answer as the posts service records it; `unknown` never reaches here (it is reconciled first). */
export function toAccountOutcome(outcome: Exclude<PublishOutcome, { status: 'unknown' }>, reconciled = false): AccountOutcome {
  return outcome.status === 'published'
    ? { status: 'published', platformPostId: outcome.platformPostId, url: outcome.url, reconciled }
    : { status: 'failed', error: outcome.error };
}
