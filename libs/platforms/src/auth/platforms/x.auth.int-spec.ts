import type { PublishRequest } from '../../connector';
import { PlatformCallFailed } from '../../http/platform-http';
import { PlatformAuthRegistry } from '../auth-registry';
import { pkcePair } from '../oauth2';
import { CredentialRefused, OAuthApp, TokenSet } from '../platform-auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';
import { X_SCOPES } from './x.auth';

/**
 * X sign-in against the platform sandbox, which plays X's OAuth 2.0 Authorization Code Flow
 * with PKCE from its docs ("OAuth 2.0 Authorization Code Flow with PKCE",
 * https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code and
 * .../oauth-2-0/user-access-token) and GET /2/users/me ("User lookup",
 * https://docs.x.com/x-api/users/lookup/introduction). A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: 'x-client-id', clientSecret: 'x-client-secret', redirectUri: CALLBACK };
const TWO_HOURS = 2 * 3600;

const env = sandboxPerTest('x');
const { authorize, signIn } = oauthFlow(env, app, { pkce: true });
let sequence = 0;

const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });

function provisionUser() {
  return env.sandbox.control.provisionAccount({ platform: 'x', handle: 'brand', displayName: 'Brand Inc' }).identity;
}

it("sends the user to x.com's consent page with an S256 challenge, the state, media.write (uploads) and offline.access", () => {
  const url = new URL(new PlatformAuthRegistry().get('x').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://x.com/i/oauth2/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: CALLBACK,
    scope: 'tweet.read tweet.write tweet.moderate.write users.read media.write offline.access',
    state: 'st',
    code_challenge: 'ch',
    code_challenge_method: 'S256',
  });
});

it('signs a user in with a code and PKCE, identifies them by their numeric user id, and the token posts and reconciles by that id', async () => {
  const user = provisionUser();
  const { code, verifier } = await authorize(user.key);
  const before = Date.now();
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(String), refreshTokenExpiresAt: null, scopes: X_SCOPES });
  expect(Date.parse(tokens.expiresAt as string) - before).toBeGreaterThanOrEqual(TWO_HOURS * 1000 - 1000);
  expect(Date.parse(tokens.expiresAt as string) - before).toBeLessThanOrEqual(TWO_HOURS * 1000 + 5000);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toEqual([
    {
      platform: 'x',
      identity: { platformAccountId: user.platformAccountId, handle: '@brand', displayName: 'Brand Inc', instanceUrl: null, attributes: {} },
      credentials: { ...tokens, kind: 'oauth2_refresh' },
    },
  ]);
  expect(user.platformAccountId).toMatch(/^\d+$/);

  const account = connectorAccount('x', accounts[0]);
  const request = post('Signed in and posting');
  const outcome = await env.connectors.get('x').publish(account, request);
  expect(outcome).toMatchObject({ status: 'published', url: expect.stringMatching(/^https:\/\/x\.com\/brand\/status\/\d+$/) });
  expect(await env.connectors.get('x').findPublished(account, { ...request, attemptStartedAt: new Date(Date.now() - 60_000).toISOString() })).toEqual({ platformPostId: (outcome as { platformPostId: string }).platformPostId, url: expect.any(String) });
});

it('refuses a wrong PKCE verifier, a spent code, another redirect uri and another client', async () => {
  const user = provisionUser();
  const first = await authorize(user.key);
  await expect(env.auth.exchangeCode({ app, code: first.code, codeVerifier: pkcePair().verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
  await env.auth.exchangeCode({ app, code: first.code, codeVerifier: first.verifier, instanceUrl: null });
  await expect(env.auth.exchangeCode({ app, code: first.code, codeVerifier: first.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));

  const second = await authorize(user.key);
  const elsewhere = { ...app, redirectUri: 'https://elsewhere.example/callback' };
  await expect(env.auth.exchangeCode({ app: elsewhere, code: second.code, codeVerifier: second.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
  const otherClient = { ...app, clientId: 'another-client' };
  await expect(env.auth.exchangeCode({ app: otherClient, code: second.code, codeVerifier: second.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
});

it("refuses a token request without the confidential client's Basic credentials", async () => {
  const user = provisionUser();
  const { code, verifier } = await authorize(user.key);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: app.clientId });
  const answer = await fetch(`${env.sandbox.url}/x/2/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answer.status).toBe(401);
  expect(await answer.json()).toEqual({ error: 'unauthorized_client', error_description: 'Missing valid authorization header' });
  await expect(env.auth.exchangeCode({ app: { ...app, clientSecret: null }, code, codeVerifier: verifier, instanceUrl: null })).rejects.toThrow(/client id and secret/);
});

it('rotates the refresh token: each refresh answers a new one and the old one stops working', async () => {
  const account = await signIn(provisionUser().key);
  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  expect(refreshed.accessToken).not.toBe(account.credentials.accessToken);
  expect(refreshed.refreshToken).toEqual(expect.any(String));
  expect(refreshed.refreshToken).not.toBe(account.credentials.refreshToken);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_request'));
  const again = await env.auth.refresh(app, { ...refreshed, kind: 'oauth2_refresh' }, account.identity);
  expect(await env.auth.identify(again, null)).toMatchObject([{ identity: account.identity }]);
});

it('an access token lasts two hours; then the API refuses it (access_token_invalid) and a refresh brings the account back', async () => {
  const account = await signIn(provisionUser().key);
  env.sandbox.control.advanceClock(TWO_HOURS - 60);
  await expect(env.auth.identify(account.credentials, null)).resolves.toHaveLength(1);
  env.sandbox.control.advanceClock(61);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  const outcome = await env.connectors.get('x').publish(connectorAccount('x', account), post('too late'));
  expect(outcome).toEqual({ status: 'failed', error: { code: 'access_token_invalid', message: 'Unauthorized', retryable: false } });

  const refreshed: TokenSet = await env.auth.refresh(app, account.credentials, account.identity);
  const [back] = await env.auth.identify(refreshed, null);
  expect(await env.connectors.get('x').publish(connectorAccount('x', back), post('back again'))).toMatchObject({ status: 'published' });
});

it('revoking ends the grant: neither the access token nor the refresh token works afterwards', async () => {
  const account = await signIn(provisionUser().key);
  await env.auth.revoke(app, account.credentials, account.identity);
  await expect(env.auth.identify(account.credentials, null)).rejects.toBeInstanceOf(CredentialRefused);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_request'));
});

it('a user who declines comes back with access_denied and the state, without a code', async () => {
  const user = provisionUser();
  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: pkcePair().challenge, instanceUrl: null }), user.key, { deny: true });
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(back.searchParams.get('state')).toBe('declined');
  expect(back.searchParams.has('code')).toBe(false);
});

it("the user timeline takes only a user id: a handle is refused, and reconciliation for an unknown id fails instead of answering 'not found'", async () => {
  const account = connectorAccount('x', await signIn(provisionUser().key));
  const byHandle = await fetch(`${env.sandbox.url}/x/2/users/brand/tweets`, { headers: { authorization: `Bearer ${account.credentials.accessToken}` } });
  expect(byHandle.status).toBe(400);
  expect(await byHandle.json()).toMatchObject({ title: 'Invalid Request', type: 'https://api.twitter.com/2/problems/invalid-request' });

  const unknown = { ...account, identity: { ...account.identity, platformAccountId: '1234567' } };
  const lookup = env.connectors.get('x').findPublished(unknown, { ...post('anything'), attemptStartedAt: new Date().toISOString() });
  await expect(lookup).rejects.toBeInstanceOf(PlatformCallFailed);
  await expect(lookup).rejects.toMatchObject({ error: { code: 'resource_not_found', retryable: false } });
});
