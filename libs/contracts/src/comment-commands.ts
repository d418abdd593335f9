import type { ModerateCommentBody, ReplyToCommentBody } from './comment-api';

/** A comment as a platform reported it (poll or webhook), before the service stores it. */
export interface IncomingComment {
  platformCommentId: string;
  author: string;
  text: string;
  /** ISO 8601; the receipt time stands in when the platform gives none. */
  createdAt: string | null;
  url: string | null;
  /** The platformCommentId it replies to; null (or absent) when it answers the post itself. */
  parentCommentId?: string | null;
}

/**
 * comments.ingest-webhook: comments a platform pushed (Meta's webhooks), under
 * one of its items. The comments service finds the workspaces that published
 * the item; comments under anything else are ignored.
 */
export interface IngestWebhookCommentsCommand {
  platform: string;
  platformPostId: string;
  comments: IncomingComment[];
}

export interface IngestCommentsReply {
  /** Comments stored by this call (a comment seen before is not counted). */
  received: number;
}

/** comments.reply */
export interface ReplyToCommentCommand {
  workspaceId: string;
  body: ReplyToCommentBody;
}

export interface ReplyToCommentReply {
  repliedAs: string;
  replyPlatformId: string;
  /** Global position of CommentReplied ("commit:prepare"): the gateway answers once the list shows it. */
  position: string;
}

/** comments.hide and comments.unhide */
export interface ModerateCommentCommand {
  workspaceId: string;
  body: ModerateCommentBody;
}

export interface ModerateCommentReply {
  hidden: boolean;
  /** Global position of CommentHidden / CommentUnhidden; null when the comment already was so (nothing appended). */
  position: string | null;
}

/** comments.delete-reply: delete one of the workspace's own replies to a stored comment. */
export interface DeleteCommentReplyCommand {
  workspaceId: string;
  platform: string;
  /** The platformCommentId of the comment replied to. */
  commentId: string;
  /** The platform's id of the reply (ReplyResult.result.id). */
  replyId: string;
}

export interface DeleteCommentReplyReply {
  /** Global position of CommentReplyDeleted; null when the reply was already deleted (nothing appended). */
  position: string | null;
}
