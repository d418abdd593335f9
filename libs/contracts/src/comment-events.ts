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
}

/** Events of the Comment aggregate (stream comment-<id>). Version 1 of each. */
export type CommentEvent = { type: 'CommentReceived'; data: CommentReceivedData } | { type: 'CommentReplied'; data: CommentRepliedData };

export type CommentEventType = CommentEvent['type'];

export const COMMENT_EVENT_VERSION = 1;

export function commentStreamId(commentId: string): string {
  return `comment-${commentId}`;
}
