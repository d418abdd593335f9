import { CommentEvent, DomainError, unknownComment } from '@app/contracts';
import { DeleteReply, SetCommentHidden } from './comment.commands';
import { CommentState } from './comment.state';
import { checkCapability } from './comment-capability';

/**
 * Hide / unhide: decided once before the platform is called (a refusal or a
 * no-op sends nothing) and once more to record what the platform did. Asking
 * for the state the comment is already in is a success that records nothing.
 */
export function decideSetHidden(command: SetCommentHidden, state: CommentState): CommentEvent[] {
  if (!state.exists) throw unknownComment();
  checkCapability(state, 'hide');
  const hide = command.type === 'HideComment';
  if (state.hidden === hide) return [];
  const { commentId } = state.data;
  const at = command.now.toISOString();
  return hide
    ? [{ type: 'CommentHidden', data: { commentId, accountId: command.accountId, hiddenAt: at } }]
    : [{ type: 'CommentUnhidden', data: { commentId, accountId: command.accountId, unhiddenAt: at } }];
}

/**
 * Deleting one of the workspace's replies, as the account that wrote it (the
 * event names it: the caller calls the platform as that account). A reply
 * already deleted is a success that records nothing.
 */
export function decideDeleteReply(command: DeleteReply, state: CommentState): CommentEvent[] {
  if (!state.exists) throw unknownComment();
  checkCapability(state, 'deleteOwnReply');
  const reply = state.replies.find((r) => r.replyPlatformId === command.replyPlatformId);
  if (!reply) {
    throw new DomainError('unknown_reply', `no reply ${command.replyPlatformId} of this workspace to comment ${state.data.platformCommentId}`, {
      details: { replyId: command.replyPlatformId },
    });
  }
  if (reply.deleted) return [];
  return [
    { type: 'CommentReplyDeleted', data: { commentId: state.data.commentId, accountId: reply.accountId, replyPlatformId: reply.replyPlatformId, deletedAt: command.now.toISOString() } },
  ];
}
