import type { Platform } from './platforms';

/** How the commenter sounds (spec, Comment.sentiment). */
export const COMMENT_SENTIMENTS = ['positive', 'negative', 'neutral'] as const;
export type CommentSentiment = (typeof COMMENT_SENTIMENTS)[number];

export function isCommentSentiment(value: unknown): value is CommentSentiment {
  return typeof value === 'string' && (COMMENT_SENTIMENTS as readonly string[]).includes(value);
}

/**
 * A comment seen for the first time under one of the workspace's published
 * items, with its classification (taken once, at ingestion, so the history
 * says what the list showed).
 */
export interface CommentReceivedData {
  commentId: string;
  workspaceId: string;
  platform: Platform;
  platformCommentId: string;
  /** The platform's id of the published item the comment sits under. */
  platformPostId: string;
  /** The service's post that item was published from. */
  postId: string;
  /** The connected account the item was published as (and the default replier). */
  accountId: string;
  author: string;
  text: string;
  url: string | null;
  postTitle: string | null;
  commentedAt: string;
  receivedAt: string;
  sentiment: CommentSentiment;
  tags: string[];
  /**
   * The platformCommentId of the comment this one replies to; null when it answers the post
   * itself. Absent from events written before threads were stored: read it as null.
   */
  parentCommentId?: string | null;
}

/**
 * The workspace is about to post a reply: recorded before the platform is called, so a
 * retry that finds it unrecorded (no CommentReplied with its replyKey) looks the reply up
 * on the platform instead of posting it again.
 */
export interface CommentReplyStartedData {
  commentId: string;
  /** Names this reply attempt: the platform's idempotency key and the later CommentReplied carry it. */
  replyKey: string;
  /** The account that replies. */
  accountId: string;
  message: string;
  startedAt: string;
}

/** A public reply the workspace posted to the comment. */
export interface CommentRepliedData {
  commentId: string;
  accountId: string;
  /** The handle that replied, as answered to the client. */
  repliedAs: string;
  /** The platform's id of the reply. */
  replyPlatformId: string;
  message: string;
  repliedAt: string;
  /** The CommentReplyStarted it completes; absent on replies recorded before replies were started first. */
  replyKey?: string;
  /** True when a retry found the reply on the platform (its answer was lost) rather than posting it. */
  reconciled?: boolean;
}

/** The comment was hidden on its platform (others no longer see it; its author may). */
export interface CommentHiddenData {
  commentId: string;
  /** The connected account that hid it. */
  accountId: string;
  hiddenAt: string;
}

/** The comment was shown again on its platform. */
export interface CommentUnhiddenData {
  commentId: string;
  /** The connected account that showed it again. */
  accountId: string;
  unhiddenAt: string;
}

/** One of the workspace's replies to the comment was deleted from the platform. */
export interface CommentReplyDeletedData {
  commentId: string;
  /** The account that wrote the reply (and deleted it). */
  accountId: string;
  /** The platform's id of the deleted reply (CommentReplied's replyPlatformId). */
  replyPlatformId: string;
  deletedAt: string;
}

/**
 * The current classifier read the comment differently from what was stored
 * (CommentReceived's, or the last CommentReclassified's): the list shows this
 * from now on; the earlier events stay as they were.
 */
export interface CommentReclassifiedData {
  commentId: string;
  sentiment: CommentSentiment;
  tags: string[];
  /** Which classifier decided (a fingerprint of its code, see apps/comments/src/reclassify). */
  classifierVersion: string;
  reclassifiedAt: string;
}

/** Events of the Comment aggregate (stream comment-<id>). Version 1 of each. */
export type CommentEvent =
  | { type: 'CommentReceived'; data: CommentReceivedData }
  | { type: 'CommentReplyStarted'; data: CommentReplyStartedData }
  | { type: 'CommentReplied'; data: CommentRepliedData }
  | { type: 'CommentHidden'; data: CommentHiddenData }
  | { type: 'CommentUnhidden'; data: CommentUnhiddenData }
  | { type: 'CommentReplyDeleted'; data: CommentReplyDeletedData }
  | { type: 'CommentReclassified'; data: CommentReclassifiedData };

export type CommentEventType = CommentEvent['type'];

export const COMMENT_EVENT_VERSION = 1;

export function commentStreamId(commentId: string): string {
  return `comment-${commentId}`;
}
