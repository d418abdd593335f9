import { randomBytes } from 'node:crypto';
import { AppConfig } from './app-config';

const base = { TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

describe('AppConfig: connecting accounts', () => {
  it('reads each platform app, the callback url and the LinkedIn version, and hands the version to the platform clients', () => {
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
    expect(config.platformClients()).toMatchObject({ linkedInApiVersion: '202610', endpoints: config.platformEndpoints });
  });

  it('leaves the LinkedIn version to the connector when unset', () => {
    expect(AppConfig.fromEnv(base).platformClients()).not.toHaveProperty('linkedInApiVersion');
  });
});

describe('AppConfig: MEDIA_ALLOWED_HOSTS', () => {
  it('reads hosts, host:port pairs and CIDR ranges and hands them to the media fetcher', () => {
    const config = AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: ' media.internal , 127.0.0.1:4011,10.0.0.0/8,' });
    expect(config.mediaAllowedHosts).toEqual(['media.internal', '127.0.0.1:4011', '10.0.0.0/8']);
    expect(config.platformClients().media).toEqual({ allowedHosts: ['media.internal', '127.0.0.1:4011', '10.0.0.0/8'] });
  });

  it('allows nothing private when unset', () => {
    expect(AppConfig.fromEnv(base).platformClients().media).toEqual({ allowedHosts: [] });
  });

  it('refuses a malformed entry at start-up', () => {
    expect(() => AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: '10.0.0.0/99' })).toThrow('MEDIA_ALLOWED_HOSTS: "10.0.0.0/99" is not a host, host:port or CIDR range');
    expect(() => AppConfig.fromEnv({ ...base, MEDIA_ALLOWED_HOSTS: 'https://cdn.example.com' })).toThrow(/not a host, host:port or CIDR range/);
  });
});
