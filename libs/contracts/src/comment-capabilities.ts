import type { Platform } from './platforms';

/** What the workspace can do with comments on one platform, through that platform's public API. */
export interface CommentCapabilities {
  /** Reply to a comment under one of the account's items. */
  reply: boolean;
  /** Hide (and show again) a comment someone else left under one of the account's items. */
  hide: boolean;
  /** Delete a comment the account itself wrote (the workspace's replies). */
  deleteOwnReply: boolean;
}

/**
 * The per-platform capability table, read from each platform's documentation. The service checks
 * it before acting (a missing capability is refused without an event); the connectors refuse the
 * same actions without a request as a backstop.
 */
export const COMMENT_CAPABILITIES: Record<Platform, CommentCapabilities> = {
  /**
   * Replies `POST /{comment-id}/comments`; hide `POST /{comment-id}` with `is_hidden`; delete
   * `DELETE /{comment-id}` (https://developers.facebook.com/docs/graph-api/reference/comment/).
   */
  facebook: { reply: true, hide: true, deleteOwnReply: true },
  /**
   * Replies `POST /{ig-comment-id}/replies`; hide `POST /{ig-comment-id}?hide=true`; delete
   * `DELETE /{ig-comment-id}` (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/).
   */
  instagram: { reply: true, hide: true, deleteOwnReply: true },
  /**
   * Replies `comments.insert`; hide `comments.setModerationStatus` heldForReview, shown again with
   * published (a rejected comment can never be published again, so rejected is not used); delete
   * `comments.delete`, by the comment's author only (https://developers.google.com/youtube/v3/docs/comments/setModerationStatus).
   */
  youtube: { reply: true, hide: true, deleteOwnReply: true },
  /**
   * Replies `POST /2/tweets` with `reply.in_reply_to_tweet_id`; hide `PUT /2/tweets/:id/hidden`
   * (https://docs.x.com/x-api/posts/hide-replies/introduction); delete `DELETE /2/tweets/:id`
   * (https://developer.x.com/en/docs/x-api/tweets/manage-tweets/api-reference/delete-tweets-id).
   */
  x: { reply: true, hide: true, deleteOwnReply: true },
  /**
   * Replies with `reply_to_id`; hide `POST /{reply-id}/manage_reply`, top-level replies only
   * (https://developers.facebook.com/docs/threads/reply-management); delete `DELETE /{threads-media-id}`
   * with threads_delete (https://developers.facebook.com/docs/threads/posts/delete-posts).
   */
  threads: { reply: true, hide: true, deleteOwnReply: true },
  /**
   * Replies name a `parentComment`; delete own comment `DELETE /rest/socialActions/{urn}/comments/{id}`
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api).
   * The API has no way to hide a member's comment.
   */
  linkedin: { reply: true, hide: false, deleteOwnReply: true },
  /**
   * Replies are statuses with `in_reply_to_id`; delete own status `DELETE /api/v1/statuses/:id`
   * (https://docs.joinmastodon.org/methods/statuses/). A status author cannot hide replies.
   */
  mastodon: { reply: true, hide: false, deleteOwnReply: true },
  /**
   * Replies are `app.bsky.feed.post` records with `reply`; hide: the thread's threadgate record
   * (`app.bsky.feed.threadgate`, its `hiddenReplies`, written with `com.atproto.repo.putRecord` by the
   * root post's author: https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/threadgate.json);
   * delete own record `com.atproto.repo.deleteRecord` (https://docs.bsky.app/docs/api/com-atproto-repo-delete-record).
   */
  bluesky: { reply: true, hide: true, deleteOwnReply: true },
  /** The public Content Posting API has no comment endpoints (https://developers.tiktok.com/doc/content-posting-api-get-started). */
  tiktok: { reply: false, hide: false, deleteOwnReply: false },
  /** The v5 API has no comment endpoints (https://developers.pinterest.com/docs/api/v5/). */
  pinterest: { reply: false, hide: false, deleteOwnReply: false },
};

/**
 * Platforms whose hide reaches only the comments on the post itself: Threads hides "top-level
 * replies" (hiding one hides its nested replies) and "Replies nested deeper than the top-level
 * reply cannot be targeted in isolation" (https://developers.facebook.com/docs/threads/reply-management).
 */
const HIDES_TOP_LEVEL_ONLY: ReadonlySet<Platform> = new Set<Platform>(['threads']);

/**
 * What the workspace can do with one comment: its platform's row of COMMENT_CAPABILITIES, less
 * what the platform refuses for this kind of comment (a nested reply on Threads cannot be hidden).
 * The one rule behind the list's canReply / canHide / canDelete and the service's check before acting.
 */
export function capabilitiesOf(comment: { platform: Platform; parentCommentId?: string | null }): CommentCapabilities {
  const table = COMMENT_CAPABILITIES[comment.platform];
  const nested = (comment.parentCommentId ?? null) !== null;
  return nested && HIDES_TOP_LEVEL_ONLY.has(comment.platform) ? { ...table, hide: false } : table;
}
