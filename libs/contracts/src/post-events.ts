import type { Platform } from './platforms';
import type { PostOverrides } from './post-overrides';
import type { PlatformOptions } from './post-platform-options';
import type { ThreadPart } from './post-thread';

/** An account as a post targets it, frozen at creation so history stays readable after renames. */
export interface TargetAccount {
  accountId: string;
  platform: Platform;
  handle: string;
}

export interface PublishError {
  code: string;
  message: string;
  retryable: boolean;
}

/**
 * The alt text of a post's media: [] when no item has any, otherwise one entry
 * per mediaUrls entry, in its order, null for an item without.
 */
export type AltTexts = Array<string | null>;

export interface PostCreatedData {
  postId: string;
  workspaceId: string;
  content: string;
  mediaUrls: string[];
  /** Absent from events written before alt text existed: none. */
  altText?: AltTexts;
  firstComments: string[];
  /** Per platform or account (see PostOverrides); absent when none, as in events written before they existed. */
  overrides?: PostOverrides;
  /** Per platform id (see PlatformOptions); absent when none. */
  platformOptions?: PlatformOptions;
  /** Parts published after the content, in order (see post-thread.ts); absent when none. */
  thread?: ThreadPart[];
  /** Over-long content becomes a numbered thread where the platform has reply chains (see splitIntoThread); absent: false. */
  autoSplit?: boolean;
  accounts: TargetAccount[];
  scheduledAt: string | null;
  createdAt: string;
  /** Set when the create carried an Idempotency-Key: a retry with another body is refused. */
  idempotency: { key: string; requestHash: string } | null;
}

/**
 * Publication of the post to `accounts` was asked for: all of them (publish now, a
 * draft published, a scheduled post firing) or the failed ones (a retry). The
 * publisher consumes it; it carries all it needs.
 */
export interface PublishRequestedData {
  postId: string;
  workspaceId: string;
  /** 1 for the first publication, +1 per retry. */
  attempt: number;
  accounts: TargetAccount[];
  content: string;
  mediaUrls: string[];
  /** Absent from events written before alt text existed: none. */
  altText?: AltTexts;
  firstComments: string[];
  /** The post's overrides: what each account publishes is publicationFor(this, account). Absent when none. */
  overrides?: PostOverrides;
  /** The post's platform options; an account's platform call carries those of its platform. Absent when none. */
  platformOptions?: PlatformOptions;
  /** The post's thread parts; absent when none. */
  thread?: ThreadPart[];
  autoSplit?: boolean;
  /**
   * A retry's accounts that are live with a thread stopped at a failed part: not published again,
   * their thread goes on after its last posted part. Absent: none.
   */
  threadResumes?: TargetAccount[];
  requestedAt: string;
}

/** The recorded boundary before the one irreversible platform call for an account. */
export interface AccountPublishStartedData {
  postId: string;
  accountId: string;
  attempt: number;
  /**
   * The publisher's handler run that recorded it (absent on events recorded before delivery ids):
   * a start repeated with the same id is that run asking again after losing the answer.
   */
  deliveryId?: string;
  startedAt: string;
}

export interface AccountPublishedData {
  postId: string;
  accountId: string;
  platform: Platform;
  attempt: number;
  platformPostId: string;
  url: string;
  /** True when the outcome was found on the platform after an interrupted attempt. */
  reconciled: boolean;
  publishedAt: string;
}

export interface AccountPublishFailedData {
  postId: string;
  accountId: string;
  platform: Platform;
  attempt: number;
  error: PublishError;
  failedAt: string;
}

/** Every account of the attempt has an outcome; status is over all the post's accounts. */
export interface PublishCompletedData {
  postId: string;
  attempt: number;
  status: 'published' | 'partial' | 'failed';
  /** When the post first went live on any account; null if it never did. */
  publishedAt: string | null;
  errorMessage: string | null;
  completedAt: string;
}

export interface FirstCommentPostedData {
  postId: string;
  accountId: string;
  index: number;
  platformCommentId: string;
  /** Its permalink as the platform answered it; absent on events recorded before urls were kept. */
  url?: string;
  postedAt: string;
}

export interface FirstCommentFailedData {
  postId: string;
  accountId: string;
  index: number;
  error: PublishError;
  failedAt: string;
}

