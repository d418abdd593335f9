import { mediaRefs } from '@app/media';
import type { SandboxIdentity, RunningPlatformSandbox } from '@app/platform-sandbox';
import type { PublishRequest } from '../../connector';
import { PlatformAuthRegistry } from '../auth-registry';
import { OAuthApp, SignedInAccount, StoredCredentials } from '../platform-auth';
import { FACEBOOK_SCOPES } from './facebook.auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest } from './sign-in.test-support';

/**
 * Facebook Login for pages and Instagram against the platform sandbox, which plays Meta's
 * pages: "Manually Build a Login Flow"
 * (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow), "Long-Lived
 * Access Tokens" (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived),
 * Pages "Getting Started" for /me/accounts (https://developers.facebook.com/docs/pages/getting-started),
 * the Instagram API "Overview" for the user token Instagram calls take
 * (https://developers.facebook.com/docs/instagram-api/overview) and the User "permissions" edge for
 * revocation (https://developers.facebook.com/docs/graph-api/reference/user/permissions).
 * A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: '1000000000000001', clientSecret: 'facebook-app-secret', redirectUri: CALLBACK };
const DAY = 86_400;
const SIXTY_DAYS_MS = 60 * DAY * 1000;
const env = sandboxPerTest('facebook');
/** A photo on the sandbox's media host (Instagram pulls it; the connector fetches it first, through the media pipeline). */
const photo = (): string => `${env.sandbox.mediaUrl}/media/photo.jpg`;
// One sign-in gives a page account per page and an Instagram account per linked professional account.
const { authorize, signInAccounts: signIn } = oauthFlow(env, app, { pkce: false });
let sequence = 0;

const post = (content: string, mediaUrls: string[] = []): PublishRequest => ({ content, media: mediaRefs(mediaUrls), idempotencyKey: `post-${++sequence}` });
const expiresInAbout = (expiresAt: string | null, ms: number) => expect(Math.abs(Date.parse(expiresAt as string) - Date.now() - ms)).toBeLessThan(60_000);

interface Brand {
  user: SandboxIdentity;
  page: SandboxIdentity;
  otherPage: SandboxIdentity;
  instagram: SandboxIdentity;
}

/** A Facebook user managing two pages, the first linked to an Instagram professional account. */
function provisionBrand(): Brand {
  const provision = (input: Parameters<RunningPlatformSandbox['control']['provisionAccount']>[0]) => env.sandbox.control.provisionAccount(input).identity;
  const user = provision({ platform: 'facebook', handle: 'olivia', displayName: 'Olivia Owner' });
  const page = provision({ platform: 'facebook', handle: 'brandpage', displayName: 'Brand Page', kind: 'page', ownerKey: user.key });
  const otherPage = provision({ platform: 'facebook', handle: 'otherpage', displayName: 'Other Page', kind: 'page', ownerKey: user.key });
  const instagram = provision({ platform: 'instagram', handle: 'brand.ig', displayName: 'Brand IG', kind: 'instagram', ownerKey: user.key, attributes: { pageId: page.platformAccountId } });
  return { user, page, otherPage, instagram };
}

function accountOf(accounts: SignedInAccount[], identity: SandboxIdentity): SignedInAccount {
  const found = accounts.find((account) => account.identity.platformAccountId === identity.platformAccountId);
  if (!found) throw new Error(`no account for ${identity.key}`);
  return found;
}

const publishAs = (account: SignedInAccount, request: PublishRequest) => env.connectors.get(account.platform).publish(connectorAccount(account.platform, account), request);

it("sends the user to facebook.com's login dialog with the state and the pages and Instagram permissions", () => {
  const url = new URL(new PlatformAuthRegistry().get('facebook').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v23.0/dialog/oauth');
  expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: app.clientId, redirect_uri: CALLBACK, state: 'st', response_type: 'code', scope: FACEBOOK_SCOPES.join(',') });
  expect(FACEBOOK_SCOPES).toEqual(expect.arrayContaining(['pages_manage_posts', 'pages_manage_engagement', 'instagram_content_publish', 'instagram_manage_comments']));
});

