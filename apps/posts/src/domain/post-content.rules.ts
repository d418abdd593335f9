import { AltTexts, DomainError, LIMITS } from '@app/contracts';

/** The create rules of the contract that need no lookup: content, media, first comments, schedule. */

/** Length in characters as a person counts them (code points, so an emoji is one). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function checkContent(content: string, mediaUrls: string[]): void {
  if (content.trim() === '' && mediaUrls.length === 0) throw new DomainError('content_required', 'give content, mediaUrls, or both');
  checkContentLength(content);
}

export function checkContentLength(content: string): void {
  const length = characterCount(content);
  if (length > LIMITS.contentMaxChars) {
    throw new DomainError('content_too_long', `content is ${length} characters; the limit is ${LIMITS.contentMaxChars}`);
  }
}

export function checkMediaUrls(mediaUrls: string[]): void {
  if (mediaUrls.length > LIMITS.mediaUrlsPerPost) {
    throw new DomainError('too_many_media_urls', `at most ${LIMITS.mediaUrlsPerPost} mediaUrls; ${mediaUrls.length} were given`);
  }
  mediaUrls.forEach((raw, index) => {
    if (!isAbsoluteHttpsUrl(raw)) {
      throw new DomainError('invalid_media_url', `mediaUrls[${index}] must be an absolute https:// URL`, { details: { index, value: raw } });
    }
  });
}

/**
 * altText pairs with mediaUrls entry by entry (Ayrshare's convention), so mediaUrls keeps the
 * spec's shape. A blank entry (null, "", whitespace) is no alt text, and [] is none at all (an
 * edit's way to clear them). Answers the post's AltTexts: [] when no item has any, so "none" has
 * one form in events and views.
 */
export function checkAltText(altText: ReadonlyArray<string | null>, mediaUrls: string[]): AltTexts {
  if (altText.length > 0 && altText.length !== mediaUrls.length) {
    throw new DomainError('alt_text_mismatch', `altText has ${altText.length} entries; give one per mediaUrls entry (${mediaUrls.length}), null for none`, {
      details: { altText: altText.length, mediaUrls: mediaUrls.length },
    });
  }
  const entries = altText.map((text) => (text === null || text.trim() === '' ? null : text));
  entries.forEach((text, index) => {
    const length = text === null ? 0 : characterCount(text);
    if (length > LIMITS.altTextMaxChars) {
      throw new DomainError('alt_text_too_long', `altText[${index}] is ${length} characters; the limit is ${LIMITS.altTextMaxChars}`, { details: { index, length } });
    }
  });
  return entries.every((text) => text === null) ? [] : entries;
}

function isAbsoluteHttpsUrl(raw: string): boolean {
  if (!/^https:\/\//i.test(raw)) return false;
  try {
    return new URL(raw).hostname !== '';
  } catch {
    return false;
  }
}

export function checkFirstComments(firstComments: string[]): void {
  if (firstComments.length > LIMITS.firstCommentsPerPost) {
    throw new DomainError('too_many_first_comments', `at most ${LIMITS.firstCommentsPerPost} firstComments; ${firstComments.length} were given`);
  }
  firstComments.forEach((comment, index) => {
    const length = characterCount(comment);
    if (comment.trim() === '' || length > LIMITS.firstCommentMaxChars) {
      throw new DomainError('first_comment_invalid', `firstComments[${index}] must be 1 to ${LIMITS.firstCommentMaxChars} characters`, {
        details: { index, length },
      });
    }
  });
}

/** ISO 8601 date and time with seconds optional, fractions optional, and an explicit zone (Z or ±hh:mm). */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export function checkSchedule(scheduledAt: string | undefined, publishNow: boolean, now: Date): string | null {
  if (scheduledAt === undefined) return null;
  if (publishNow) throw new DomainError('scheduled_and_publish_now', 'scheduledAt and publishNow are mutually exclusive');
  const when = ISO_DATETIME.test(scheduledAt) ? new Date(scheduledAt) : null;
  if (!when || Number.isNaN(when.getTime()) || !sameCalendarFields(scheduledAt, when)) {
    throw new DomainError('invalid_scheduled_at', 'scheduledAt must be an ISO 8601 datetime with a time zone, e.g. 2030-01-31T09:00:00Z');
  }
  if (when.getTime() <= now.getTime()) throw new DomainError('scheduled_at_in_past', 'scheduledAt must be in the future');
  return when.toISOString();
}

/** Date() rolls 2030-02-31 over to March; a real calendar date keeps its day. */
function sameCalendarFields(text: string, parsed: Date): boolean {
  const [, month, day] = /^\d{4}-(\d{2})-(\d{2})/.exec(text)!;
  const zone = /(Z|[+-]\d{2}:?\d{2})$/i.exec(text)![1];
  const offsetMinutes = zone.toUpperCase() === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  const local = new Date(parsed.getTime() + offsetMinutes * 60_000);
  return local.getUTCMonth() + 1 === Number(month) && local.getUTCDate() === Number(day);
}