/**
 * The recorded boundary before one item's platform call after an account's post (a first comment:
 * FirstCommentStarted, a thread part: ThreadPartStarted): a redelivery finding it without an
 * outcome never sends the item again.
 */
export interface FollowUpStartedData {
  postId: string;
  accountId: string;
  index: number;
  startedAt: string;
}

/** One thread part went live on an account (replying to the part before it, or under the post): recorded at its own boundary. */
export interface ThreadPartPostedData {
  postId: string;
  accountId: string;
  index: number;
  platformPostId: string;
  /** Its permalink as the platform answered it; absent on events recorded before urls were kept. */
  url?: string;
  postedAt: string;
}

/** One thread part failed on an account: the thread stops there until a retry resumes it. */
export interface ThreadPartFailedData {
  postId: string;
  accountId: string;
  index: number;
  error: PublishError;
  failedAt: string;
}

/** A draft, or a scheduled post before its time, changed: the new value of every field that changed. */
export interface PostEditedData {
  postId: string;
  content?: string;
  mediaUrls?: string[];
  /** Set whenever mediaUrls or the alt texts change (new media without alt text: []). */
  altText?: AltTexts;
  firstComments?: string[];
  /** The new overrides, whole ({} when all were removed). */
  overrides?: PostOverrides;
  /** The new platform options, whole ({} when all were removed). */
  platformOptions?: PlatformOptions;
  /** The new thread, whole ([] when it was removed). */
  thread?: ThreadPart[];
  autoSplit?: boolean;
  accounts?: TargetAccount[];
  /** null: unscheduled (the post is a draft again). */
  scheduledAt?: string | null;
  editedAt: string;
}

export interface PostDeletedData {
  postId: string;
  deletedAt: string;
}

/**
 * A scheduled post found more than six hours past its time (error code schedule_expired), or due
 * while still awaiting approval or rejected (approval_missed): failed, never published late.
 */
export interface ScheduledPostExpiredData {
  postId: string;
  scheduledAt: string;
  error: PublishError;
  expiredAt: string;
}

/**
 * A post written by a key without the approve scope, in a workspace that requires approval, is
 * held for review (see the README, Approvals): it keeps its status, and is not published until approved.
 * `requestedBy`: the key id that created or edited it.
 */
export interface PostApprovalRequestedData {
  postId: string;
  requestedBy: string;
  requestedAt: string;
}

/** A reviewer (a key with the approve scope) approved the post: it publishes as its status says. */
export interface PostApprovedData {
  postId: string;
  approvedBy: string;
  note: string | null;
  approvedAt: string;
}

/** A reviewer refused the post: it is not published (a scheduled one fails at its time with approval_missed) until edited and approved. */
export interface PostRejectedData {
  postId: string;
  rejectedBy: string;
  note: string | null;
  rejectedAt: string;
}

/** Events of the Post aggregate (stream post-<id>). Version 1 of each. */
export type PostEvent =
  | { type: 'PostCreated'; data: PostCreatedData }
  | { type: 'PublishRequested'; data: PublishRequestedData }
  | { type: 'AccountPublishStarted'; data: AccountPublishStartedData }
  | { type: 'AccountPublished'; data: AccountPublishedData }
  | { type: 'AccountPublishFailed'; data: AccountPublishFailedData }
  | { type: 'PublishCompleted'; data: PublishCompletedData }
  | { type: 'FirstCommentStarted'; data: FollowUpStartedData }
  | { type: 'FirstCommentPosted'; data: FirstCommentPostedData }
  | { type: 'FirstCommentFailed'; data: FirstCommentFailedData }
  | { type: 'ThreadPartStarted'; data: FollowUpStartedData }
  | { type: 'ThreadPartPosted'; data: ThreadPartPostedData }
  | { type: 'ThreadPartFailed'; data: ThreadPartFailedData }
  | { type: 'PostEdited'; data: PostEditedData }
  | { type: 'PostDeleted'; data: PostDeletedData }
  | { type: 'ScheduledPostExpired'; data: ScheduledPostExpiredData }
  | { type: 'PostApprovalRequested'; data: PostApprovalRequestedData }
  | { type: 'PostApproved'; data: PostApprovedData }
  | { type: 'PostRejected'; data: PostRejectedData };

export type PostEventType = PostEvent['type'];

export const POST_EVENT_VERSION = 1;
