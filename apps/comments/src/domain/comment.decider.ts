import { CommentEvent, CommentReceivedData, DomainError, LIMITS, Platform } from '@app/contracts';

/** The Comment aggregate as its events leave it. */
export type CommentState =
  | { exists: false }
  | {
      exists: true;
      data: CommentReceivedData;
      /** Platform ids of the replies this workspace posted, oldest first. */
      replies: string[];
    };

export type ExistingComment = Extract<CommentState, { exists: true }>;

export const initialState = (): CommentState => ({ exists: false });

/** Store a comment seen on a platform (a poll or a webhook); seen before, it changes nothing. */
export interface ReceiveComment {
  type: 'ReceiveComment';
  comment: Omit<CommentReceivedData, 'receivedAt' | 'commentedAt'> & { commentedAt: string | null };
  now: Date;
}

/** Record a reply the platform accepted (checkReply said it could be sent). */
export interface RecordReply {
  type: 'RecordReply';
  accountId: string;
  repliedAs: string;
  replyPlatformId: string;
  message: string;
  now: Date;
}

export type CommentCommand = ReceiveComment | RecordReply;

export function decide(command: CommentCommand, state: CommentState): CommentEvent[] {
  switch (command.type) {
    case 'ReceiveComment':
      if (state.exists) return [];
      return [
        {
          type: 'CommentReceived',
          data: { ...command.comment, commentedAt: command.comment.commentedAt ?? command.now.toISOString(), receivedAt: command.now.toISOString() },
        },
      ];
    case 'RecordReply': {
      if (!state.exists) throw unknownComment();
      const { accountId, repliedAs, replyPlatformId, message } = command;
      return [{ type: 'CommentReplied', data: { commentId: state.data.commentId, accountId, repliedAs, replyPlatformId, message, repliedAt: command.now.toISOString() } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentReceived':
      return { exists: true, data: event.data, replies: [] };
    case 'CommentReplied':
      if (!state.exists) throw new Error('CommentReplied before CommentReceived');
      return { ...state, replies: [...state.replies, event.data.replyPlatformId] };
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

export const unknownComment = () => new DomainError('unknown_comment', 'no comment with that commentId is stored for this workspace on that platform; use a platformCommentId from GET /api/v1/comments');

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
