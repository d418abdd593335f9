import type { Platform } from '@app/contracts';
import type { AccountStore } from '@app/accounts';
import type { OAuthApp, PlatformAuthRegistry } from '@app/platforms';

/** Our app's registration on each platform, from configuration (client id and secret, the callback registered with it). */
export interface PlatformAppSettings {
  /** Per platform: client id and secret (TikTok calls its client id the client key). */
  apps: Partial<Record<Platform, { clientId: string; clientSecret: string | null }>>;
  /** The service's public GET /api/v1/accounts/connect/callback url, registered with every platform. */
  callbackUrl: string | null;
}

/**
 * Which app speaks for us on a platform: the configured one, or on a federated server
 * (Mastodon) the one registered there at first use and remembered. A platform that signs in
 * with another's app uses that one: Instagram (API with Facebook Login) the Facebook app, for
 * connecting and for renewing its tokens (fb_exchange_token takes the Facebook app's id and
 * secret). Null when the platform is not configured (connecting then answers platform_not_configured).
 */
export class OAuthApps {
  constructor(
    private readonly settings: PlatformAppSettings,
    private readonly store: AccountStore,
    private readonly auth: PlatformAuthRegistry,
  ) {}

  get callbackUrl(): string | null {
    return this.settings.callbackUrl;
  }

  /** The app for a platform (and instance, for Mastodon); registers one on the instance when `register` and none is known. */
  async appFor(platform: Platform, instanceUrl: string | null, register = false): Promise<OAuthApp | null> {
    const callback = this.settings.callbackUrl;
    const signIn = this.auth.get(platform);
    if (signIn.registerApp && instanceUrl) {
      const known = await this.store.registeredApp(platform, instanceUrl);
      if (known || !register || !callback) return known;
      await this.store.saveRegisteredApp(platform, instanceUrl, await signIn.registerApp(instanceUrl, callback));
      return this.store.registeredApp(platform, instanceUrl);
    }
    const configured = this.settings.apps[signIn.appPlatform ?? platform];
    return configured && callback ? { ...configured, redirectUri: callback } : null;
  }
}
