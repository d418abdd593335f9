import type { Platform } from '@app/contracts';
import type { RouteContext } from '../dialect';
import { PlatformRefusal } from '../dialect';
import type { SandboxItem } from '../store';

/** How one platform refuses a comment action, in its own error shape (status, code, message). */
export interface ModerationRefusals {
  /** No such comment (or one already deleted). */
  notFound: (id: string) => PlatformRefusal;
  /** The comment exists but this token may not act on it. */
  notAllowed: (id: string) => PlatformRefusal;
}

/**
 * A comment the token's identity may hide: one under a post that identity published (every
 * platform with hiding lets the author of the post moderate its conversation, and nobody else).
 */
export function commentOnOwnPost(ctx: RouteContext, platform: Platform, id: string, refusals: ModerationRefusals): SandboxItem {
  const comment = ctx.store.find(platform, id);
  if (!comment || comment.kind !== 'comment') throw refusals.notFound(id);
  const post = comment.postId === null ? undefined : ctx.store.find(platform, comment.postId);
  if (!post || post.account !== ctx.account) throw refusals.notAllowed(id);
  return comment;
}

/** A comment the token's identity wrote itself: the only kind every platform lets its author delete. */
export function ownComment(ctx: RouteContext, platform: Platform, id: string, refusals: ModerationRefusals): SandboxItem {
  const comment = ctx.store.find(platform, id);
  if (!comment || comment.kind !== 'comment') throw refusals.notFound(id);
  if (comment.account !== ctx.account) throw refusals.notAllowed(id);
  return comment;
}
