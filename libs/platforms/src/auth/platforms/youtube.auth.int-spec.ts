import { mediaRefs } from '@app/media';
import { PlatformCallFailed } from '../../http/platform-http';
import { PlatformAuthRegistry } from '../auth-registry';
import { pkcePair } from '../oauth2';
import { OAuthApp } from '../platform-auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';
import { YOUTUBE_SCOPES } from './youtube.auth';

/**
 * YouTube sign-in against the platform sandbox, which plays Google's OAuth 2.0 for web
 * server apps from "Using OAuth 2.0 for Web Server Applications"
 * (https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps) and
 * channels.list mine=true (https://developers.google.com/youtube/v3/docs/channels/list).
 * A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: '1234-abc.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret', redirectUri: CALLBACK };
const HOUR = 3600;

const env = sandboxPerTest('youtube');
const { authorize, signIn } = oauthFlow(env, app, { pkce: true });
let sequence = 0;

function provisionChannel() {
  return env.sandbox.control.provisionAccount({ platform: 'youtube', handle: 'BrandChannel', displayName: 'Brand Channel' }).identity;
}

const clip = () => ({ content: 'Launch video\nAll the details', media: mediaRefs([`${env.sandbox.mediaUrl}/media/clip.mp4`]), idempotencyKey: `post-${++sequence}` });

it("sends the user to Google's consent page for offline access with a consent prompt, an S256 challenge, the state and the YouTube scopes", () => {
  const url = new URL(new PlatformAuthRegistry().get('youtube').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: app.clientId,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.force-ssl',
    access_type: 'offline',
    prompt: 'consent',
    state: 'st',
    code_challenge: 'ch',
    code_challenge_method: 'S256',
  });
});

it('signs a channel in with a code and PKCE: the channel id, its handle and title; an hour-long token that uploads and comments', async () => {
  const channel = provisionChannel();
  const { code, verifier } = await authorize(channel.key);
  const before = Date.now();
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(String), refreshTokenExpiresAt: null, scopes: YOUTUBE_SCOPES });
  expect(Date.parse(tokens.expiresAt as string) - before).toBeGreaterThanOrEqual(HOUR * 1000 - 1000);
  expect(Date.parse(tokens.expiresAt as string) - before).toBeLessThanOrEqual(HOUR * 1000 + 5000);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toEqual([
    {
      platform: 'youtube',
      identity: { platformAccountId: channel.platformAccountId, handle: '@brandchannel', displayName: 'Brand Channel', instanceUrl: null, attributes: {} },
      credentials: { ...tokens, kind: 'oauth2_refresh' },
    },
  ]);
  expect(channel.platformAccountId).toMatch(/^UC[\w-]{22}$/);

  const account = connectorAccount('youtube', accounts[0]);
  const video = await env.connectors.get('youtube').publish(account, clip());
  if (video.status !== 'published') throw new Error(`upload failed: ${JSON.stringify(video)}`);
  expect(await env.connectors.get('youtube').comment(account, { kind: 'post', platformPostId: video.platformPostId }, 'First!', 'c-1')).toMatchObject({ status: 'published' });
});

it('refuses a wrong PKCE verifier, a spent code, another redirect uri and another client as invalid_grant', async () => {
  const channel = provisionChannel();
  const first = await authorize(channel.key);
  await expect(env.auth.exchangeCode({ app, code: first.code, codeVerifier: pkcePair().verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_grant'));
  await env.auth.exchangeCode({ app, code: first.code, codeVerifier: first.verifier, instanceUrl: null });
  await expect(env.auth.exchangeCode({ app, code: first.code, codeVerifier: first.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_grant'));

  const second = await authorize(channel.key);
  const elsewhere = { ...app, redirectUri: 'https://elsewhere.example/callback' };
  await expect(env.auth.exchangeCode({ app: elsewhere, code: second.code, codeVerifier: second.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_grant'));
  const otherClient = { ...app, clientId: 'another.apps.googleusercontent.com' };
  await expect(env.auth.exchangeCode({ app: otherClient, code: second.code, codeVerifier: second.verifier, instanceUrl: null })).rejects.toEqual(refusal('invalid_grant'));
});

it("refuses the app's wrong secret as invalid_client (our configuration, not the user's credential) and a redirect uri it did not register", async () => {
  const account = await signIn(provisionChannel().key);
  const refresh = env.auth.refresh({ ...app, clientSecret: 'GOCSPX-wrong' }, account.credentials, account.identity);
  await expect(refresh).rejects.toBeInstanceOf(PlatformCallFailed);
  await expect(refresh).rejects.toMatchObject({ error: { code: 'invalid_client', retryable: false } });

  const url = new URL(env.auth.authorizationUrl({ app: { ...app, redirectUri: 'https://elsewhere.example/callback' }, state: 's', codeChallenge: pkcePair().challenge, instanceUrl: null }));
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(400);
  expect(await page.json()).toMatchObject({ error: 'redirect_uri_mismatch' });
});

it('gives a refresh token only for offline access', async () => {
  const channel = provisionChannel();
  const { code, verifier } = await authorize(channel.key, { adjust: (url) => url.searchParams.set('access_type', 'online') });
  const tokens = await env.auth.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: null });
  expect(tokens.refreshToken).toBeNull();
});

it('an access token lasts an hour: then it is refused as access_token_expired, and a refresh (no rotation) brings the account back', async () => {
  const account = await signIn(provisionChannel().key);
  env.sandbox.control.advanceClock(HOUR - 60);
  await expect(env.auth.identify(account.credentials, null)).resolves.toHaveLength(1);
  env.sandbox.control.advanceClock(61);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_expired'));
  const late = await env.connectors.get('youtube').comment(connectorAccount('youtube', account), { kind: 'post', platformPostId: 'any' }, 'too late', 'c-1');
  expect(late).toMatchObject({ status: 'failed', error: { code: 'access_token_expired', retryable: false } });

  // Google's refresh answer has no refresh token: null tells the caller to keep the stored one, which keeps working.
  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  expect(refreshed).toMatchObject({ accessToken: expect.any(String), refreshToken: null, scopes: YOUTUBE_SCOPES });
  await expect(env.auth.identify(refreshed, null)).resolves.toMatchObject([{ identity: account.identity }]);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).resolves.toMatchObject({ refreshToken: null });
});

it('revoking ends the grant: the access token is refused as access_token_invalid, the refresh token as invalid_grant; revoking again is quiet', async () => {
  const account = await signIn(provisionChannel().key);
  await env.auth.revoke(app, account.credentials, account.identity);
  await expect(env.auth.identify(account.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_grant'));
  await expect(env.auth.revoke(app, account.credentials, account.identity)).resolves.toBeUndefined();
});

it('a token endpoint that stays down is a retryable failure, not a refused credential', async () => {
  const account = await signIn(provisionChannel().key);
  env.sandbox.control.addFault({ platform: 'youtube', operation: 'token', times: 10, fault: { type: 'error', status: 503, message: 'backend error' } });
  const refresh = env.auth.refresh(app, account.credentials, account.identity);
  await expect(refresh).rejects.toBeInstanceOf(PlatformCallFailed);
  await expect(refresh).rejects.toMatchObject({ error: { retryable: true } });
});

it('a user who declines comes back with access_denied and the state, without a code', async () => {
  const channel = provisionChannel();
  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: pkcePair().challenge, instanceUrl: null }), channel.key, { deny: true });
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'declined' });
  expect(back.searchParams.has('code')).toBe(false);
});
