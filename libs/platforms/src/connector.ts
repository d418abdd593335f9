import type { AccountMetricsReading, ItemMetricsReading, Platform, PlatformBoard, PlatformOptionValues } from '@app/contracts';
import type { MediaRef } from '@app/media';

/**
 * The port the publisher (and the comments service) call. One implementation per
 * platform, each speaking that platform's real HTTP API. No method throws for a
 * platform-side problem: every answer is an outcome the caller can record.
 */

/**
 * Who an account is on its platform: what the platform's API wants wherever it names the
 * acting identity. Read from the platform when the account is connected (never derived
 * from a handle).
 */
export interface PlatformIdentity {
  /**
   * The platform's own id: x user id, facebook page id, instagram professional account id,
   * threads user id, linkedin person or organization URN, bluesky DID, mastodon account id,
   * tiktok open_id, youtube channel id, pinterest username.
   */
  platformAccountId: string;
  /** The public handle with a leading @ (for references and public urls). */
  handle: string;
  displayName: string;
  /** Mastodon: the instance's base url; Bluesky: the account's PDS. Null elsewhere. */
  instanceUrl: string | null;
  /** Platform-specific facts a connector needs (pinterest `boardId`, facebook `pageId` of an instagram account). */
  attributes: Record<string, string>;
}

/** What a connector needs to act as one connected account. */
export interface ConnectorAccount {
  /** The service's account id (for logs and results, never sent to the platform). */
  accountId: string;
  platform: Platform;
  identity: PlatformIdentity;
  credentials: { accessToken: string };
}

export interface PublishRequest {
  /** The post's text; may be empty when mediaUrls are given (the spec allows media-only posts). */
  content: string;
  /** The post's media (https urls with optional alt text), in order. Platforms that need media fail with `media_required` without them. */
  media: MediaRef[];
  /** Stable per (post, account): sent where the platform deduplicates on it (Mastodon's Idempotency-Key). */
  idempotencyKey: string;
  /**
   * The post's options for this platform (libs/platforms/src/options), already checked against the
   * platform's documented values; each connector sends them as the platform's own fields. Absent: none.
   */
  options?: PlatformOptionValues;
  /**
   * A thread part on a platform with reply chains (REPLY_CHAIN_PLATFORMS): the platform id of the
   * item this one replies to (the part before it). Only those platforms' connectors read it.
   */
  replyTo?: string;
}

/** What reconciliation looks a post up by: what was sent, and since when. */
export interface PublishedLookup extends PublishRequest {
  /**
   * When the attempt was requested (ISO 8601; the PublishRequested event's requestedAt), the same
   * on every delivery: the platform call comes after it, so findPublished looks only at items
   * created since (less a small clock skew allowance), and an earlier attempt's post with the
   * same text is never taken for this one.
   */
  attemptStartedAt: string;
}

export interface PlatformError {
  /** A stable snake_case code: ours (`content_too_long`, `media_required`, `rate_limited`...) or the platform's own. */
  code: string;
  message: string;
  /** True when the same request may succeed later (rate limit, outage); false when it never will as sent. */
  retryable: boolean;
  /**
   * How long the platform asked us to wait before asking again (its retry-after or rate-limit
   * reset header), in milliseconds, on a retryable answer that named a wait; absent otherwise.
   */
  retryAfterMs?: number;
}

/**
 * The codes every connector's error mapper gives a refused access token, whatever its
 * platform's own dialect (Graph 190, XRPC ExpiredToken, HTTP 401...):
 * - access_token_expired: the token ran out; a refresh may bring the account back;
 * - access_token_invalid: revoked, or otherwise refused (the user removed the app,
 *   changed their password); a refresh may still work, else the user signs in again.
 * Both are definite refusals (nothing was created), so the call may be made once more
 * with a fresh token.
 */
export const CREDENTIAL_ERROR_CODES = ['access_token_expired', 'access_token_invalid'] as const;

export function isCredentialError(error: PlatformError): boolean {
  return (CREDENTIAL_ERROR_CODES as readonly string[]).includes(error.code);
}

/**
 * The result of one irreversible call.
 * - published: the platform confirmed it; its id and a public url.
 * - failed: the platform (or our own limit check) refused it; nothing was created.
 * - unknown: the request may have reached the platform but no answer came back
 *   (timeout, dropped connection). It must be reconciled (findPublished) or
 *   ended as a failure, never blindly re-sent.
 */
export type PublishOutcome =
  | { status: 'published'; platformPostId: string; url: string }
  | { status: 'failed'; error: PlatformError }
  | { status: 'unknown'; error: { code: 'outcome_unknown'; message: string; retryable: false } };

