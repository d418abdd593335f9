import type { PostMetricsSummary } from './metrics-api';
import type { AltTexts } from './post-events';
import type { PostOverride, PostOverrides } from './post-overrides';
import type { PlatformOptions } from './post-platform-options';
import type { PostStatus } from './post-status';
import type { FirstCommentResult, ThreadPartInput, ThreadPartResult } from './post-thread';

/** Body of POST /api/v1/posts after shape validation (types only; rules are the domain's). */
export interface CreatePostBody {
  content?: string;
  accounts?: string[];
  accountIds?: string[];
  platforms?: string[];
  scheduledAt?: string;
  publishNow?: boolean;
  /** Schedule at the next slot free on every targeted account's posting schedule (instead of scheduledAt). */
  queue?: boolean;
  mediaUrls?: string[];
  /** Alt text per media item, in the order of mediaUrls (null or "" for none); see AltTexts. */
  altText?: Array<string | null>;
  firstComments?: string[];
  /**
   * What a platform (`x`) or an account (`x:@acme`, an account id) publishes instead of the
   * post's fields; the more specific key wins. `content` may be left out here when every
   * targeted account gets one from an override.
   */
  overrides?: Record<string, PostOverride>;
  /** Per platform id, that platform's publishing options with their documented values (`{"x": {"reply_settings": "following"}}`). */
  platformOptions?: Record<string, Record<string, unknown>>;
  /** Parts after the content: a reply chain on X, Threads, Bluesky and Mastodon, comments under the post elsewhere (at most THREAD_MAX_PARTS). */
  thread?: ThreadPartInput[];
  /** Split over-long content into a numbered thread where the platform has reply chains, at sentence boundaries. */
  autoSplit?: boolean;
}

export interface ResolvedAccountEcho {
  accountId: string;
  platform: string;
  account: string;
}

export interface PublishResult {
  platform: string;
  accountId: string;
  accountLabel: string;
  success: boolean;
  postId?: string;
  url?: string;
  error?: { code: string; message: string; retryable: boolean };
}

export interface CreatePostResponse {
  /** approval: present when the post is held for review. */
  post: { id: string; status: PostStatus; scheduledAt: string | null; platforms: string[]; approval?: PostApproval };
  accounts: ResolvedAccountEcho[];
  results: PublishResult[];
  note: string;
}

/**
 * The answer (202, with Location) to a posts write that is recorded but that the
 * read model does not show yet: only what the command returned, the post's id.
 * GET the Location for the rest once it is there.
 */
export interface PostRecordedResponse {
  post: { id: string };
  note: string;
}

export const APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/**
 * A post held for review (see the README, Approvals): its review state, the key id that asked
 * for it (pending) or decided it, when, and the reviewer's note. Absent on a post never held.
 */
export interface PostApproval {
  state: ApprovalState;
  by: string;
  at: string;
  note: string | null;
}

/** Item of GET /api/v1/posts. */
export interface PostListItem {
  id: string;
  content: string;
  platforms: string[];
  status: PostStatus;
  scheduledAt: string | null;
  publishedAt: string | null;
  results: PublishResult[];
  errorMessage: string | null;
  createdAt: string;
  /** Present when the post was held for review. */
  approval?: PostApproval;
  /** The post's numbers summed over its accounts (analytics); null until a first collection. */
  metrics: PostMetricsSummary | null;
}

/** GET /api/v1/posts/:id: the list item with the full body and what the post targets. */
export interface PostDetail extends PostListItem {
  accounts: ResolvedAccountEcho[];
  mediaUrls: string[];
  /** Present when some media item has alt text: one entry per mediaUrls entry, null where it has none. */
  altText?: AltTexts;
  firstComments: string[];
  /** Present when the post has a thread: its parts as given. */
  thread?: Array<{ content: string; mediaUrls: string[]; altText?: AltTexts }>;
  autoSplit?: boolean;
  /** Present once some thread part was recorded: per account id, each part's id (or error), in order. */
  threadResults?: Record<string, ThreadPartResult[]>;
  /** Present once some first comment was recorded: per account id, each first comment's id and url (or error), in order. */
  firstCommentResults?: Record<string, FirstCommentResult[]>;
  /** Present when the post has overrides: as stored, keyed by platform id or account id. */
  overrides?: PostOverrides;
  /** Present when the post has platform options: keyed by platform id. */
  platformOptions?: PlatformOptions;
  version: number;
}