it('one sign-in gives a page account per page (page tokens without expiry) and an Instagram account per linked professional account (the long-lived user token)', async () => {
  const brand = provisionBrand();
  const tokens = await env.auth.exchangeCode({ app, code: (await authorize(brand.user.key)).code, codeVerifier: 'unused', instanceUrl: null });
  expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: null, expiresAt: expect.any(String), refreshTokenExpiresAt: null, scopes: [] });
  expiresInAbout(tokens.expiresAt, SIXTY_DAYS_MS);

  const accounts = await env.auth.identify(tokens, null);
  expect(accounts).toHaveLength(3);
  const userId = brand.user.platformAccountId;
  expect(accountOf(accounts, brand.page)).toEqual({
    platform: 'facebook',
    identity: { platformAccountId: brand.page.platformAccountId, handle: '@brandpage', displayName: 'Brand Page', instanceUrl: null, attributes: { userId } },
    credentials: { accessToken: expect.any(String), refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [], kind: 'meta_page' },
  });
  expect(accountOf(accounts, brand.otherPage)).toMatchObject({ platform: 'facebook', identity: { handle: '@otherpage' }, credentials: { kind: 'meta_page' } });
  expect(accountOf(accounts, brand.instagram)).toEqual({
    platform: 'instagram',
    identity: { platformAccountId: brand.instagram.platformAccountId, handle: '@brand.ig', displayName: 'Brand IG', instanceUrl: null, attributes: { userId, pageId: brand.page.platformAccountId } },
    credentials: { ...tokens, kind: 'long_lived' },
  });
  expect(brand.instagram.platformAccountId).toMatch(/^17841\d+$/);

  expect(await publishAs(accountOf(accounts, brand.page), post('Hello from the page'))).toMatchObject({ status: 'published' });
  expect(await publishAs(accountOf(accounts, brand.instagram), post('A caption', [photo()]))).toMatchObject({ status: 'published' });
});

it("a page's feed refuses another page's token, and an Instagram account refuses a token that does not manage it", async () => {
  const brand = provisionBrand();
  const accounts = await signIn(brand.user.key);
  const page = accountOf(accounts, brand.page);
  const wrongPage = { ...page, identity: accountOf(accounts, brand.otherPage).identity };
  expect(await publishAs(wrongPage, post('Not my page'))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'permission_denied', retryable: false }) });

  const stranger = env.sandbox.control.provisionAccount({ platform: 'facebook', handle: 'stranger' });
  const instagram = accountOf(accounts, brand.instagram);
  const foreign = { ...instagram, credentials: { ...instagram.credentials, accessToken: stranger.accessToken } };
  expect(await publishAs(foreign, post('Not my account', [photo()]))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'permission_denied', retryable: false }) });
  expect(env.sandbox.control.published({ kind: 'post' })).toHaveLength(0);
});

it('page tokens outlive the 60-day user token; the Instagram token then expires (access_token_expired) and cannot be renewed', async () => {
  const brand = provisionBrand();
  const accounts = await signIn(brand.user.key);
  env.sandbox.control.advanceClock(61 * DAY);
  expect(await publishAs(accountOf(accounts, brand.page), post('Still here'))).toMatchObject({ status: 'published' });
  const instagram = accountOf(accounts, brand.instagram);
  expect(await publishAs(instagram, post('Too late', [photo()]))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'access_token_expired', retryable: false }) });
  await expect(env.auth.refresh(app, instagram.credentials, instagram.identity)).rejects.toEqual(refusal('access_token_expired'));
});

it("renews the Instagram account's user token by exchanging it again, and keeps a page token Graph still takes", async () => {
  const brand = provisionBrand();
  const accounts = await signIn(brand.user.key);
  env.sandbox.control.advanceClock(30 * DAY);
  const instagram = accountOf(accounts, brand.instagram);
  const renewed = await env.auth.refresh(app, instagram.credentials, instagram.identity);
  expect(renewed.accessToken).not.toBe(instagram.credentials.accessToken);
  expiresInAbout(renewed.expiresAt, SIXTY_DAYS_MS);
  env.sandbox.control.advanceClock(45 * DAY);
  expect(await publishAs({ ...instagram, credentials: { ...renewed, kind: 'long_lived' } }, post('Renewed', [photo()]))).toMatchObject({ status: 'published' });

  const page = accountOf(accounts, brand.page);
  expect(await env.auth.refresh(app, page.credentials, page.identity)).toEqual(page.credentials);
});

