import type { ErrorBody } from './error-codes';
import type { CreatePostBody } from './post-api';
import type { PublishError } from './post-events';

export interface CreatePostCommand {
  workspaceId: string;
  body: CreatePostBody;
  idempotencyKey: string | null;
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
}

/** posts.edit: the fields given replace the post's (accounts resolved like a create's). */
export interface EditPostCommand {
  workspaceId: string;
  postId: string;
  changes: EditPostBody;
  /** From If-Match: the version the client last saw; a stale one is refused (412). */
  expectedVersion: number | null;
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

/** posts.abandon-publication: the scheduler found a publication running past every bound. */
export interface AbandonPublicationCommand {
  postId: string;
}

/** posts.start-account-publish: the publisher records the boundary before calling the platform. */
export interface StartAccountPublishCommand {
  postId: string;
  accountId: string;
  attempt: number;
}

/**
 * - started: go ahead, call the platform (this caller owns the attempt);
 * - in_doubt: an earlier delivery started it and never recorded an outcome (it
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

/** posts.record-first-comment */
export interface RecordFirstCommentCommand {
  postId: string;
  accountId: string;
  index: number;
  outcome: { status: 'posted'; platformCommentId: string } | { status: 'failed'; error: PublishError };
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
    /** Indexes of firstComments already recorded (posted or failed) for this account. */
    firstCommentsDone: number[];
  }>;
}

/** What every command handler answers over NATS request/reply. */
export type CommandReply<T> = { ok: true; value: T } | { ok: false; error: ErrorBody['error'] };
