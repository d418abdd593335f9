import type { CommentSentiment } from './comment-events';

/** Item of GET /api/v1/comments (spec, Comment). */
export interface CommentListItem {
  platformCommentId: string;
  platform: string;
  /** The service's post the comment sits under (GET /api/v1/posts/:id). */
  postId: string;
  /** The connected account the post was published as: the default replier. */
  accountId: string;
  author: string;
  text: string;
  sentiment: CommentSentiment;
  tags: string[];
  replied: boolean;
  postTitle: string | null;
  url: string | null;
  createdAt: string;
  /** The platformCommentId of the comment this one replies to; null when it answers the post. */
  parentCommentId: string | null;
  /** Hidden on the platform by this workspace (POST /api/v1/comments/hide). */
  hidden: boolean;
  /** What the platform lets the workspace do with it (COMMENT_CAPABILITIES): reply to it, */
  canReply: boolean;
  /** hide it and show it again, */
  canHide: boolean;
  /** delete the workspace's own replies to it. */
  canDelete: boolean;
}

/** One of the workspace's own replies, as the thread shows it. */
export interface OwnReplyItem {
  kind: 'reply';
  /** The platform's id of the reply (ReplyResult.result.id): what DELETE …/replies/{replyId} takes. */
  replyId: string;
  platform: string;
  /** The comment it answers. */
  parentCommentId: string;
  accountId: string;
  repliedAs: string;
  text: string;
  createdAt: string;
  canDelete: boolean;
}

/** An entry of a thread: someone's comment stored by the service, or the workspace's own reply. */
export type CommentThreadEntry = ({ kind: 'comment' } & CommentListItem) | OwnReplyItem;

/** Answer of GET /api/v1/comments/{platform}/{commentId}/replies. */
export interface CommentThread {
  /** The comments under it and the workspace's live replies, oldest first. */
  replies: CommentThreadEntry[];
}

/** Body of POST /api/v1/comments/hide and /unhide after shape validation. */
export interface ModerateCommentBody {
  platform: string;
  /** The platformCommentId from the list. */
  commentId: string;
  /** The connected account that acts, on the comment's platform; defaults to the one the comment came to. */
  accountId?: string;
}

/** Answer of POST /api/v1/comments/hide and /unhide. */
export interface ModerateCommentResult {
  success: true;
  platformCommentId: string;
  hidden: boolean;
}

/** Body of POST /api/v1/comments/reply after shape validation (the rules are the comments service's). */
export interface ReplyToCommentBody {
  platform: string;
  /** The platformCommentId from the list. */
  commentId: string;
  message: string;
  accountId?: string;
}

/** Answer of POST /api/v1/comments/reply (spec, Reply result). */
export interface ReplyResult {
  success: true;
  repliedAs: string;
  result: { id: string };
}
