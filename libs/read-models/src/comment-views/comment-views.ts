/** Name of the comment_views projection: its checkpoint and its notifications. */
export const COMMENT_VIEWS_PROJECTION = 'comment_views';

/** Injection token of the ProjectionWaiter that follows the comment_views checkpoint (a reply's read-your-writes). */
export const COMMENT_VIEWS_WAITER = Symbol('COMMENT_VIEWS_WAITER');

/** One of the workspace's live replies, as comment_views.replies holds it: the projector writes it, the thread shows it. */
export interface StoredCommentReply {
  replyId: string;
  accountId: string;
  repliedAs: string;
  text: string;
  createdAt: string;
}
