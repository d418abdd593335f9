import { Platform, PLATFORMS } from '@app/contracts';
import { DEFAULT_PLATFORM_ENDPOINTS } from '../endpoints';
import { DEFAULT_RETRY_POLICY } from '../http/retry-policy';
import type { PlatformClientOptions } from '../registry';
import type { AuthContext } from './auth-context';
import type { PlatformAuth } from './platform-auth';
import { BlueskyAuth } from './platforms/bluesky.auth';
import { FacebookAuth } from './platforms/facebook.auth';
import { LinkedInAuth } from './platforms/linkedin.auth';
import { MastodonAuth } from './platforms/mastodon.auth';
import { PinterestAuth } from './platforms/pinterest.auth';
import { ThreadsAuth } from './platforms/threads.auth';
import { TikTokAuth } from './platforms/tiktok.auth';
import { XAuth } from './platforms/x.auth';
import { YouTubeAuth } from './platforms/youtube.auth';

/** Each platform's sign-in client; one file per platform in ./platforms. */
const AUTH_FACTORIES: Record<Platform, (ctx: AuthContext) => PlatformAuth> = {
  bluesky: (ctx) => new BlueskyAuth(ctx),
  mastodon: (ctx) => new MastodonAuth(ctx),
  linkedin: (ctx) => new LinkedInAuth(ctx, { apiVersion: ctx.linkedInApiVersion }),
  x: (ctx) => new XAuth(ctx),
  // Instagram professional accounts sign in through Facebook Login: one client, both platforms.
  facebook: (ctx) => new FacebookAuth(ctx, 'facebook'),
  instagram: (ctx) => new FacebookAuth(ctx, 'instagram'),
  threads: (ctx) => new ThreadsAuth(ctx),
  youtube: (ctx) => new YouTubeAuth(ctx),
  tiktok: (ctx) => new TikTokAuth(ctx),
  pinterest: (ctx) => new PinterestAuth(ctx),
};

/** Every platform's sign-in client, built once from the endpoints (the sandbox's when configured) and the retry policy. */
export class PlatformAuthRegistry {
  private readonly clients: Map<Platform, PlatformAuth>;

  constructor(options: PlatformClientOptions = {}) {
    const endpoints = { ...DEFAULT_PLATFORM_ENDPOINTS, ...options.endpoints };
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.clients = new Map(
      PLATFORMS.map((platform) => {
        const apiBaseUrl = endpoints[platform].replace(/\/+$/, '');
        const signInBaseUrl = apiBaseUrl === DEFAULT_PLATFORM_ENDPOINTS[platform] ? null : apiBaseUrl;
        return [platform, AUTH_FACTORIES[platform]({ apiBaseUrl, signInBaseUrl, retry, linkedInApiVersion: options.linkedInApiVersion })];
      }),
    );
  }

  get(platform: Platform): PlatformAuth {
    const client = this.clients.get(platform);
    if (!client) throw new Error(`no sign-in client for platform ${platform}`);
    return client;
  }
}
