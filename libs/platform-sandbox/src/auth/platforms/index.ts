import type { Platform } from '@app/contracts';
import { PLATFORMS } from '@app/contracts';
import type { SandboxSignIn } from '../sign-in';
import { blueskySignIn } from './bluesky';
import { facebookSignIn } from './facebook';
import { instagramSignIn } from './instagram';
import { linkedinSignIn } from './linkedin';
import { mastodonSignIn } from './mastodon';
import { pinterestSignIn } from './pinterest';
import { threadsSignIn } from './threads';
import { tiktokSignIn } from './tiktok';
import { xSignIn } from './x';
import { youtubeSignIn } from './youtube';

/**
 * Until a platform's own sign-in file is written: numeric ids, hour-long access tokens
 * without refresh, no sign-in routes. Each platform's file in this folder replaces it.
 */
function placeholder(platform: Platform): SandboxSignIn {
  return {
    platform,
    newAccountId: (auth) => String(9_000_000_000 + auth.nextSeq()),
    issueTokens: (auth, identity, clientId, scopes) => auth.issue(identity.key, { clientId, scopes, accessTtlSeconds: 3600 }),
    routes: [],
  };
}

export const SIGN_IN: Record<Platform, SandboxSignIn> = {
  ...(Object.fromEntries(PLATFORMS.map((platform) => [platform, placeholder(platform)])) as Record<Platform, SandboxSignIn>),
  bluesky: blueskySignIn,
  mastodon: mastodonSignIn,
  linkedin: linkedinSignIn,
  x: xSignIn,
  facebook: facebookSignIn,
  instagram: instagramSignIn,
  threads: threadsSignIn,
  youtube: youtubeSignIn,
  tiktok: tiktokSignIn,
  pinterest: pinterestSignIn,
};
