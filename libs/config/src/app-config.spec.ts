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
