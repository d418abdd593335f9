import { CommentEvent, DomainError, LIMITS, Platform } from '@app/contracts';
import { RecordReply, StartReply } from './comment.commands';
import { CommentState, ExistingComment, StartedReply } from './comment.state';
import { unknownComment } from './unknown-comment';

/** The account a reply would speak as, as far as the rules need it. */
export interface ReplyingAccount {
  accountId: string;
  platform: Platform;
  connected: boolean;
}

/**
 * The reply rules that need the comment (spec, reply rules 1 and 2): checked
 * before anything is sent, so a refusal sends nothing.
 */
export function checkReply(state: CommentState, account: ReplyingAccount): asserts state is ExistingComment {
  if (!state.exists) throw unknownComment();
  if (account.platform !== state.data.platform) {
    throw new DomainError('account_platform_mismatch', `account ${account.accountId} is on ${account.platform}; the comment is on ${state.data.platform}`, {
      details: { accountId: account.accountId, accountPlatform: account.platform, commentPlatform: state.data.platform },
    });
  }
  if (!account.connected) throw new DomainError('account_disconnected', `account ${account.accountId} is disconnected; connect it again to reply as it`);
}

/** A reply is 1 to 2,200 characters (code points), not only blanks. */
export function checkReplyMessage(message: string): void {
  const length = Array.from(message).length;
  if (message.trim() === '' || length > LIMITS.replyMaxChars) {
    throw new DomainError('reply_message_invalid', `message must be 1 to ${LIMITS.replyMaxChars} characters; it has ${length}`, { details: { length } });
  }
}

/**
 * The reply a request names when it was started before and never recorded: the same account
 * and the same text (a client's retry after a lost answer or a crash). Its platform call may
 * have happened, so the caller looks for it on the platform before posting.
 */
export function startedReplyOf(state: ExistingComment, accountId: string, message: string): StartedReply | undefined {
  return state.startedReplies.find((started) => started.accountId === accountId && started.message === message);
}

/** Before the platform is called: CommentReplyStarted, unless this reply was already started (its retry continues it). */
export function decideStartReply(command: StartReply, state: CommentState): CommentEvent[] {
  if (!state.exists) throw unknownComment();
  const { accountId, message, replyKey } = command;
  if (startedReplyOf(state, accountId, message)) return [];
  return [{ type: 'CommentReplyStarted', data: { commentId: state.data.commentId, replyKey, accountId, message, startedAt: command.now.toISOString() } }];
}

/**
 * A reply the platform accepted (or a retry found there) is recorded on the comment it answers,
 * completing its start. A platform id already recorded is the same reply found twice: nothing more.
 */
export function decideRecordReply(command: RecordReply, state: CommentState): CommentEvent[] {
  if (!state.exists) throw unknownComment();
  const { accountId, repliedAs, replyPlatformId, message, replyKey, reconciled } = command;
  if (state.replies.some((reply) => reply.replyPlatformId === replyPlatformId)) return [];
  return [
    {
      type: 'CommentReplied',
      data: { commentId: state.data.commentId, accountId, repliedAs, replyPlatformId, message, repliedAt: command.now.toISOString(), replyKey, ...(reconciled ? { reconciled } : {}) },
    },
  ];
}
