import type { Platform } from '@app/contracts';
import type { PlatformDialect } from '../dialect';
import { blueskyDialect } from './bluesky';
import { facebookDialect } from './facebook';
import { instagramDialect } from './instagram';
import { linkedinDialect } from './linkedin';
import { mastodonDialect } from './mastodon';
import { pinterestDialect } from './pinterest';
import { threadsDialect } from './threads';
import { tiktokDialect } from './tiktok';
import { xDialect } from './x';
import { youtubeDialect } from './youtube';

export const DIALECTS: Record<Platform, PlatformDialect> = {
  x: xDialect,
  facebook: facebookDialect,
  instagram: instagramDialect,
  linkedin: linkedinDialect,
  threads: threadsDialect,
  bluesky: blueskyDialect,
  mastodon: mastodonDialect,
  tiktok: tiktokDialect,
  youtube: youtubeDialect,
  pinterest: pinterestDialect,
};
