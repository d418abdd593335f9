import type { Platform } from './platforms';

/** An account as a post targets it, frozen at creation so history stays readable after renames. */
export interface TargetAccount {
  accountId: string;
  platform: Platform;
  handle: string;
}

export interface PostCreatedData {
  postId: string;
  workspaceId: string;
  content: string;
  mediaUrls: string[];
  firstComments: string[];
  accounts: TargetAccount[];
  scheduledAt: string | null;
  createdAt: string;
  /** Set when the create carried an Idempotency-Key: a retry with another body is refused. */
  idempotency: { key: string; requestHash: string } | null;
}

/** Events of the Post aggregate (stream post-<id>). Version 1 of each. */
export type PostEvent = { type: 'PostCreated'; data: PostCreatedData };

export type PostEventType = PostEvent['type'];

export const POST_EVENT_VERSION = 1;
