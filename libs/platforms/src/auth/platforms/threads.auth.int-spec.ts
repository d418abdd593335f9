import type { PublishRequest } from '../../connector';
import { PlatformAuthRegistry } from '../auth-registry';
import { OAuthApp, SignedInAccount } from '../platform-auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';
import { THREADS_SCOPES } from './threads.auth';

/**
 * Threads sign-in against the platform sandbox, which plays Meta's Threads pages: "Get Access
 * Tokens" (https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions),
 * "Long-Lived Access Tokens" (https://developers.facebook.com/docs/threads/get-started/long-lived-tokens)
 * and "User Profiles" (https://developers.facebook.com/docs/threads/threads-profiles).
 * A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: '2000000000000002', clientSecret: 'threads-app-secret', redirectUri: CALLBACK };
const DAY = 86_400;
const SIXTY_DAYS_MS = 60 * DAY * 1000;

const env = sandboxPerTest('threads');
const { authorize, signIn } = oauthFlow(env, app, { pkce: false });
let sequence = 0;

const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });
const tokenRequests = () => env.sandbox.control.requestCount({ platform: 'threads', operation: 'token' });

function provisionUser(handle = 'brand') {
  return env.sandbox.control.provisionAccount({ platform: 'threads', handle, displayName: 'Brand Inc' }).identity;
}

const publishAs = (account: SignedInAccount, request: PublishRequest) => env.connectors.get('threads').publish(connectorAccount('threads', account), request);

it("sends the user to threads.net's Authorization Window with the scopes, response_type=code and the state", () => {
  const url = new URL(new PlatformAuthRegistry().get('threads').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://threads.net/oauth/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: app.clientId, redirect_uri: CALLBACK, scope: THREADS_SCOPES.join(','), response_type: 'code', state: 'st' });
});

it('exchanges the code for a 60-day long-lived token, identifies the user by id and username, and the token posts as that user only', async () => {
  const user = provisionUser();
  const tokens = await env.auth.exchangeCode({ app, code: (await authorize(user.key)).code, codeVerifier: 'unused', instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: null, expiresAt: expect.any(String), refreshTokenExpiresAt: null, scopes: [] });
  expect(Math.abs(Date.parse(tokens.expiresAt as string) - Date.now() - SIXTY_DAYS_MS)).toBeLessThan(60_000);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toEqual([
    {
      platform: 'threads',
      identity: { platformAccountId: user.platformAccountId, handle: '@brand', displayName: 'Brand Inc', instanceUrl: null, attributes: {} },
      credentials: { ...tokens, kind: 'long_lived' },
    },
  ]);
  expect(await publishAs(accounts[0], post('Signed in and posting'))).toMatchObject({ status: 'published' });

  const someoneElse = provisionUser('someone');
  const asSomeoneElse = { ...accounts[0], identity: { ...accounts[0].identity, platformAccountId: someoneElse.platformAccountId } };
  expect(await publishAs(asSomeoneElse, post('Not mine'))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'permission_denied', retryable: false }) });
});

it('keeps a token under 24 hours old while the API takes it (Threads refreshes none younger), and re-extends an older one for 60 days', async () => {
  const account = await signIn(provisionUser().key);
  const before = tokenRequests();
  expect(await env.auth.refresh(app, account.credentials, account.identity)).toEqual(account.credentials);
  expect(tokenRequests()).toBe(before);
  const leaving = provisionUser('leaving');
  const revoked = await signIn(leaving.key);
  env.sandbox.control.revokeAccount(leaving.key);
  await expect(env.auth.refresh(app, revoked.credentials, revoked.identity)).rejects.toEqual(refusal('access_token_invalid'));

  env.sandbox.control.advanceClock(2 * DAY);
  const stored = { ...account.credentials, expiresAt: new Date(Date.now() + SIXTY_DAYS_MS - 2 * DAY * 1000).toISOString() };
  const refreshed = await env.auth.refresh(app, stored, account.identity);
  expect(refreshed.accessToken).not.toBe(account.credentials.accessToken);
  expect(Math.abs(Date.parse(refreshed.expiresAt as string) - Date.now() - SIXTY_DAYS_MS)).toBeLessThan(60_000);
  env.sandbox.control.advanceClock(59 * DAY);
  expect(await publishAs({ ...account, credentials: { ...refreshed, kind: 'long_lived' } }, post('Still signed in'))).toMatchObject({ status: 'published' });
});

it('the sandbox refuses to refresh a token under 24 hours old, a short-lived one, and exchanges only with the app secret', async () => {
  const user = provisionUser();
  const long = (await signIn(user.key)).credentials.accessToken;
  const refresh = await fetch(`${env.sandbox.url}/threads/refresh_access_token?${new URLSearchParams({ grant_type: 'th_refresh_token', access_token: long })}`);
  expect(refresh.status).toBe(400);
  expect(await refresh.json()).toMatchObject({ error: { code: 100, message: expect.stringContaining('24 hours') } });

  const { code } = await authorize(user.key);
  const form = new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret as string, code, grant_type: 'authorization_code', redirect_uri: CALLBACK });
  const short = (await (await fetch(`${env.sandbox.url}/threads/oauth/access_token`, { method: 'POST', body: form })).json()) as { access_token: string; user_id: string };
  expect(short.user_id).toBe(user.platformAccountId);
  const refreshShort = await fetch(`${env.sandbox.url}/threads/refresh_access_token?${new URLSearchParams({ grant_type: 'th_refresh_token', access_token: short.access_token })}`);
  expect(await refreshShort.json()).toMatchObject({ error: { code: 100, message: 'Only a long-lived token can be refreshed' } });
  const wrongSecret = await fetch(`${env.sandbox.url}/threads/access_token?${new URLSearchParams({ grant_type: 'th_exchange_token', client_secret: 'wrong', access_token: short.access_token })}`);
  expect(await wrongSecret.json()).toMatchObject({ error: { code: 1, type: 'OAuthException', message: 'Error validating client secret.' } });
});

it('after 60 days unrefreshed the token is expired for good: the API and the refresh refuse it (access_token_expired)', async () => {
  const account = await signIn(provisionUser().key);
  env.sandbox.control.advanceClock(61 * DAY);
  const stored = { ...account.credentials, expiresAt: new Date(Date.now() - DAY * 1000).toISOString() };
  await expect(env.auth.identify(stored, null)).rejects.toEqual(refusal('access_token_expired'));
  await expect(env.auth.refresh(app, stored, account.identity)).rejects.toEqual(refusal('access_token_expired'));
  expect(await publishAs(account, post('Too late'))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'access_token_expired', retryable: false }) });
});

it('refuses a spent code and another redirect uri as credentials', async () => {
  const user = provisionUser();
  const { code } = await authorize(user.key);
  await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  await expect(env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_parameter'));
  const elsewhere = { ...app, redirectUri: 'https://elsewhere.example/callback' };
  await expect(env.auth.exchangeCode({ app: elsewhere, code: (await authorize(user.key)).code, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_parameter'));
});

it("the Authorization Window requires the scope; a user who declines comes back with access_denied", async () => {
  const user = provisionUser();
  const url = new URL(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: 'unused', instanceUrl: null }));
  url.searchParams.delete('scope');
  const withoutScope = await fetch(url, { redirect: 'manual' });
  expect(withoutScope.status).toBe(400);
  expect(await withoutScope.json()).toMatchObject({ error: { code: 100, message: 'scope is required' } });

  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: 'unused', instanceUrl: null }), user.key, { deny: true });
  expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error', state: 'declined' });
});

it('revocation has no Threads endpoint: it resolves without a request', async () => {
  const account = await signIn(provisionUser().key);
  const before = env.sandbox.control.requestCount({ platform: 'threads' });
  await expect(env.auth.revoke(app, account.credentials, account.identity)).resolves.toBeUndefined();
  expect(env.sandbox.control.requestCount({ platform: 'threads' })).toBe(before);
});
