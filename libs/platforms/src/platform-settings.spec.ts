import { randomBytes } from 'node:crypto';
import { AppConfig } from '@app/config';
import { DEFAULT_PLATFORM_ENDPOINTS, sandboxEndpoints } from './endpoints';
import { platformClientOptions, platformEndpointsOf } from './registry';

// The platform section of the configuration arrives as plain values; these specs check that
// libs/platforms turns them into what the connectors and the sign-in clients are built from.
const base = { TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

describe('platformClientOptions: from the configuration to the platform clients', () => {
  it('uses the real hosts when nothing is configured, and leaves the LinkedIn version to the connector', () => {
    const options = platformClientOptions(AppConfig.fromEnv(base));
    expect(options.endpoints).toEqual(DEFAULT_PLATFORM_ENDPOINTS);
    expect(options).not.toHaveProperty('linkedInApiVersion');
    expect(options.media).toEqual({ allowedHosts: [] });
  });

  it('puts every platform under the sandbox, then moves the one PLATFORM_BASE_URL_<PLATFORM> names', () => {
    const config = AppConfig.fromEnv({ ...base, PLATFORM_SANDBOX_URL: 'http://127.0.0.1:4010', PLATFORM_BASE_URL_MASTODON: 'https://social.example/' });
    expect(platformEndpointsOf(config)).toEqual({ ...sandboxEndpoints('http://127.0.0.1:4010'), mastodon: 'https://social.example' });
    expect(platformEndpointsOf(config).x).toBe('http://127.0.0.1:4010/x');
  });

  it('hands the LinkedIn version, the retry overrides and the media allow-list on', () => {
    const config = AppConfig.fromEnv({ ...base, LINKEDIN_API_VERSION: '202610', MEDIA_ALLOWED_HOSTS: 'media.internal,10.0.0.0/8' }).with({
      platformRetry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    expect(platformClientOptions(config)).toMatchObject({
      linkedInApiVersion: '202610',
      retry: { maxAttempts: 2, baseDelayMs: 1 },
      media: { allowedHosts: ['media.internal', '10.0.0.0/8'] },
    });
  });
});
