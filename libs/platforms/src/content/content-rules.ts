import type { PlatformError } from '../connector';

/** One platform's text rule: the most it takes, measured its own way. */
export interface TextRule {
  /** What the text is called on this platform, for the message (text, caption, commentary...). */
  field: string;
  max: number;
  measure(text: string): number;
  /** How the unit is called in the message (characters, graphemes, weighted characters...). */
  unit: string;
}

/**
 * `content_too_long` before any request for the first rule the text breaks (a platform may
 * have several: Bluesky's graphemes and bytes, Instagram's characters, hashtags and @ tags),
 * or null when it keeps them all.
 */
export function checkText(text: string, ...rules: TextRule[]): PlatformError | null {
  for (const rule of rules) {
    const length = rule.measure(text);
    if (length > rule.max) {
      return { code: 'content_too_long', message: `${rule.field} has ${length} ${rule.unit}; the platform allows ${rule.max}`, retryable: false };
    }
  }
  return null;
}

/** `media_required` for platforms that publish media, not text. */
export function requireMedia(mediaUrls: string[], what: string): PlatformError | null {
  if (mediaUrls.length > 0) return null;
  return { code: 'media_required', message: `this platform publishes ${what}; the post has no mediaUrls`, retryable: false };
}

/** `media_not_supported` for a media kind or count the platform cannot take. */
export function unsupportedMedia(message: string): PlatformError {
  return { code: 'media_not_supported', message, retryable: false };
}

/** `empty_content`: neither text nor media this platform can carry. */
export function requireText(text: string): PlatformError | null {
  return text.trim() === '' ? { code: 'empty_content', message: 'there is no text to publish', retryable: false } : null;
}

/** The first refusal among the checks, or null. */
export function firstRefusal(...checks: Array<PlatformError | null>): PlatformError | null {
  return checks.find((check) => check !== null) ?? null;
}
