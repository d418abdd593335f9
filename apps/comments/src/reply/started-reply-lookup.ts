import { comparableText, isWrittenBy, PlatformComment, PlatformIdentity } from '@app/platforms';

/** What a started reply is looked up by among the comments under its post. */
export interface StartedReplyLookup {
  /** The comment replied to. */
  platformCommentId: string;
  message: string;
  /** The account the reply was posted as. */
  identity: PlatformIdentity;
  /** The workspace's replies already recorded on the comment: never claimed again. */
  recordedReplyIds: readonly string[];
}

/**
 * The reply a crash or a lost answer left unrecorded, among the comments under the post
 * (the connector's listComments, oldest first): a direct reply to the comment, by the
 * account, with exactly the text sent (links stripped and whitespace collapsed, as platforms
 * rewrite both; the same marker as a post's reconciliation), not already recorded. Several
 * (the same text posted by hand on the platform too): the oldest, the one the first attempt
 * made. None: the platform never made it, and the reply is posted.
 */
export function findStartedReply(comments: readonly PlatformComment[], lookup: StartedReplyLookup): PlatformComment | null {
  const text = comparableText(lookup.message);
  return (
    comments.find(
      (comment) =>
        comment.inReplyToCommentId === lookup.platformCommentId &&
        !lookup.recordedReplyIds.includes(comment.platformCommentId) &&
        comparableText(comment.text) === text &&
        isWrittenBy(comment, lookup.identity),
    ) ?? null
  );
}
