import { mediaRefs } from '@app/media';
import { PlatformAuthRegistry } from '../auth-registry';
import { OAuthApp } from '../platform-auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';
import { TIKTOK_SCOPES } from './tiktok.auth';

/**
 * TikTok sign-in against the platform sandbox, which plays Login Kit for Web
 * (https://developers.tiktok.com/doc/login-kit-web), the token endpoint ("Get a User Access
 * Token", "Refresh a User Access Token", "Revoke a User Access Token" under
 * https://developers.tiktok.com/docs/en/) and "Get User Info"
 * (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info). A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: 'awtiktokclientkey', clientSecret: 'tiktok-client-secret', redirectUri: CALLBACK };
const TWO_HOURS = 2 * 3600;
const DAY = 24 * 3600;

const env = sandboxPerTest('tiktok');
// TikTok's web flow takes no PKCE.
const { authorize, signIn, expectCodeExchangeRefusals } = oauthFlow(env, app, { pkce: false });
let sequence = 0;

function provisionUser() {
  return env.sandbox.control.provisionAccount({ platform: 'tiktok', handle: 'brand', displayName: 'Brand Inc' }).identity;
}

const video = () => ({ content: 'Watch this', media: mediaRefs([`${env.sandbox.mediaUrl}/media/clip.mp4`]), idempotencyKey: `post-${++sequence}` });

it("sends the user to TikTok's web consent page with the client key, comma-separated scopes and the state, without PKCE", () => {
  const url = new URL(new PlatformAuthRegistry().get('tiktok').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://www.tiktok.com/v2/auth/authorize/');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_key: app.clientId,
    scope: 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.upload,video.list',
    response_type: 'code',
    redirect_uri: CALLBACK,
    state: 'st',
  });
});

it('signs a user in: the open_id, the @username and display name; a two-hour token (refresh token 180 days) that posts a video', async () => {
  const user = provisionUser();
  const { code } = await authorize(user.key);
  const before = Date.now();
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(String), refreshTokenExpiresAt: expect.any(String), scopes: TIKTOK_SCOPES });
  expect(Date.parse(tokens.expiresAt as string) - before).toBeGreaterThanOrEqual(TWO_HOURS * 1000 - 1000);
  expect(Date.parse(tokens.expiresAt as string) - before).toBeLessThanOrEqual(TWO_HOURS * 1000 + 5000);
  expect(Date.parse(tokens.refreshTokenExpiresAt as string) - before).toBeGreaterThanOrEqual(180 * DAY * 1000 - 1000);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toEqual([
    {
      platform: 'tiktok',
      identity: { platformAccountId: user.platformAccountId, handle: '@brand', displayName: 'Brand Inc', instanceUrl: null, attributes: {} },
      credentials: { ...tokens, kind: 'oauth2_refresh' },
    },
  ]);
  const outcome = await env.connectors.get('tiktok').publish(connectorAccount('tiktok', accounts[0]), video());
  expect(outcome).toMatchObject({ status: 'published', url: expect.stringMatching(/^https:\/\/www\.tiktok\.com\/@brand\/video\/\d+$/) });
});

it('refuses a spent code, another redirect uri and another client as invalid_grant, and a wrong secret as invalid_client', async () => {
  await expectCodeExchangeRefusals(provisionUser().key, 'another-key');
});

it('rotates the refresh token: each refresh answers a new one and the one sent stops working', async () => {
  const account = await signIn(provisionUser().key);
  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  expect(refreshed.refreshToken).toEqual(expect.any(String));
  expect(refreshed.refreshToken).not.toBe(account.credentials.refreshToken);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_grant'));
  const again = await env.auth.refresh(app, { ...refreshed, kind: 'oauth2_refresh' }, account.identity);
  await expect(env.auth.identify(again, null)).resolves.toMatchObject([{ identity: account.identity }]);
});

it('an access token lasts two hours: then TikTok refuses it as access_token_invalid, and a refresh brings the account back', async () => {
  const account = await signIn(provisionUser().key);
  env.sandbox.control.advanceClock(TWO_HOURS - 60);
  await expect(env.auth.identify(account.credentials, null)).resolves.toHaveLength(1);
  env.sandbox.control.advanceClock(61);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  const late = await env.connectors.get('tiktok').publish(connectorAccount('tiktok', account), video());
  expect(late).toEqual({ status: 'failed', error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.', retryable: false } });

  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  const [back] = await env.auth.identify(refreshed, null);
  expect(await env.connectors.get('tiktok').publish(connectorAccount('tiktok', back), video())).toMatchObject({ status: 'published' });
});

it('revoking ends the grant: neither the access token nor the refresh token works afterwards', async () => {
  const account = await signIn(provisionUser().key);
  await env.auth.revoke(app, account.credentials, account.identity);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_grant'));
});

it('a user who does not grant user.info.profile gives no username: the sign-in is refused as scope_not_authorized', async () => {
  const { code } = await authorize(provisionUser().key, { adjust: (url) => url.searchParams.set('scope', 'user.info.basic,video.publish') });
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  await expect(env.auth.identify(tokens, null)).rejects.toEqual(refusal('scope_not_authorized'));
});

it('the consent step requires the state; the token endpoint takes a form only', async () => {
  const url = new URL(env.auth.authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  url.searchParams.delete('state');
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(400);
  expect(await page.json()).toMatchObject({ error: 'invalid_request', log_id: expect.any(String) });

  const asJson = await fetch(`${env.sandbox.url}/tiktok/v2/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_key: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', code: 'c', redirect_uri: CALLBACK }),
  });
  expect(asJson.status).toBe(400);
  expect(await asJson.json()).toMatchObject({ error: 'invalid_request' });
});

it('a user who declines comes back with access_denied and the state, without a code', async () => {
  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: 'ch', instanceUrl: null }), provisionUser().key, { deny: true });
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'declined' });
  expect(back.searchParams.has('code')).toBe(false);
});
