// What can be asked of a comment: the Comment aggregate's command vocabulary (routed in comment.decider.ts).
import { CommentReceivedData, CommentSentiment } from '@app/contracts';

/** Store a comment seen on a platform (a poll or a webhook); seen before, it changes nothing. */
export interface ReceiveComment {
  type: 'ReceiveComment';
  comment: Omit<CommentReceivedData, 'receivedAt' | 'commentedAt'> & { commentedAt: string | null };
  now: Date;
}

/**
 * Record that a reply is about to be posted (checkReply said it could be sent), before the
 * platform is called; a reply of the same account and text already started and not recorded
 * is that one (its retry), so nothing new is started.
 */
export interface StartReply {
  type: 'StartReply';
  accountId: string;
  message: string;
  /** The key a new start takes (the caller's fresh id; the decider stays pure). */
  replyKey: string;
  now: Date;
}

/** Record a reply the platform accepted, or a started reply a retry found on the platform (`reconciled`). */
export interface RecordReply {
  type: 'RecordReply';
  accountId: string;
  repliedAs: string;
  replyPlatformId: string;
  message: string;
  /** The CommentReplyStarted this reply completes. */
  replyKey: string;
  reconciled: boolean;
  now: Date;
}

/** Record that the platform hid the comment (HideComment) or shows it again (UnhideComment); planned with the same command before the platform is called. */
export interface SetCommentHidden {
  type: 'HideComment' | 'UnhideComment';
  /** The account that acts on the platform. */
  accountId: string;
  now: Date;
}

/** Record that the platform deleted one of the workspace's replies; planned with the same command before the platform is called. */
export interface DeleteReply {
  type: 'DeleteReply';
  replyPlatformId: string;
  now: Date;
}

/** Store what the current classifier reads in the comment (the reclassify tool). */
export interface ReclassifyComment {
  type: 'ReclassifyComment';
  classification: { sentiment: CommentSentiment; tags: string[] };
  classifierVersion: string;
  now: Date;
}

export type CommentCommand = ReceiveComment | StartReply | RecordReply | SetCommentHidden | DeleteReply | ReclassifyComment;
