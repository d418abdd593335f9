import { CommentEvent, CommentReceivedData } from '@app/contracts';

/** The Comment aggregate as its events leave it. */
export type CommentState =
  | { exists: false }
  | {
      exists: true;
      /** As received, with the classification the last CommentReclassified gave (if any). */
      data: CommentReceivedData;
      /** The replies this workspace posted, oldest first, deleted ones included. */
      replies: OwnReply[];
      /** Replies started (CommentReplyStarted) and not yet recorded: a crash or a lost answer may have left them live. */
      startedReplies: StartedReply[];
      /** Hidden on the platform by this workspace. */
      hidden: boolean;
    };

/** One of the workspace's replies to the comment. */
export interface OwnReply {
  replyPlatformId: string;
  /** The account that wrote it: the only one that can delete it. */
  accountId: string;
  deleted: boolean;
}

/** A reply about to be posted, or whose platform answer was never recorded. */
export interface StartedReply {
  replyKey: string;
  accountId: string;
  message: string;
}

export type ExistingComment = Extract<CommentState, { exists: true }>;

export const initialState = (): CommentState => ({ exists: false });

/** Folds one event into the comment (history is fact: it never refuses). */
export function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentReceived':
      return { exists: true, data: event.data, replies: [], startedReplies: [], hidden: false };
    case 'CommentReplyStarted': {
      const comment = existing(state, event);
      const { replyKey, accountId, message } = event.data;
      return { ...comment, startedReplies: [...comment.startedReplies, { replyKey, accountId, message }] };
    }
    case 'CommentReplied': {
      const comment = existing(state, event);
      const { replyPlatformId, accountId, replyKey } = event.data;
      return {
        ...comment,
        replies: [...comment.replies, { replyPlatformId, accountId, deleted: false }],
        startedReplies: comment.startedReplies.filter((started) => started.replyKey !== replyKey),
      };
    }
    case 'CommentReplyDeleted': {
      const comment = existing(state, event);
      return { ...comment, replies: comment.replies.map((reply) => (reply.replyPlatformId === event.data.replyPlatformId ? { ...reply, deleted: true } : reply)) };
    }
    case 'CommentHidden':
      return { ...existing(state, event), hidden: true };
    case 'CommentUnhidden':
      return { ...existing(state, event), hidden: false };
    case 'CommentReclassified': {
      const comment = existing(state, event);
      return { ...comment, data: { ...comment.data, sentiment: event.data.sentiment, tags: event.data.tags } };
    }
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

/** Every event after the receipt needs the comment: a stream that starts otherwise is corrupt. */
function existing(state: CommentState, event: CommentEvent): ExistingComment {
  if (!state.exists) throw new Error(`${event.type} before CommentReceived`);
  return state;
}
