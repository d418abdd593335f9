import { Platform } from '@app/contracts';

/** One published item whose numbers are collected: an account's copy of a post on its platform. */
export interface TrackedItem {
  workspaceId: string;
  postId: string;
  accountId: string;
  platform: Platform;
  platformPostId: string;
  publishedAt: Date;
}
