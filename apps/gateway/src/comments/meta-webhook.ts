import { createHmac, timingSafeEqual } from 'node:crypto';
import { findUnstorableString, IncomingComment, IngestWebhookCommentsCommand } from '@app/contracts';

/**
 * Meta signs every webhook call: X-Hub-Signature-256 is "sha256=" and the hex
 * HMAC-SHA256 of the raw body, keyed with the app secret. Compared in constant
 * time, over the exact bytes received (never re-serialised JSON).
 */
export function isValidMetaSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** The header value Meta would send for a body (tests, and replaying a captured delivery). */
export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

/** The last second of year 9999: a later time (or one before 1970) is no comment's. */
const LATEST_UNIX_SECONDS = 253_402_300_799;

/** An entry that cannot be read as a comment: skipped alone, the rest of the delivery is still taken. */
const UNREADABLE = 'unreadable';

/**
 * Meta gives created_time in Unix seconds on the page feed. A number no date can
 * be made of (-1e20, 1e300) makes the entry unreadable instead of throwing a
 * RangeError that would lose the comments after it.
 */
function timeOf(value: unknown): string | null | typeof UNREADABLE {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 && value <= LATEST_UNIX_SECONDS ? new Date(value * 1000).toISOString() : UNREADABLE;
  return str(value);
}

/** The comment replied to: none when the parent is the post itself. */
const parentUnlessPost = (parentId: string | null, postId: string): string | null => (parentId === postId ? null : parentId);

/** A Page feed change: item "comment", verb "add" (edits and removals are not new comments). */
function facebookComment(value: Json): IngestWebhookCommentsCommand | typeof UNREADABLE | null {
  if (value.item !== 'comment' || value.verb !== 'add') return null;
  const id = str(value.comment_id);
  const postId = str(value.post_id);
  if (!id || !postId) return null;
  const [pageId, postPart] = postId.split('_');
  const createdAt = timeOf(value.created_time);
  if (createdAt === UNREADABLE) return UNREADABLE;
  const comment: IncomingComment = {
    platformCommentId: id,
    author: str(obj(value.from).name) ?? 'unknown',
    text: str(value.message) ?? '',
    createdAt,
    url: postPart ? `https://www.facebook.com/${pageId}/posts/${postPart}?comment_id=${encodeURIComponent(id)}` : null,
    // parent_id is the post for a comment on it, the comment replied to for a reply
    // (Webhooks for Pages, feed: https://developers.facebook.com/docs/pages-api/webhooks-for-pages).
    parentCommentId: parentUnlessPost(str(value.parent_id), postId),
  };
  return { platform: 'facebook', platformPostId: postId, comments: [comment] };
}

/** An Instagram "comments" change: the comment and the media it is on. */
function instagramComment(value: Json): IngestWebhookCommentsCommand | null {
  const id = str(value.id);
  const mediaId = str(obj(value.media).id);
  if (!id || !mediaId) return null;
  const comment: IncomingComment = {
    platformCommentId: id,
    author: str(obj(value.from).username) ?? 'unknown',
    text: str(value.text) ?? '',
    createdAt: null,
    url: null,
    // parent_id: the IG Comment this one replies to, absent on a comment on the media
    // (Instagram webhooks reference, comments: https://developers.facebook.com/docs/graph-api/webhooks/reference/instagram).
    parentCommentId: str(value.parent_id),
  };
  return { platform: 'instagram', platformPostId: mediaId, comments: [comment] };
}

/** The comments of one delivery, and how many of its comment entries could not be read (and were left out). */
export interface MetaWebhookComments {
  commands: IngestWebhookCommentsCommand[];
  skipped: number;
}

/**
 * The new comments a webhook payload announces, one command per item.
 * object "page" with field "feed" (Facebook Pages), object "instagram" with
 * field "comments"; every other object, field or change is ignored. Never
 * throws: an entry with a value out of range, or a string storage cannot hold
 * (NUL, a lone surrogate), is skipped and counted, the others are kept.
 */
export function commentsInMetaWebhook(payload: unknown): MetaWebhookComments {
  const body = obj(payload);
  const read = body.object === 'page' ? { field: 'feed', parse: facebookComment } : body.object === 'instagram' ? { field: 'comments', parse: instagramComment } : null;
  const result: MetaWebhookComments = { commands: [], skipped: 0 };
  if (!read) return result;
  for (const change of list(body.entry).flatMap((entry) => list(obj(entry).changes))) {
    if (obj(change).field !== read.field) continue;
    const value = obj(obj(change).value);
    // Checked before reading: a lone surrogate would also make encodeURIComponent throw.
    const command = findUnstorableString(value) ? UNREADABLE : read.parse(value);
    if (command === UNREADABLE) result.skipped++;
    else if (command) result.commands.push(command);
  }
  return result;
}
