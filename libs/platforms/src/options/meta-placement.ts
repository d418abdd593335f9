import type { MediaRef } from '@app/media';
import type { PlatformError } from '../connector';
import { unsupportedMedia } from '../content/content-rules';
import type { PublishLimits } from '../content/publish-limit-rules';
import { choice } from './option-rules';

/**
 * Where a Facebook Page or Instagram post goes (`platformOptions.facebook.placement`,
 * `platformOptions.instagram.placement`): `feed` (absent: the post as it always was), `reel`
 * or `story`. What each takes, from Meta's documentation:
 * - a reel is one video: Facebook "Reels Publishing API"
 *   (https://developers.facebook.com/docs/video-api/guides/reels-publishing), Instagram IG User
 *   Media `media_type=REELS` (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media);
 * - a story is one photo or one video: Facebook "Page Stories API"
 *   (https://developers.facebook.com/docs/page-stories-api), Instagram `media_type=STORIES`.
 *   A story shows no caption (neither API takes one for it), so the post's text is not sent.
 */
export const META_PLACEMENT = choice(['feed', 'reel', 'story']);
export type MetaPlacement = (typeof META_PLACEMENT.values)[number];

/** What a reel or a story refuses in the post's media list before any request (the count; the kind needs the bytes: each connector's placement media rules); null for the feed. */
export function placementMediaRefusal(placement: MetaPlacement | undefined, media: readonly MediaRef[], platformName: string): PlatformError | null {
  if (placement === 'reel' && media.length !== 1) return unsupportedMedia(`a ${platformName} reel is one video; the post has ${media.length} media items`);
  if (placement === 'story' && media.length !== 1) return unsupportedMedia(`a ${platformName} story is one photo or one video; the post has ${media.length} media items`);
  return null;
}

/** A placement's effect on the checks before any request (PublishLimits.shapedBy): a reel or a story is one media item, and a story sends no text, so none is counted. */
export function metaPlacementShape(platformName: string): PublishLimits['shapedBy'] {
  return (text, media, options) => {
    const placement = (options as { placement?: MetaPlacement }).placement;
    return { text: placement === 'story' ? '' : text, refusal: placementMediaRefusal(placement, media, platformName) };
  };
}
