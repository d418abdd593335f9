import type { Platform } from '@app/contracts';
import { BLUESKY_DOCUMENTED_SCOPES } from './bluesky.scopes';
import type { ScopeTable } from './documented-scopes';
import { FACEBOOK_DOCUMENTED_SCOPES } from './facebook.scopes';
import { INSTAGRAM_DOCUMENTED_SCOPES } from './instagram.scopes';
import { LINKEDIN_DOCUMENTED_SCOPES } from './linkedin.scopes';
import { MASTODON_DOCUMENTED_SCOPES } from './mastodon.scopes';
import { PINTEREST_DOCUMENTED_SCOPES } from './pinterest.scopes';
import { THREADS_DOCUMENTED_SCOPES } from './threads.scopes';
import { TIKTOK_DOCUMENTED_SCOPES } from './tiktok.scopes';
import { X_DOCUMENTED_SCOPES } from './x.scopes';
import { YOUTUBE_DOCUMENTED_SCOPES } from './youtube.scopes';

export * from './documented-scopes';
export * from './analytics-scopes';

/** Each platform's table of the endpoints we call and the scopes its documentation requires (one file per platform). */
export const DOCUMENTED_SCOPES: Record<Platform, ScopeTable> = {
  x: X_DOCUMENTED_SCOPES,
  facebook: FACEBOOK_DOCUMENTED_SCOPES,
  instagram: INSTAGRAM_DOCUMENTED_SCOPES,
  threads: THREADS_DOCUMENTED_SCOPES,
  linkedin: LINKEDIN_DOCUMENTED_SCOPES,
  bluesky: BLUESKY_DOCUMENTED_SCOPES,
  mastodon: MASTODON_DOCUMENTED_SCOPES,
  tiktok: TIKTOK_DOCUMENTED_SCOPES,
  youtube: YOUTUBE_DOCUMENTED_SCOPES,
  pinterest: PINTEREST_DOCUMENTED_SCOPES,
};
