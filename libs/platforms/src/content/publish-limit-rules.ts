import type { PlatformOptionValues } from '@app/contracts';
import type { MediaRef } from '@app/media';
import type { PlatformError } from '../connector';
import { checkText, firstRefusal, requireMedia, requireText, TextRule } from './content-rules';
import { mediaCountRefusal, PlatformMediaRules } from './media-rules';

/**
 * What one platform refuses before any request, declared once by its connector: the connector
 * checks a publication by it, and the posts service checks a post by it when it is written
 * (publish-limits.ts), so what was accepted is what the connector sends.
 */
export interface PublishLimits {
  name: string;
  text: TextRule[];
  media: PlatformMediaRules;
  /** What the platform publishes when it publishes media only (YouTube videos...); absent: text alone is a post. */
  mediaOnly?: string;
  /** The connector sends the text trimmed, so it is measured trimmed. */
  trims: boolean;
  /** How the platform's options change what is checked (the text it counts, what the media list must be); absent: they do not. */
  shapedBy?: (text: string, media: readonly MediaRef[], options: PlatformOptionValues) => { text: string; refusal: PlatformError | null };
}

/**
 * What `limits` refuse in a publication (text measured the platform's way, media required or
 * counted, alt text length, what its options require), or null. What needs the media's bytes
 * (type, size, duration) is checked once they are fetched (withCheckedMedia).
 */
export function limitRefusal(limits: PublishLimits, publication: { content: string; media: readonly MediaRef[]; options?: PlatformOptionValues }): PlatformError | null {
  const text = limits.trims ? publication.content.trim() : publication.content;
  const shaped = limits.shapedBy?.(text, publication.media, publication.options ?? {}) ?? { text, refusal: null };
  return firstRefusal(
    limits.mediaOnly ? requireMedia(publication.media.map((item) => item.url), limits.mediaOnly) : publication.media.length === 0 ? requireText(text) : null,
    checkText(shaped.text, ...limits.text),
    mediaCountRefusal(publication.media, limits.media, limits.name),
    shaped.refusal,
  );
}

/** Whether `text` keeps the text rules of `limits`, measured as the connector measures it. */
export function fitsLimitText(limits: PublishLimits, text: string): boolean {
  return checkText(limits.trims ? text.trim() : text, ...limits.text) === null;
}
