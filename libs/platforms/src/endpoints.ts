import { Platform, PLATFORMS } from '@app/contracts';

/** Base URL per platform: the real hosts by default, the sandbox (or anything else) when configured. */
export type PlatformEndpoints = Record<Platform, string>;

export const DEFAULT_PLATFORM_ENDPOINTS: PlatformEndpoints = {
  x: 'https://api.x.com',
  facebook: 'https://graph.facebook.com',
  instagram: 'https://graph.facebook.com',
  linkedin: 'https://api.linkedin.com',
  threads: 'https://graph.threads.net',
  bluesky: 'https://bsky.social',
  // Mastodon is federated: one instance for every account (see README: per-account instances are not supported yet).
  mastodon: 'https://mastodon.social',
  tiktok: 'https://open.tiktokapis.com',
  youtube: 'https://www.googleapis.com',
  pinterest: 'https://api.pinterest.com',
};

/** Every platform under one sandbox, each at its own prefix: http://127.0.0.1:4010/x, .../facebook, ... */
export function sandboxEndpoints(sandboxUrl: string): PlatformEndpoints {
  const base = sandboxUrl.replace(/\/+$/, '');
  return Object.fromEntries(PLATFORMS.map((platform) => [platform, `${base}/${platform}`])) as PlatformEndpoints;
}

/**
 * The endpoints a deployment configured: the sandbox for every platform when PLATFORM_SANDBOX_URL
 * is set, else the real hosts; PLATFORM_BASE_URL_<PLATFORM> then moves one platform.
 */
export function configuredPlatformEndpoints(sandboxUrl: string | null, baseUrls: Partial<PlatformEndpoints>): PlatformEndpoints {
  const endpoints = sandboxUrl ? sandboxEndpoints(sandboxUrl) : { ...DEFAULT_PLATFORM_ENDPOINTS };
  for (const platform of PLATFORMS) {
    const override = baseUrls[platform];
    if (override) endpoints[platform] = override.replace(/\/+$/, '');
  }
  return endpoints;
}
