import type { Platform, PlatformOptionValues } from '@app/contracts';
import type { MediaRef } from '@app/media';
import type { PlatformError } from '../connector';
import { BLUESKY_LIMITS } from '../connectors/bluesky.connector';
import { FACEBOOK_LIMITS } from '../connectors/facebook.connector';
import { INSTAGRAM_LIMITS } from '../connectors/instagram.connector';
import { LINKEDIN_LIMITS } from '../connectors/linkedin.connector';
import { MASTODON_LIMITS } from '../connectors/mastodon.connector';
import { PINTEREST_LIMITS } from '../connectors/pinterest.connector';
import { THREADS_LIMITS } from '../connectors/threads.connector';
import { TIKTOK_LIMITS } from '../connectors/tiktok.connector';
import { X_LIMITS } from '../connectors/x.connector';
import { YOUTUBE_LIMITS } from '../connectors/youtube.connector';
import { fitsLimitText, limitRefusal, PublishLimits } from './publish-limit-rules';

/** The limits each connector's publish checks before any request, by platform (the limits are the connectors' own). */
const PUBLISH_LIMITS: Record<Platform, PublishLimits> = {
  x: X_LIMITS,
  facebook: FACEBOOK_LIMITS,
  instagram: INSTAGRAM_LIMITS,
  linkedin: LINKEDIN_LIMITS,
  threads: THREADS_LIMITS,
  bluesky: BLUESKY_LIMITS,
  mastodon: MASTODON_LIMITS,
  tiktok: TIKTOK_LIMITS,
  youtube: YOUTUBE_LIMITS,
  pinterest: PINTEREST_LIMITS,
};

/**
 * What `platform`'s connector would refuse before any request, or null: lets a post shaped for
 * a platform be refused when it is written rather than fail on that platform when it is
 * published. What needs the media's bytes (type, size, duration) is still checked at publication.
 */
export function publishLimitRefusal(platform: Platform, publication: { content: string; media: readonly MediaRef[]; options?: PlatformOptionValues }): PlatformError | null {
  return limitRefusal(PUBLISH_LIMITS[platform], publication);
}

/** Whether `text` keeps `platform`'s text rules, measured as its connector measures it (auto-split packs thread parts by it). */
export function fitsPlatformText(platform: Platform, text: string): boolean {
  return fitsLimitText(PUBLISH_LIMITS[platform], text);
}