/** Where a comment goes: under a published item, or as a reply to a comment (which lives under a post). */
export type CommentTarget =
  | { kind: 'post'; platformPostId: string }
  | { kind: 'comment'; platformCommentId: string; platformPostId: string };

export interface PlatformComment {
  platformCommentId: string;
  /** The commenter's handle or display name as the platform gives it. */
  author: string;
  /**
   * The platform's id for the commenter (Facebook from.id, Instagram from.id, X author_id, YouTube
   * authorChannelId.value, LinkedIn actor URN, Mastodon account.id, Bluesky author.did), compared
   * with PlatformIdentity.platformAccountId: unlike a name, it never changes. Null where the
   * listing names authors only by handle (Threads' conversation: `username`).
   */
  authorPlatformId: string | null;
  text: string;
  /** ISO 8601. */
  createdAt: string;
  url: string | null;
  parentPlatformPostId: string;
  /** Set when the comment replies to another comment rather than to the post itself. */
  inReplyToCommentId: string | null;
}

/** A comment the account acts on: its platform id and the published item it lives under. */
export interface CommentRef {
  platformCommentId: string;
  platformPostId: string;
}

export interface PlatformConnector {
  readonly platform: Platform;
  /**
   * Publishes one post as one account. Limits are checked first (a refusal makes no request).
   * Transient failures of safe calls are retried with bounded backoff; the irreversible call
   * is retried only after a definite refusal (5xx/429 answer), never after a lost answer.
   */
  publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome>;
  /**
   * Posts a comment under a live item (firstComments) or a reply to a comment.
   * Same outcome rules as publish; `idempotencyKey` is stable per comment.
   */
  comment(account: ConnectorAccount, target: CommentTarget, text: string, idempotencyKey: string): Promise<PublishOutcome>;
  /**
   * Reconciliation after an `unknown` outcome: looks the post up among the account's items
   * created since `attemptStartedAt`, by exactly what we sent (text and media count; see
   * connectors/published-lookup.ts). null = not found. Throws PlatformCallFailed when the lookup
   * itself fails, or finds several candidates (`lookup_ambiguous`), so "could not look" or
   * "cannot tell" is never mistaken for "not there", nor another post for this one.
   */
  findPublished(account: ConnectorAccount, request: PublishedLookup): Promise<{ platformPostId: string; url: string } | null>;
  /** Comments (and replies) under one published item, oldest first. Throws PlatformCallFailed on failure. */
  listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]>;
  /**
   * Hides (true) or shows again (false) a comment someone else left under one of the account's items.
   * Throws PlatformCallFailed on a platform failure, and `comment_action_not_supported` (without a
   * request) where the platform cannot hide comments (COMMENT_CAPABILITIES in @app/contracts).
   */
  setCommentHidden(account: ConnectorAccount, comment: CommentRef, hidden: boolean): Promise<void>;
  /**
   * Deletes a comment the account itself wrote (the workspace's replies). Same failures as
   * setCommentHidden. A comment the platform no longer finds counts as deleted: deleting is
   * idempotent, so the HTTP layer's resend after a lost answer (or the caller's retry) ends as done.
   */
  deleteComment(account: ConnectorAccount, comment: CommentRef): Promise<void>;
  /** The account's boards, every page; only where the platform has boards (Pinterest). Throws PlatformCallFailed on failure. */
  listBoards?(account: ConnectorAccount): Promise<PlatformBoard[]>;
  /**
   * One published item's numbers now, in the one vocabulary (null where the platform gives no
   * such number) with the platform's own fields in `raw`. Throws PlatformCallFailed on a platform
   * failure: a 429 is retryable with `retryAfterMs` when the platform named a wait; a token
   * without the analytics scope is `insufficient_platform_scope` (INSUFFICIENT_PLATFORM_SCOPE), not retryable.
   */
  fetchItemMetrics(account: ConnectorAccount, platformPostId: string): Promise<ItemMetricsReading>;
  /** The account's follower (subscriber) count now. Same failures as fetchItemMetrics. */
  fetchAccountMetrics(account: ConnectorAccount): Promise<AccountMetricsReading>;
}

/**
 * Whether the account wrote the comment: by the platform's id for its author where the listing
 * gives one (every platform with replies but Threads), which a renamed account keeps and no
 * other account shares, unlike a display name; by the handle where the listing names authors
 * only by it (Threads' `username`).
 */
export function isWrittenBy(comment: PlatformComment, identity: PlatformIdentity): boolean {
  if (comment.authorPlatformId !== null) return comment.authorPlatformId === identity.platformAccountId;
  const bare = (name: string) => name.trim().replace(/^@/, '').toLowerCase();
  return bare(comment.author) === bare(identity.handle);
}

/** The handle without a leading @. */
export function bareHandle(account: ConnectorAccount): string {
  return account.identity.handle.replace(/^@/, '');
}
