import type { AltTexts } from './post-events';
import type { PostStatus } from './post-status';

/** Body of POST /api/v1/posts after shape validation (types only; rules are the domain's). */
export interface CreatePostBody {
  content?: string;
  accounts?: string[];
  accountIds?: string[];
  platforms?: string[];
  scheduledAt?: string;
  publishNow?: boolean;
  mediaUrls?: string[];
  /** Alt text per media item, in the order of mediaUrls (null or "" for none); see AltTexts. */
  altText?: Array<string | null>;
  firstComments?: string[];
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
  post: { id: string; status: PostStatus; scheduledAt: string | null; platforms: string[] };
  accounts: ResolvedAccountEcho[];
  results: PublishResult[];
  note: string;
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
}

/** GET /api/v1/posts/:id: the list item with the full body and what the post targets. */
export interface PostDetail extends PostListItem {
  accounts: ResolvedAccountEcho[];
  mediaUrls: string[];
  /** Present when some media item has alt text: one entry per mediaUrls entry, null where it has none. */
  altText?: AltTexts;
  firstComments: string[];
  version: number;
}
