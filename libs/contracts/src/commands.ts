import type { CreatePostBody } from './post-api';
import type { PublishError } from './post-events';

/**
 * Who sends a posts command, as the gateway authenticated it: the key id (recorded as who asked
 * for or gave an approval) and whether it has the approve scope. The posts service reads the
 * workspace's approvalRequired itself; the Post decider decides what is held for review.
 * Absent (internal callers): treated as a reviewer.
 */
export interface CommandActor {
  keyId: string;
  canApprove: boolean;
}

export interface CreatePostCommand {
  workspaceId: string;
  body: CreatePostBody;
  idempotencyKey: string | null;
  actor?: CommandActor;
}

/** posts.approve and posts.reject: a reviewer's decision on a post held for review. */
export interface ReviewPostCommand {
  workspaceId: string;
  postId: string;
  actor: CommandActor;
  note: string | null;
}

/**
 * What the posts service answers to create, publish and retry: the gateway
 * builds the HTTP answer from the read model once it has passed `position`.
 */
export interface PostCommandReply {
  postId: string;
  /** Global position of the post's last event ("commit:prepare"). */
  position: string;
  /** True when a create repeated an earlier request with the same Idempotency-Key (nothing appended). */
  replayed: boolean;
}

/** posts.publish (a draft or a scheduled post, now) and posts.retry (the failed accounts of a partial or failed post). */
export interface PublishPostCommand {
  workspaceId: string;
  postId: string;
  actor?: CommandActor;
}

/** posts.edit: the fields given replace the post's (accounts resolved like a create's). */
export interface EditPostCommand {
  workspaceId: string;
  postId: string;
  changes: EditPostBody;
  /** From If-Match: the version the client last saw; a stale one is refused (412). */
  expectedVersion: number | null;
  actor?: CommandActor;
}

export interface EditPostBody {
  content?: string;
  accounts?: string[];
  accountIds?: string[];
  platforms?: string[];
  /** Replacing mediaUrls without altText clears the alt texts. */
  mediaUrls?: string[];
  /** Alone, it describes the current mediaUrls. */
  altText?: Array<string | null>;
  firstComments?: string[];
  /** Replaces all the overrides ({} removes them); keys and values as in CreatePostBody. */
  overrides?: CreatePostBody['overrides'];
  /** Replaces all the platform options ({} removes them). */
  platformOptions?: CreatePostBody['platformOptions'];
  /** Replaces the whole thread ([] removes it). */
  thread?: CreatePostBody['thread'];
  autoSplit?: boolean;
  /** null unschedules (the post becomes a draft). */
  scheduledAt?: string | null;
}

/** posts.delete */
export interface DeletePostCommand {
  workspaceId: string;
  postId: string;
  expectedVersion: number | null;
}

/** posts.fire-scheduled: the scheduler found the post due; the decider decides (publish, expire, or nothing). */
export interface FireScheduledPostCommand {
  postId: string;
}

export interface FireScheduledPostReply {
  /** False when the post had nothing to fire (no longer scheduled, or not yet due): nothing appended. */
  fired: boolean;
}

/** posts.abandon-publication: the scheduler found a publication running past every bound. */
export interface AbandonPublicationCommand {
  postId: string;
}

export interface AbandonPublicationReply {
  /** False when the publication had ended meanwhile: nothing appended. */
  abandoned: boolean;
}

/** posts.start-account-publish: the publisher records the boundary before calling the platform. */
export interface StartAccountPublishCommand {
  postId: string;
  accountId: string;
  attempt: number;
  /**
   * One id per publisher handler run (a redelivery gets a new one), the same on every try of
   * this command within the run: a run that lost the answer and asks again is told `started`.
   */
  deliveryId: string;
}

/**
 * - started: go ahead, call the platform (this caller owns the attempt: it recorded the start,
 *   with this delivery id);
 * - in_doubt: another delivery started it and never recorded an outcome (it
 *   crashed, or is still running): reconcile, never call publish again;
 * - done: the account already has an outcome for this attempt; nothing to do.
 */
export type StartAccountPublishReply = { decision: 'started' | 'in_doubt' | 'done' };

/** posts.record-account-outcome */
export interface RecordAccountOutcomeCommand {
  postId: string;
  accountId: string;
  attempt: number;
  outcome: { status: 'published'; platformPostId: string; url: string; reconciled: boolean } | { status: 'failed'; error: PublishError };
}

export interface RecordAccountOutcomeReply {
  /** False when the outcome was already recorded (a redelivery): nothing appended. */
  recorded: boolean;
}

/** posts.record-first-comment: a first comment, or (kind threadPart) a thread part, each at its own boundary. */
export interface RecordFirstCommentCommand {
  postId: string;
  accountId: string;
  /** What `index` counts: the account's first comments (absent) or its thread parts. */
  kind?: 'threadPart';
  index: number;
  /** `started`: the boundary before the item's platform call, recorded once; the reply says whether this call recorded it. */
  outcome: { status: 'posted'; platformCommentId: string; url?: string } | { status: 'failed'; error: PublishError } | { status: 'started' };
}

/** Which first comments of an account are already recorded (so a redelivery posts only the rest). */
export interface RecordFirstCommentReply {
  recorded: boolean;
}

/** posts.get-publication: what the publisher needs to resume an attempt after a redelivery. */
export interface GetPublicationCommand {
  postId: string;
  attempt: number;
}

export interface PublicationState {
  accounts: Array<{
    accountId: string;
    status: 'pending' | 'started' | 'published' | 'failed';
    platformPostId: string | null;
    /** The first comments recorded for this account, by index: started (its call may have gone out), posted or failed. */
    firstCommentsDone: Array<{ index: number; status: 'started' | 'posted' | 'failed' }>;
    /** The thread parts recorded for this account, by index: started (its call may have gone out), posted (with its id) or failed. */
    threadDone: Array<{ index: number; status: 'started' | 'posted' | 'failed'; platformPostId: string | null }>;
  }>;
}
