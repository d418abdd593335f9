import { mediaRefs } from '@app/media';
import { PlatformAuthRegistry } from '../auth-registry';
import { OAuthApp } from '../platform-auth';
import { PINTEREST_SCOPES } from './pinterest.auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';

/**
 * Pinterest sign-in against the platform sandbox, which plays "Set up authentication and
 * authorization" (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * consent at /oauth/, POST /v5/oauth/token with HTTP Basic, continuous refresh tokens;
 * GET /v5/user_account and GET /v5/boards. A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: '1500001', clientSecret: 'pinterest-app-secret', redirectUri: CALLBACK };
const DAY = 24 * 3600;

const env = sandboxPerTest('pinterest');
const { authorize, signIn, expectCodeExchangeRefusals } = oauthFlow(env, app, { pkce: false });
let sequence = 0;

function provisionUser(attributes: Record<string, string> = { boardId: '1100000000000000042', boardName: 'Launches' }) {
  return env.sandbox.control.provisionAccount({ platform: 'pinterest', handle: 'brand', displayName: 'Brand Inc', attributes }).identity;
}

const pin = () => ({ content: 'Pin this', media: mediaRefs([`${env.sandbox.mediaUrl}/media/photo.jpg`]), idempotencyKey: `post-${++sequence}` });

it("sends the user to Pinterest's consent page with comma-separated scopes and the state", () => {
  const url = new URL(new PlatformAuthRegistry().get('pinterest').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://www.pinterest.com/oauth/');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: app.clientId,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'boards:read,pins:read,pins:write,user_accounts:read',
    state: 'st',
  });
});

it('signs a user in: the username, their first board; a 30-day token (continuous refresh token, 60 days) that pins to that board', async () => {
  const user = provisionUser();
  const { code } = await authorize(user.key);
  const before = Date.now();
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(String), refreshTokenExpiresAt: expect.any(String), scopes: PINTEREST_SCOPES });
  expect(Date.parse(tokens.expiresAt as string) - before).toBeGreaterThanOrEqual(30 * DAY * 1000 - 1000);
  expect(Date.parse(tokens.expiresAt as string) - before).toBeLessThanOrEqual(30 * DAY * 1000 + 5000);
  expect(Date.parse(tokens.refreshTokenExpiresAt as string) - before).toBeGreaterThanOrEqual(60 * DAY * 1000 - 1000);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toEqual([
    {
      platform: 'pinterest',
      identity: { platformAccountId: 'brand', handle: '@brand', displayName: 'Brand Inc', instanceUrl: null, attributes: { boardId: '1100000000000000042' } },
      credentials: { ...tokens, kind: 'oauth2_refresh' },
    },
  ]);
  const outcome = await env.connectors.get('pinterest').publish(connectorAccount('pinterest', accounts[0]), pin());
  expect(outcome).toMatchObject({ status: 'published' });
  expect(env.sandbox.control.published({ platform: 'pinterest', account: user.key })[0].owner).toBe('1100000000000000042');
});

it('a user provisioned without a board attribute has the sandbox default board, and pins go there', async () => {
  const user = env.sandbox.control.provisionAccount({ platform: 'pinterest', handle: 'maker' }).identity;
  const account = await signIn(user.key);
  expect(account.identity.attributes).toEqual({ boardId: expect.any(String) });
  expect(await env.connectors.get('pinterest').publish(connectorAccount('pinterest', account), pin())).toMatchObject({ status: 'published' });
  expect(env.sandbox.control.published({ platform: 'pinterest', account: user.key })[0].owner).toBe(account.identity.attributes.boardId);
});

it('a user without a board signs in without one: the connector then refuses with board_required', async () => {
  const account = await signIn(provisionUser({ boardId: '' }).key);
  expect(account.identity.attributes).toEqual({});
  expect(await env.connectors.get('pinterest').publish(connectorAccount('pinterest', account), pin())).toMatchObject({ status: 'failed', error: { code: 'board_required' } });
});

it('refuses a spent code, another redirect uri and another client as invalid_grant, and a wrong secret as invalid_client', async () => {
  expect((await expectCodeExchangeRefusals(provisionUser().key, '1500002')).error.message).toBe('Authentication failed.');
});

it('the token endpoint takes the app only as HTTP Basic', async () => {
  const { code } = await authorize(provisionUser().key);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.clientId, client_secret: app.clientSecret as string });
  const answer = await fetch(`${env.sandbox.url}/pinterest/v5/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answer.status).toBe(401);
  expect(await answer.json()).toEqual({ code: 2, message: 'Authentication failed.' });
});

it('continuous refresh: each refresh answers a new 60-day refresh token and the one sent stops working', async () => {
  const account = await signIn(provisionUser().key);
  env.sandbox.control.advanceClock(50 * DAY);
  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  expect(refreshed.refreshToken).toEqual(expect.any(String));
  expect(refreshed.refreshToken).not.toBe(account.credentials.refreshToken);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_grant'));
  // Past the first refresh token's 60 days, the new one still works: the window moved.
  env.sandbox.control.advanceClock(20 * DAY);
  await expect(env.auth.refresh(app, { ...refreshed, kind: 'oauth2_refresh' }, account.identity)).resolves.toMatchObject({ accessToken: expect.any(String) });
});

it('an access token lasts 30 days: then Pinterest refuses it (access_token_invalid), and a refresh brings the account back', async () => {
  const account = await signIn(provisionUser().key);
  env.sandbox.control.advanceClock(30 * DAY + 1);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  const late = await env.connectors.get('pinterest').publish(connectorAccount('pinterest', account), pin());
  expect(late).toEqual({ status: 'failed', error: { code: 'access_token_invalid', message: 'Authentication failed.', retryable: false } });

  const [back] = await env.auth.identify(await env.auth.refresh(app, account.credentials, account.identity), null);
  expect(await env.connectors.get('pinterest').publish(connectorAccount('pinterest', back), pin())).toMatchObject({ status: 'published' });
});

it('revoking asks nothing of Pinterest, which has no revocation endpoint', async () => {
  const account = await signIn(provisionUser().key);
  const before = env.sandbox.control.requestCount({ platform: 'pinterest' });
  await env.auth.revoke(app, account.credentials, account.identity);
  expect(env.sandbox.control.requestCount({ platform: 'pinterest' })).toBe(before);
});

it('a user who declines comes back with access_denied and the state, without a code', async () => {
  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: 'ch', instanceUrl: null }), provisionUser().key, { deny: true });
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'declined' });
  expect(back.searchParams.has('code')).toBe(false);
});
