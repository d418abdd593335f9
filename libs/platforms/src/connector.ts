import type { Platform } from '@app/contracts';

/**
 * The port the publisher (and the comments service) call. One implementation per
 * platform, each speaking that platform's real HTTP API. No method throws for a
 * platform-side problem: every answer is an outcome the caller can record.
 */

/** What a connector needs to act as one connected account. */
export interface ConnectorAccount {
  /** The service's account id (for logs and results, never sent to the platform). */
  accountId: string;
  platform: Platform;
  /** The handle as connected, with or without a leading @ (used to build public urls). */
  handle: string;
  credentials: PlatformCredentials;
}

export interface PlatformCredentials {
  /** OAuth bearer token (X, Meta, LinkedIn, TikTok, YouTube, Pinterest, Mastodon) or the atproto accessJwt (Bluesky). */
  accessToken: string;
  /**
   * The platform's id for the acting identity, where the API wants it in a path or body:
   * facebook page id, instagram ig-user-id, threads user id, bluesky DID, linkedin person or
   * organization URN, pinterest board id, x user id, mastodon account id.
   * Defaults to the handle without its @ (see `platformUserIdOf`).
   */
  platformUserId?: string;
}

export interface PublishRequest {
  /** The post's text; may be empty when mediaUrls are given (the spec allows media-only posts). */
  content: string;
  /** Absolute media urls, in order. Platforms that need media fail with `media_required` without them. */
  mediaUrls: string[];
  /** Stable per (post, account): sent where the platform deduplicates on it (Mastodon's Idempotency-Key). */
  idempotencyKey: string;
}

export interface PlatformError {
  /** A stable snake_case code: ours (`content_too_long`, `media_required`, `rate_limited`...) or the platform's own. */
  code: string;
  message: string;
  /** True when the same request may succeed later (rate limit, outage); false when it never will as sent. */
  retryable: boolean;
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
  text: string;
  /** ISO 8601. */
  createdAt: string;
  url: string | null;
  parentPlatformPostId: string;
  /** Set when the comment replies to another comment rather than to the post itself. */
  inReplyToCommentId: string | null;
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
   * Reconciliation after an `unknown` outcome: looks the post up among the account's recent
   * items by exactly what we sent. null = not found, or the platform offers no such lookup
   * (then the caller ends the attempt as `outcome_unknown`). Throws PlatformCallFailed when
   * the lookup itself fails, so "could not look" is never mistaken for "not there".
   */
  findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null>;
  /** Comments (and replies) under one published item, oldest first. Throws PlatformCallFailed on failure. */
  listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]>;
}

/** The handle without a leading @. */
export function bareHandle(account: ConnectorAccount): string {
  return account.handle.replace(/^@/, '');
}

/** The id the platform knows the account by; defaults to the bare handle. */
export function platformUserIdOf(account: ConnectorAccount): string {
  return account.credentials.platformUserId ?? bareHandle(account);
}
