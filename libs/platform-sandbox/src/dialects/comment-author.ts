import type { SandboxItem, SandboxStore } from '../store';

/** A comment's author as platforms name one in their comment listings. */
export interface CommentAuthor {
  /** The platform's id for the author (page / IG user / X user id, channel id, DID, account id). */
  id: string;
  /** Without the @. */
  handle: string;
  displayName: string;
}

/**
 * Who wrote a comment, named as the platform's listing names its author: an account that
 * replied through the API by its identity (the one its token belongs to: platform id, handle,
 * display name), so a connector can know its own replies; a commenter added through the control
 * API, which has no identity, by the name it was given, with an id in the platform's shape made
 * from that name (`commenterId`).
 */
export function commentAuthor(store: SandboxStore, item: SandboxItem, commenterId: (name: string) => string): CommentAuthor {
  const identity = store.auth.identity(item.account);
  if (identity) return { id: identity.platformAccountId, handle: identity.handle, displayName: identity.displayName };
  return { id: commenterId(item.author), handle: item.author, displayName: item.author };
}