it("revoking ends the user's grant: page and Instagram tokens stop working (access_token_invalid), and a page cannot be renewed", async () => {
  const brand = provisionBrand();
  const accounts = await signIn(brand.user.key);
  const page = accountOf(accounts, brand.page);
  await env.auth.revoke(app, page.credentials, page.identity);
  expect(await publishAs(page, post('Gone'))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'access_token_invalid', retryable: false }) });
  expect(await publishAs(accountOf(accounts, brand.instagram), post('Gone', [photo()]))).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'access_token_invalid' }) });
  await expect(env.auth.refresh(app, page.credentials, page.identity)).rejects.toEqual(refusal('access_token_invalid'));
  // Revoking a grant already gone is done, not an error.
  const instagram = accountOf(accounts, brand.instagram);
  await expect(env.auth.revoke(null, instagram.credentials, instagram.identity)).resolves.toBeUndefined();
});

it('refuses a spent code and another redirect uri as credentials, and a wrong app secret without retrying it', async () => {
  const brand = provisionBrand();
  const { code } = await authorize(brand.user.key);
  await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  await expect(env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_parameter'));

  const elsewhere = { ...app, redirectUri: 'https://elsewhere.example/callback' };
  await expect(env.auth.exchangeCode({ app: elsewhere, code: (await authorize(brand.user.key)).code, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_parameter'));

  const before = env.sandbox.control.requestCount({ platform: 'facebook', operation: 'token' });
  const wrongSecret = env.auth.exchangeCode({ app: { ...app, clientSecret: 'not-the-secret' }, code: (await authorize(brand.user.key)).code, codeVerifier: 'unused', instanceUrl: null });
  await expect(wrongSecret).rejects.toMatchObject({ name: 'PlatformCallFailed', error: { code: 'graph_error_1', message: 'Error validating client secret.', retryable: false } });
  expect(env.sandbox.control.requestCount({ platform: 'facebook', operation: 'token' }) - before).toBe(1);
});

it('a user who declines comes back with access_denied and the state, without a code', async () => {
  const brand = provisionBrand();
  const back = await consent(env.auth.authorizationUrl({ app, state: 'declined', codeChallenge: 'unused', instanceUrl: null }), brand.user.key, { deny: true });
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error', state: 'declined' });
});

it('identifies a page token handed in as that page, and refuses an unknown token', async () => {
  const brand = provisionBrand();
  const page = accountOf(await signIn(brand.user.key), brand.page);
  const handedIn: StoredCredentials = { ...page.credentials };
  expect(await env.auth.identify(handedIn, null)).toEqual([
    { platform: 'facebook', identity: { platformAccountId: brand.page.platformAccountId, handle: `@${brand.page.platformAccountId}`, displayName: 'Brand Page', instanceUrl: null, attributes: {} }, credentials: { ...handedIn, kind: 'meta_page' } },
  ]);
  await expect(env.auth.identify({ ...handedIn, accessToken: 'not-a-token' }, null)).rejects.toEqual(refusal('access_token_invalid'));
});

it('follows the pages of /me/accounts past the first hundred', async () => {
  const user = env.sandbox.control.provisionAccount({ platform: 'facebook', handle: 'agency' }).identity;
  for (let index = 0; index < 101; index++) env.sandbox.control.provisionAccount({ platform: 'facebook', handle: `client${index}`, kind: 'page', ownerKey: user.key });
  const accounts = await signIn(user.key);
  expect(new Set(accounts.map((account) => account.identity.handle)).size).toBe(101);
});

it('Instagram signs in through the same Facebook Login, under its own endpoint', async () => {
  const brand = provisionBrand();
  const instagramAuth = env.registry.get('instagram');
  expect(instagramAuth.platform).toBe('instagram');
  const accounts = await signIn(brand.user.key, instagramAuth);
  expect(accounts.map((account) => account.platform).sort()).toEqual(['facebook', 'facebook', 'instagram']);
  expect(env.sandbox.control.requestCount({ platform: 'instagram', operation: 'token' })).toBe(2);
  expect(await publishAs(accountOf(accounts, brand.instagram), post('Via Instagram', [photo()]))).toMatchObject({ status: 'published' });
});
