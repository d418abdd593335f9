import type { Platform } from './platforms';
import type { AltTexts } from './post-events';

/**
 * One part of a thread as the request gives it: what follows the post's own content, in order.
 * `altText` pairs with the part's own `mediaUrls`, as a post's does.
 */
export interface ThreadPartInput {
  content: string;
  mediaUrls?: string[];
  altText?: Array<string | null>;
}

/** A thread part as stored: every field present ([] for none), checked with the create rules. */
export interface ThreadPart {
  content: string;
  mediaUrls: string[];
  altText: AltTexts;
}

/**
 * At most this many parts after the post's own content: Buffer's and Typefully's bound (25 posts
 * in a thread), far above what any platform's reply chain is read to.
 */
export const THREAD_MAX_PARTS = 25;

/**
 * The platforms whose posts answer posts: a thread is a reply chain there (each part replies to
 * the one before: X `reply.in_reply_to_tweet_id`, Threads `reply_to_id`, Bluesky `reply.root` and
 * `reply.parent`, Mastodon `in_reply_to_id`). Elsewhere the parts are comments under the post.
 */
export const REPLY_CHAIN_PLATFORMS: readonly Platform[] = ['x', 'threads', 'bluesky', 'mastodon'];

export function hasReplyChains(platform: Platform): boolean {
  return REPLY_CHAIN_PLATFORMS.includes(platform);
}

/** What one thread part became on one account: its platform id once posted, or why it failed. */
export interface ThreadPartResult {
  index: number;
  status: 'posted' | 'failed';
  platformPostId?: string;
  /** When posted: the part's permalink, as the platform gave it (absent on parts recorded before urls were kept). */
  url?: string;
  error?: { code: string; message: string; retryable: boolean };
}

/** What one first comment became on one account: its platform id (and permalink) once posted, or why it failed. */
export interface FirstCommentResult {
  index: number;
  status: 'posted' | 'failed';
  platformCommentId?: string;
  url?: string;
  error?: { code: string; message: string; retryable: boolean };
}
