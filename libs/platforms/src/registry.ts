import { Platform } from '@app/contracts';
import { MediaFetcher, MediaFetcherOptions } from '@app/media';
import type { PlatformConnector } from './connector';
import { BlueskyConnector } from './connectors/bluesky.connector';
import type { ConnectorContext } from './connectors/connector-context';
import { FacebookConnector } from './connectors/facebook.connector';
import { InstagramConnector } from './connectors/instagram.connector';
import { LinkedInConnector } from './connectors/linkedin.connector';
import { MastodonConnector } from './connectors/mastodon.connector';
import { PinterestConnector } from './connectors/pinterest.connector';
import { ThreadsConnector } from './connectors/threads.connector';
import { TikTokConnector } from './connectors/tiktok.connector';
import { XConnector } from './connectors/x.connector';
import { YouTubeConnector } from './connectors/youtube.connector';
import { configuredPlatformEndpoints, DEFAULT_PLATFORM_ENDPOINTS, PlatformEndpoints } from './endpoints';
import { platformDialer } from './http/platform-dialer';
import { DEFAULT_RETRY_POLICY, RetryPolicy } from './http/retry-policy';

const CONNECTOR_CLASSES: Record<Platform, new (ctx: ConnectorContext) => PlatformConnector> = {
  x: XConnector,
  facebook: FacebookConnector,
  instagram: InstagramConnector,
  linkedin: LinkedInConnector,
  threads: ThreadsConnector,
  bluesky: BlueskyConnector,
  mastodon: MastodonConnector,
  tiktok: TikTokConnector,
  youtube: YouTubeConnector,
  pinterest: PinterestConnector,
};

/** Where the platforms are and how hard to try: what the connectors and the sign-in clients are both built from. */
export interface PlatformClientOptions {
  /** Base URL per platform; defaults to the real hosts. */
  endpoints?: Partial<PlatformEndpoints>;
  /** Overrides of the retry policy (tests pass tiny delays). */
  retry?: Partial<RetryPolicy>;
  /** LinkedIn's API release (YYYYMM) when configured (LINKEDIN_API_VERSION); else the connector's default. */
  linkedInApiVersion?: string;
  /** How media urls are fetched (MEDIA_ALLOWED_HOSTS...). */
  media?: MediaFetcherOptions;
}

/**
 * The platform section of the deployment's configuration, as plain values (AppConfig has
 * these fields). Declared here, not imported from libs/config, so configuration knows no
 * connector and processes that only read configuration never load the connectors.
 */
export interface PlatformSettings {
  platformSandboxUrl: string | null;
  platformBaseUrls: Partial<PlatformEndpoints>;
  platformRetry: Partial<Omit<RetryPolicy, 'sleep' | 'now'>>;
  mediaAllowedHosts: string[];
  linkedInApiVersion: string | null;
}

/** Each platform's base URL as configured. */
export function platformEndpointsOf(settings: PlatformSettings): PlatformEndpoints {
  return configuredPlatformEndpoints(settings.platformSandboxUrl, settings.platformBaseUrls);
}

/** What the connectors and the sign-in clients are built from: endpoints, retry policy (with the guarded dialer), media allow-list, LinkedIn version. */
export function platformClientOptions(settings: PlatformSettings): PlatformClientOptions {
  const endpoints = platformEndpointsOf(settings);
  return {
    endpoints,
    // Every call dials through the address guard: instances and PDSes are hosts users named.
    retry: { ...settings.platformRetry, dispatcher: platformDialer(endpoints) },
    media: { allowedHosts: settings.mediaAllowedHosts },
    ...(settings.linkedInApiVersion ? { linkedInApiVersion: settings.linkedInApiVersion } : {}),
  };
}

/** Every platform's connector, built once from the endpoints and the retry policy. */
export class ConnectorRegistry {
  private readonly connectors: Map<Platform, PlatformConnector>;

  constructor(options: PlatformClientOptions = {}) {
    const endpoints = { ...DEFAULT_PLATFORM_ENDPOINTS, ...options.endpoints };
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    const media = new MediaFetcher(options.media);
    this.connectors = new Map(
      (Object.keys(CONNECTOR_CLASSES) as Platform[]).map((platform) => [
        platform,
        new CONNECTOR_CLASSES[platform]({ baseUrl: endpoints[platform].replace(/\/+$/, ''), retry, linkedInApiVersion: options.linkedInApiVersion, media }),
      ]),
    );
  }

  get(platform: Platform): PlatformConnector {
    const connector = this.connectors.get(platform);
    if (!connector) throw new Error(`no connector for platform ${platform}`);
    return connector;
  }
}
