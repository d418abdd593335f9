import type { PublishRequest } from '../../connector';
import { pkcePair } from '../oauth2';
import type { OAuthApp, SignedInAccount } from '../platform-auth';
import { connectorAccount, sandboxPerFile } from './sign-in.test-support';

/**
 * Mastodon sign-in against the platform sandbox, which plays an instance from the docs:
 * POST /api/v1/apps (https://docs.joinmastodon.org/methods/apps/#create), GET /oauth/authorize,
 * POST /oauth/token, POST /oauth/revoke (https://docs.joinmastodon.org/methods/oauth/) and
 * GET /api/v1/accounts/verify_credentials (https://docs.joinmastodon.org/methods/accounts/#verify_credentials).
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
// Granular scopes for what the connector calls, write:media for the media its posts carry (POST /api/v2/media).
const SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'];

const env = sandboxPerFile('mastodon');
let sequence = 0;

const instance = (): string => `${env.sandbox.url}/mastodon`;
const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });

/** The consent step, as the user's browser goes through it: the instance answers with a redirect. */
async function consent(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

/** The user `userKey` consents to `app`; the code from the callback and the PKCE verifier. */
async function authorize(app: OAuthApp, userKey: string, state = `state-${++sequence}`): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const url = new URL(env.auth.authorizationUrl({ app, state, codeChallenge: challenge, instanceUrl: instance() }));
  url.searchParams.set('sandbox_user', userKey);
  const back = await consent(url);
  expect(back.searchParams.get('state')).toBe(state);
  return { code: back.searchParams.get('code')!, verifier };
}

function provisionUser() {
  return env.sandbox.control.provisionAccount({ platform: 'mastodon', handle: `brand${++sequence}` }).identity;
}

async function signIn(app: OAuthApp, userKey: string): Promise<SignedInAccount> {
  const { code, verifier } = await authorize(app, userKey);
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: instance() });
  const [account] = await env.auth.identify(tokens, instance());
  return account;
}

it('registers our app on the instance, then signs a user in with an authorization code and PKCE S256; the token posts as that account', async () => {
  const app = await env.auth.registerApp!(instance(), CALLBACK);
  expect(app).toEqual({ clientId: expect.any(String), clientSecret: expect.any(String), redirectUri: CALLBACK });

  const user = provisionUser();
  const { verifier, challenge } = pkcePair();
  const url = new URL(env.auth.authorizationUrl({ app, state: 'state-1', codeChallenge: challenge, instanceUrl: instance() }));
  expect(`${url.origin}${url.pathname}`).toBe(`${instance()}/oauth/authorize`);
  expect(Object.fromEntries(url.searchParams)).toEqual({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: CALLBACK,
    scope: SCOPES.join(' '),
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  url.searchParams.set('sandbox_user', user.key);
  const back = await consent(url);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get('state')).toBe('state-1');

  // No instance given: the configured one (here the sandbox's /mastodon).
  const tokens = await env.auth.exchangeCode({ app, code: back.searchParams.get('code')!, codeVerifier: verifier, instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: SCOPES });

  const [account] = await env.auth.identify(tokens, instance());
  expect(account).toEqual({
    platform: 'mastodon',
    identity: { platformAccountId: user.platformAccountId, handle: `@${user.handle}`, displayName: user.handle, instanceUrl: instance(), attributes: {} },
    credentials: { ...tokens, kind: 'static' },
  });

  const request = post('Hello from a signed-in account');
  const outcome = await env.connectors.get('mastodon').publish(connectorAccount('mastodon', account), request);
  expect(outcome.status).toBe('published');
  // Reconciliation looks the account up by the id verify_credentials gave.
  expect(await env.connectors.get('mastodon').findPublished(connectorAccount('mastodon', account), { ...request, attemptStartedAt: new Date(Date.now() - 60_000).toISOString() })).toMatchObject({ platformPostId: (outcome as { platformPostId: string }).platformPostId });
});

it('refuses a wrong PKCE verifier, a code used twice (invalid_grant: CredentialRefused) and a wrong client secret, in the OAuth error shape', async () => {
  const app = await env.auth.registerApp!(instance(), CALLBACK);
  const { code, verifier } = await authorize(app, provisionUser().key);
  const exchange = (overrides: Partial<{ code: string; codeVerifier: string; app: OAuthApp }>) => env.auth.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: instance(), ...overrides });

  await expect(exchange({ codeVerifier: pkcePair().verifier })).rejects.toMatchObject({ name: 'CredentialRefused', code: 'invalid_grant', message: expect.stringContaining('authorization grant is invalid') });
  // A wrong client is our configuration's fault, not the user's credential.
  await expect(exchange({ app: { ...app, clientSecret: 'not-the-secret' } })).rejects.toMatchObject({ name: 'PlatformCallFailed', error: { code: 'invalid_client', retryable: false } });
  await expect(exchange({})).resolves.toMatchObject({ accessToken: expect.any(String) });
  await expect(exchange({})).rejects.toMatchObject({ name: 'CredentialRefused', code: 'invalid_grant' });
});

