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

describe('AppConfig: the gateway HTTP timeouts', () => {
  it('defaults to 10 s for the headers, 30 s for the whole request, 120 s of silence on a connection', () => {
    expect(AppConfig.fromEnv(base)).toMatchObject({ httpHeadersTimeoutMs: 10_000, httpRequestTimeoutMs: 30_000, httpConnectionTimeoutMs: 120_000 });
  });

  it('reads HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and HTTP_CONNECTION_TIMEOUT_MS', () => {
    const config = AppConfig.fromEnv({ ...base, HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_CONNECTION_TIMEOUT_MS: '60000' });
    expect(config).toMatchObject({ httpHeadersTimeoutMs: 2_000, httpRequestTimeoutMs: 5_000, httpConnectionTimeoutMs: 60_000 });
  });

  it.each([
    ['headers allowed longer than the whole request', { HTTP_HEADERS_TIMEOUT_MS: '40000' }, 'HTTP_HEADERS_TIMEOUT_MS must be at least 1 and at most HTTP_REQUEST_TIMEOUT_MS'],
    ['no headers timeout', { HTTP_HEADERS_TIMEOUT_MS: '0' }, 'HTTP_HEADERS_TIMEOUT_MS must be at least 1'],
    ['a connection closed before the longest answer', { HTTP_CONNECTION_TIMEOUT_MS: '15000' }, 'HTTP_CONNECTION_TIMEOUT_MS must be longer than COMMAND_TIMEOUT_MS + PUBLISH_WAIT_MS (18000)'],
  ])('refuses %s at start-up', (_name, env, message) => {
    expect(() => AppConfig.fromEnv({ ...base, ...env })).toThrow(message);
  });
});
