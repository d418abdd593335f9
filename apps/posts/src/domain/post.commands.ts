// What can be asked of a post: the Post aggregate's command vocabulary (routed in post.decider.ts).
import { PostOverride, PublishError, TargetAccount, ThreadPartInput } from '@app/contracts';

/**
 * What a create, edit or publish needs to decide whether the post is held for review: the
 * workspace's approvalRequired (read by the posts service), whether the sender's key has the
 * approve scope (from the gateway), and that key's id. Absent: no review (internal callers).
 */
export interface Review {
  required: boolean;
  canApprove: boolean;
  by: string;
}

export interface CreatePost {
  type: 'CreatePost';
  postId: string;
  workspaceId: string;
  content: string | undefined;
  mediaUrls: string[];
  /** As the request gave it ([] when it gave none): one entry per mediaUrls entry. */
  altText: ReadonlyArray<string | null>;
  firstComments: string[];
  /** As the request gave it ([] when it gave none). */
  thread: ThreadPartInput[];
  autoSplit: boolean;
  /** As the request gave them, keyed by platform id or account reference (see checkOverrides); absent: none. */
  overrides?: Record<string, PostOverride>;
  /** As the request gave them, keyed by platform id (see checkPlatformOptions); absent: none. */
  platformOptions?: Record<string, Record<string, unknown>>;
  /** Already resolved from the request's references (see resolveAccountRefs). */
  accounts: TargetAccount[];
  scheduledAt: string | undefined;
  publishNow: boolean;
  idempotency: { key: string; requestHash: string } | null;
  review?: Review;
  now: Date;
}

/** Publish a draft, or a scheduled post ahead of (or at) its time. */
export interface PublishPost {
  type: 'PublishPost';
  review?: Review;
  now: Date;
}

/** A reviewer's decision (approve scope) on a post held for review; `by` is the reviewer's key id. */
export interface ApprovePost {
  type: 'ApprovePost';
  by: string;
  note: string | null;
  now: Date;
}

export interface RejectPost {
  type: 'RejectPost';
  by: string;
  note: string | null;
  now: Date;
}

/** Publish again to the accounts that failed; never touches one that succeeded. */
export interface RetryPublish {
  type: 'RetryPublish';
  now: Date;
}

export interface StartAccountPublish {
  type: 'StartAccountPublish';
  accountId: string;
  attempt: number;
  /** The publisher's handler run asking (see StartAccountPublishCommand). */
  deliveryId: string;
  now: Date;
}

export interface RecordAccountOutcome {
  type: 'RecordAccountOutcome';
  accountId: string;
  attempt: number;
  outcome: { status: 'published'; platformPostId: string; url: string; reconciled: boolean } | { status: 'failed'; error: PublishError };
  now: Date;
}

/** A first comment's outcome, or (kind threadPart) a thread part's: each recorded at its own boundary. */
export interface RecordFirstComment {
  type: 'RecordFirstComment';
  accountId: string;
  kind?: 'threadPart';
  index: number;
  /** For a thread part, platformCommentId is the part's platform id (a post in a reply chain, a comment elsewhere). */
  /** `started`: the item's boundary before its platform call. */
  outcome: { status: 'posted'; platformCommentId: string; url?: string } | { status: 'failed'; error: PublishError } | { status: 'started' };
  now: Date;
}

/** Change a draft, or a scheduled post before its time; `accounts` already resolved. */
export interface EditPost {
  type: 'EditPost';
  changes: {
    content?: string;
    mediaUrls?: string[];
    altText?: ReadonlyArray<string | null>;
    firstComments?: string[];
    thread?: ThreadPartInput[];
    autoSplit?: boolean;
    /** All of them, as the request gave them ({} removes them). */
    overrides?: Record<string, PostOverride>;
    /** All of them, as the request gave them ({} removes them). */
    platformOptions?: Record<string, Record<string, unknown>>;
    accounts?: TargetAccount[];
    scheduledAt?: string | null;
  };
  review?: Review;
  now: Date;
}

export interface DeletePost {
  type: 'DeletePost';
  now: Date;
}

/** The scheduler found the post due: publish it, expire it if more than six hours late, or do nothing. */
export interface FireScheduledPost {
  type: 'FireScheduledPost';
  now: Date;
}

/** The scheduler found the publication running past every bound: close the accounts still without an outcome. */
export interface AbandonPublication {
  type: 'AbandonPublication';
  now: Date;
}

export type PostCommand =
  | AbandonPublication
  | ApprovePost
  | RejectPost
  | CreatePost
  | PublishPost
  | RetryPublish
  | StartAccountPublish
  | RecordAccountOutcome
  | RecordFirstComment
  | EditPost
  | DeletePost
  | FireScheduledPost;