it('the consent page refuses a redirect_uri the app did not register and a plain PKCE challenge; a declined consent comes back as access_denied with the state', async () => {
  const app = await env.auth.registerApp!(instance(), CALLBACK);
  const request = (overrides: Partial<OAuthApp>) => new URL(env.auth.authorizationUrl({ app: { ...app, ...overrides }, state: 'st', codeChallenge: pkcePair().challenge, instanceUrl: instance() }));

  const foreign = await fetch(request({ redirectUri: 'https://elsewhere.example/callback' }), { redirect: 'manual' });
  expect(foreign.status).toBe(400);
  expect(await foreign.json()).toMatchObject({ error: 'invalid_redirect_uri' });

  const plain = request({});
  plain.searchParams.set('code_challenge_method', 'plain');
  expect(Object.fromEntries((await consent(plain)).searchParams)).toMatchObject({ error: 'invalid_request', state: 'st' });

  const denied = request({});
  denied.searchParams.set('sandbox_deny', '1');
  const back = await consent(denied);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', error_description: expect.any(String), state: 'st' });
});

it('app registration refuses what the docs refuse (422): no client_name, a redirect uri that is not absolute', async () => {
  const register = (body: Record<string, unknown>) =>
    fetch(`${instance()}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const nameless = await register({ redirect_uris: [CALLBACK], scopes: 'read' });
  expect(nameless.status).toBe(422);
  const relative = await register({ client_name: 'x', redirect_uris: ['/callback'] });
  expect(relative.status).toBe(422);
  expect(await relative.json()).toEqual({ error: 'Validation failed: Redirect URI must be an absolute URI.' });
});

it('tokens do not expire, and there is nothing to refresh', async () => {
  const app = await env.auth.registerApp!(instance(), CALLBACK);
  const account = await signIn(app, provisionUser().key);
  env.sandbox.control.advanceClock(365 * 24 * 60 * 60);
  await expect(env.auth.identify(account.credentials, instance())).resolves.toHaveLength(1);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'not_refreshable' });
});

it('revoke (POST /oauth/revoke) ends that token: verify_credentials and the connector then answer access_token_invalid; another app cannot revoke it', async () => {
  const app = await env.auth.registerApp!(instance(), CALLBACK);
  const other = await env.auth.registerApp!(instance(), CALLBACK);
  const user = provisionUser();
  const revoked = await signIn(app, user.key);
  const kept = await signIn(app, user.key);

  await expect(env.auth.revoke(other, revoked.credentials, revoked.identity)).rejects.toMatchObject({ name: 'PlatformCallFailed', error: { code: 'unauthorized_client' } });
  await env.auth.revoke(app, revoked.credentials, revoked.identity);

  await expect(env.auth.identify(revoked.credentials, instance())).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_invalid', message: 'The access token was revoked' });
  const outcome = await env.connectors.get('mastodon').publish(connectorAccount('mastodon', revoked), post('after revocation'));
  expect(outcome).toMatchObject({ status: 'failed', error: { code: 'access_token_invalid', retryable: false } });
  // Only that token ended; revoking it again is quiet (the endpoint is idempotent).
  await expect(env.auth.identify(kept.credentials, instance())).resolves.toHaveLength(1);
  await expect(env.auth.revoke(app, revoked.credentials, revoked.identity)).resolves.toBeUndefined();
});
