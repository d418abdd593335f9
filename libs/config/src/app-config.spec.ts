import { randomBytes } from 'node:crypto';
import { AppConfig } from './app-config';

const base = { TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

describe('AppConfig: connecting accounts', () => {
  it('reads each platform app, the callback url and the LinkedIn version', () => {
    const config = AppConfig.fromEnv({
      ...base,
      X_CLIENT_ID: 'x-id',
      X_CLIENT_SECRET: 'x-secret',
      TIKTOK_CLIENT_ID: 'tt-key',
      OAUTH_CALLBACK_URL: 'https://api.example.com/api/v1/accounts/connect/callback',
      LINKEDIN_API_VERSION: '202610',
    });
    expect(config.platformApps).toEqual({ x: { clientId: 'x-id', clientSecret: 'x-secret' }, tiktok: { clientId: 'tt-key', clientSecret: null } });
    expect(config.oauthCallbackUrl).toBe('https://api.example.com/api/v1/accounts/connect/callback');
    expect(config.linkedInApiVersion).toBe('202610');
  });

  it('reads no Instagram app: Instagram signs in with the Facebook app (Instagram API with Facebook Login)', () => {
    const config = AppConfig.fromEnv({ ...base, FACEBOOK_CLIENT_ID: 'fb-id', FACEBOOK_CLIENT_SECRET: 'fb-secret', INSTAGRAM_CLIENT_ID: 'ig-id', INSTAGRAM_CLIENT_SECRET: 'ig-secret' });
    expect(config.platformApps).toEqual({ facebook: { clientId: 'fb-id', clientSecret: 'fb-secret' } });
  });

  it('leaves the LinkedIn version to the connector when unset', () => {
    expect(AppConfig.fromEnv(base).linkedInApiVersion).toBeNull();
  });
});

describe('AppConfig: where the platforms are', () => {
  it('keeps PLATFORM_SANDBOX_URL and PLATFORM_BASE_URL_<PLATFORM> as plain values, without trailing slashes', () => {
    const config = AppConfig.fromEnv({ ...base, PLATFORM_SANDBOX_URL: 'http://127.0.0.1:4010/', PLATFORM_BASE_URL_MASTODON: 'https://social.example//' });
    expect(config.platformSandboxUrl).toBe('http://127.0.0.1:4010');
    expect(config.platformBaseUrls).toEqual({ mastodon: 'https://social.example' });
  });

  it('configures no sandbox and no override when unset (libs/platforms then uses the real hosts)', () => {
    const config = AppConfig.fromEnv(base);
    expect(config.platformSandboxUrl).toBeNull();
    expect(config.platformBaseUrls).toEqual({});
  });
});

describe('AppConfig: MEDIA_ALLOWED_HOSTS', () => {
  it('reads hosts, host:port pairs and CIDR ranges', () => {
    const config = AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: ' media.internal , 127.0.0.1:4011,10.0.0.0/8,' });
    expect(config.mediaAllowedHosts).toEqual(['media.internal', '127.0.0.1:4011', '10.0.0.0/8']);
  });

  it('allows nothing private when unset', () => {
    expect(AppConfig.fromEnv(base).mediaAllowedHosts).toEqual([]);
  });

  it('refuses a malformed entry at start-up', () => {
    expect(() => AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: '10.0.0.0/99' })).toThrow('MEDIA_ALLOWED_HOSTS: "10.0.0.0/99" is not a host, host:port or CIDR range');
    expect(() => AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: 'https://cdn.example.com' })).toThrow(/not a host, host:port or CIDR range/);
  });
});
