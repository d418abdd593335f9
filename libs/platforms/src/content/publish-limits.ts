import type { Platform, PlatformOptionValues } from '@app/contracts';
import type { MediaRef } from '@app/media';
import type { PlatformError } from '../connector';
import { BLUESKY_MEDIA, BLUESKY_TEXT } from '../connectors/bluesky.connector';
import { FACEBOOK_MEDIA, FACEBOOK_TEXT } from '../connectors/facebook.connector';
import { INSTAGRAM_CAPTION, INSTAGRAM_HASHTAGS, INSTAGRAM_MEDIA, INSTAGRAM_MENTIONS } from '../connectors/instagram.connector';
import { LINKEDIN_COMMENTARY, LINKEDIN_MEDIA } from '../connectors/linkedin.connector';
import { countedStatus, MASTODON_MEDIA, MASTODON_TEXT } from '../connectors/mastodon.connector';
import { PINTEREST_DESCRIPTION, PINTEREST_MEDIA } from '../connectors/pinterest.connector';
import { THREADS_MEDIA, THREADS_TEXT } from '../connectors/threads.connector';
import { TIKTOK_MEDIA, TIKTOK_PHOTO_DESCRIPTION } from '../connectors/tiktok.connector';
import { X_MEDIA, X_TEXT } from '../connectors/x.connector';
import { YOUTUBE_DESCRIPTION, YOUTUBE_MEDIA } from '../connectors/youtube.connector';
import { checkText, firstRefusal, requireMedia, requireText, TextRule } from './content-rules';
import { mediaCountRefusal, PlatformMediaRules } from './media-rules';
import { MetaPlacement, placementMediaRefusal } from '../options/meta-placement';
import type { FacebookOptions, MastodonOptions } from '../options/platform-options';

/** The limits each connector's publish checks before any request, as one table (the rules are the connectors' own). */
interface PublishLimits {
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

/** Mastodon counts the content warning with the text (see countedStatus). */
const mastodonShape: PublishLimits['shapedBy'] = (text, _media, options) => ({ text: countedStatus(text, (options as MastodonOptions).spoiler_text), refusal: null });

/** A Meta placement (meta-placement.ts): a reel or a story is one media item, and a story sends no text, so none is counted. */
const metaPlacementShape =
  (platformName: string): PublishLimits['shapedBy'] =>
  (text, media, options) => {
    const placement = (options as FacebookOptions).placement as MetaPlacement | undefined;
    return { text: placement === 'story' ? '' : text, refusal: placementMediaRefusal(placement, media, platformName) };
  };

const PUBLISH_LIMITS: Record<Platform, PublishLimits> = {
  x: { name: 'X', text: [X_TEXT], media: X_MEDIA, trims: true },
  facebook: { name: 'Facebook', text: [FACEBOOK_TEXT], media: FACEBOOK_MEDIA, trims: false, shapedBy: metaPlacementShape('Facebook') },
  instagram: { name: 'Instagram', text: [INSTAGRAM_CAPTION, INSTAGRAM_HASHTAGS, INSTAGRAM_MENTIONS], media: INSTAGRAM_MEDIA, mediaOnly: 'photos and videos', trims: false, shapedBy: metaPlacementShape('Instagram') },
  linkedin: { name: 'LinkedIn', text: [LINKEDIN_COMMENTARY], media: LINKEDIN_MEDIA, trims: true },
  threads: { name: 'Threads', text: [THREADS_TEXT], media: THREADS_MEDIA, trims: false },
  bluesky: { name: 'Bluesky', text: BLUESKY_TEXT, media: BLUESKY_MEDIA, trims: true },
  mastodon: { name: 'Mastodon', text: [MASTODON_TEXT], media: MASTODON_MEDIA, trims: true, shapedBy: mastodonShape },
  // The longest text any TikTok post takes (a photo post's description); a video's shorter title is known once its bytes are.
  tiktok: { name: 'TikTok', text: [TIKTOK_PHOTO_DESCRIPTION], media: TIKTOK_MEDIA, mediaOnly: 'videos and photos', trims: false },
  youtube: { name: 'YouTube', text: [YOUTUBE_DESCRIPTION], media: YOUTUBE_MEDIA, mediaOnly: 'videos', trims: false },
  pinterest: { name: 'Pinterest', text: [PINTEREST_DESCRIPTION], media: PINTEREST_MEDIA, mediaOnly: 'images and videos', trims: false },
};

/**
 * What `platform`'s connector would refuse before any request (text measured its way, media
 * required or counted, alt text length), or null: lets a post shaped for a platform be
 * refused when it is written rather than fail on that platform when it is published. What
 * needs the media's bytes (type, size, duration) is still checked at publication.
 */
export function publishLimitRefusal(platform: Platform, publication: { content: string; media: readonly MediaRef[]; options?: PlatformOptionValues }): PlatformError | null {
  const limits = PUBLISH_LIMITS[platform];
  const text = limits.trims ? publication.content.trim() : publication.content;
  const shaped = limits.shapedBy?.(text, publication.media, publication.options ?? {}) ?? { text, refusal: null };
  return firstRefusal(
    limits.mediaOnly ? requireMedia(publication.media.map((item) => item.url), limits.mediaOnly) : publication.media.length === 0 ? requireText(text) : null,
    checkText(shaped.text, ...limits.text),
    mediaCountRefusal(publication.media, limits.media, limits.name),
    shaped.refusal,
  );
}

/** Whether `text` keeps `platform`'s text rules, measured as its connector measures it (auto-split packs thread parts by it). */
export function fitsPlatformText(platform: Platform, text: string): boolean {
  const limits = PUBLISH_LIMITS[platform];
  return checkText(limits.trims ? text.trim() : text, ...limits.text) === null;
}
