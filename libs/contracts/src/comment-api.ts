import type { CommentSentiment } from './comment-events';

/** Item of GET /api/v1/comments (spec, Comment). */
export interface CommentListItem {
  platformCommentId: string;
  platform: string;
  author: string;
  text: string;
  sentiment: CommentSentiment;
  tags: string[];
  replied: boolean;
  postTitle: string | null;
  url: string | null;
  createdAt: string;
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
