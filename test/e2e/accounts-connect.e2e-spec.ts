import type { Platform } from '@app/contracts';
import { until } from '@app/testing';
import { TestStack } from '../support/test-stack';

/**
 * Real accounts through HTTP, for every platform, against the platform sandbox (which
 * plays each platform's documented sign-in): connect by signing in (consent → callback →
 * stored identity; Bluesky with an app password), publish with a first comment, the token expires (the sandbox clock
 * moves) → renewed → publish again, the user revokes the app → needs_reauth, and
 * publishing to it is refused without calling the platform.
 */
const CALLBACK = 'https://api.example.test/api/v1/accounts/connect/callback';
const CLIENT_BACK = 'https://client.example.test/connected?from=test';

interface PlatformCase {
  platform: Platform;
  /** A post the platform accepts (media where it needs some). */
  post: (sandboxUrl: string) => { content: string; mediaUrls?: string[] };
  /** Whether the platform takes comments (first comments are checked there). */
  comments: boolean;
  /** Whether the token the sign-in gives expires (and is renewed) within a day. */
  expires: boolean;
}

const CASES: PlatformCase[] = [
  { platform: 'x', post: () => ({ content: 'Hello from a signed-in X account' }), comments: true, expires: true },
  { platform: 'linkedin', post: () => ({ content: 'Hello from LinkedIn' }), comments: true, expires: false },
  { platform: 'facebook', post: () => ({ content: 'Hello from the page' }), comments: true, expires: false },
  { platform: 'threads', post: () => ({ content: 'Hello from Threads' }), comments: true, expires: false },
  { platform: 'mastodon', post: () => ({ content: 'Hello fediverse' }), comments: true, expires: false },
  { platform: 'tiktok', post: () => ({ content: 'Watch this', mediaUrls: [`${sandbox().mediaUrl}/media/clip.mp4`] }), comments: false, expires: true },
  { platform: 'youtube', post: () => ({ content: 'Launch video\nAll the details', mediaUrls: [`${sandbox().mediaUrl}/media/clip.mp4`] }), comments: true, expires: true },
  { platform: 'pinterest', post: () => ({ content: 'Pin this', mediaUrls: [`${sandbox().mediaUrl}/media/photo.jpg`] }), comments: false, expires: false },
  { platform: 'bluesky', post: () => ({ content: 'Hello sky' }), comments: true, expires: true },
];

type ErrorAnswer = { error: { code: string } };

let stack: TestStack;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  stack = await TestStack.start({
    sandbox: true,
    overrides: {
      oauthCallbackUrl: CALLBACK,
      platformApps: Object.fromEntries(CASES.map((c) => c.platform).map((platform) => [platform, { clientId: `${platform}-client`, clientSecret: `${platform}-secret` }])),
      accountsRefreshIntervalMs: 60 * 60_000,
    },
  });
  ({ key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'accounts']));
});
afterAll(() => stack.stop());

const sandbox = () => stack.sandbox!;

/** The user's browser: the consent page answers a redirect to our callback, which answers a redirect to the client. */
async function signIn(platform: Platform, consentAs?: string): Promise<URL> {
  const started = await stack.request('POST', '/api/v1/accounts/connect', {
    key,
    body: { platform, redirectUri: CLIENT_BACK, ...(platform === 'mastodon' ? { instanceUrl: `${sandbox().url}/mastodon` } : {}) },
  });
  expect(started.status).toBe(200);
  const consentUrl = new URL(started.body.authorizationUrl);
  if (consentAs) consentUrl.searchParams.set('sandbox_user', consentAs);
  const consent = await fetch(consentUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const toCallback = new URL(consent.headers.get('location')!);
  expect(`${toCallback.origin}${toCallback.pathname}`).toBe(CALLBACK);
  expect(toCallback.searchParams.get('state')).toBe(started.body.state);
  const callback = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${toCallback.search}`, { redirect: 'manual' });
  expect(callback.status).toBe(302);
  return new URL(callback.headers.get('location')!);
}

/** Connects the platform's account as its user would — the platform's sign-in, or for Bluesky an app password — and answers the account ids. */
async function connectAccount(platform: Platform): Promise<string[]> {
  if (platform === 'bluesky') {
    const { identity } = sandbox().control.provisionAccount({ platform, handle: 'lifecycle.example.com' });
    const body = { platform, handle: identity.handle, appPassword: identity.attributes.appPassword, pds: `${sandbox().url}/bluesky` };
    const connected = await stack.request('POST', '/api/v1/accounts', { key, body });
    expect(connected.status).toBe(201);
    return connected.body.accounts.map((account: { id: string }) => account.id);
  }
  const back = await signIn(platform);
  expect(back.searchParams.get('from')).toBe('test');
  expect(back.searchParams.get('error')).toBeNull();
  return back.searchParams.get('account_ids')!.split(',');
}

async function accountById(id: string) {
  const listed = await stack.request('GET', '/api/v1/accounts', { key });
  return (listed.body.accounts as Array<Record<string, unknown>>).find((account) => account.id === id)!;
}

async function publishNow(accountId: string, body: { content: string; mediaUrls?: string[] }, firstComments: string[] = []) {
  return stack.request('POST', '/api/v1/posts', { key, body: { ...body, accounts: [accountId], publishNow: true, ...(firstComments.length ? { firstComments } : {}) } });
}

describe.each(CASES)('$platform: connect, publish, stay alive, lose access', ({ platform, post, comments, expires }) => {
  it('connects through the platform sign-in and publishes as the identity it read', async () => {
    if (platform === 'facebook') {
      // Facebook Login gives the pages the user manages: the user has one here.
      sandbox().control.provisionAccount({ platform, handle: 'brand_page', kind: 'page', ownerKey: 'facebook:sandbox_user' });
    }
    const ids = await connectAccount(platform);
    const account = await accountById(ids[0]);
    expect(account).toMatchObject({ platform, status: 'connected', statusReason: null });
    expect(account.platformAccountId).toEqual(expect.any(String));

    const first = await publishNow(ids[0], post(sandbox().url), comments ? ['first!'] : []);
    expect(first.status).toBe(201);
    expect(first.body.results).toEqual([expect.objectContaining({ accountId: ids[0], success: true })]);
    // First comments go out after the answer (once the item is live).
    if (comments) await until(() => sandbox().control.published({ platform, kind: 'comment' }).at(-1)?.text === 'first!');

    if (expires) {
      // A day later every short-lived token has ended: the next publish renews it first.
      sandbox().control.advanceClock(26 * 3600);
      const again = await publishNow(ids[0], { ...post(sandbox().url), content: `${post(sandbox().url).content} again` });
      expect(again.body.results).toEqual([expect.objectContaining({ success: true })]);
      expect((await accountById(ids[0])).status).toBe('connected');
    }

    // The user removes the app on the platform: the next call is refused, renewal too → needs_reauth.
    const identityKey = sandbox().control.published({ platform, kind: 'post' }).at(-1)!.account;
    sandbox().control.revokeAccount(identityKey);
    const refused = await publishNow(ids[0], { ...post(sandbox().url), content: 'after revocation' });
    expect(refused.body.results).toEqual([expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'reauth_required', retryable: false }) })]);
    const stale = await accountById(ids[0]);
    expect(stale.status).toBe('needs_reauth');
    expect(stale.statusReason).toEqual(expect.any(String));

    // From now on nothing is sent to the platform for it: publishNow is refused before anything is created.
    const before = sandbox().control.requestCount({ platform });
    const events = await stack.eventCount();
    const blocked = await publishNow(ids[0], post(sandbox().url));
    expect(blocked.status).toBe(400);
    expect(blocked.body.error.code).toBe('account_needs_reauth');
    expect(await stack.eventCount()).toBe(events);
    expect(sandbox().control.requestCount({ platform })).toBe(before);

    // Signing in again brings the same account back.
    expect(await connectAccount(platform)).toContain(ids[0]);
    expect((await accountById(ids[0])).status).toBe('connected');
  });
});

it('one publishNow with a first comment reaches x, facebook, instagram, threads, linkedin, bluesky and mastodon, each as the identity it signed in as', async () => {
  // Fresh users (the default ones were revoked above); Facebook's manages a page with a linked Instagram account.
  const user = (platform: Platform) => sandbox().control.provisionAccount({ platform, handle: 'seven', key: `${platform}:seven` }).identity.key;
  const page = sandbox().control.provisionAccount({ platform: 'facebook', handle: 'seven_page', kind: 'page', ownerKey: user('facebook') }).identity;
  sandbox().control.provisionAccount({ platform: 'instagram', handle: 'seven_shop', kind: 'instagram', ownerKey: 'facebook:seven', attributes: { pageId: page.platformAccountId } });
  const ids: string[] = [];
  for (const platform of ['x', 'threads', 'linkedin', 'mastodon'] as Platform[]) ids.push(...(await signIn(platform, user(platform))).searchParams.get('account_ids')!.split(','));
  const meta = (await signIn('facebook', 'facebook:seven')).searchParams.get('account_ids')!.split(',');
  expect(meta).toHaveLength(2); // the page and its Instagram account
  ids.push(...meta);
  const sky = sandbox().control.provisionAccount({ platform: 'bluesky', handle: 'seven.example.com' });
  const bluesky = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'bluesky', handle: 'seven.example.com', appPassword: sky.identity.attributes.appPassword, pds: `${sandbox().url}/bluesky` } });
  ids.push(bluesky.body.accounts[0].id);

  const answer = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'Launch day', mediaUrls: [`${sandbox().mediaUrl}/media/photo.jpg`], accounts: ids, publishNow: true, firstComments: ['Details below'] } });
  expect(answer.status).toBe(201);
  expect(answer.body.post.status).toBe('published');
  expect(answer.body.results.map((r: { platform: string }) => r.platform).sort()).toEqual(['bluesky', 'facebook', 'instagram', 'linkedin', 'mastodon', 'threads', 'x']);
  for (const result of answer.body.results) expect(result).toMatchObject({ success: true, postId: expect.any(String) });
  // Each item was made with the token of the identity that signed in (the sandbox files items under it);
  // Instagram calls take the managing Facebook user's token, as the Instagram Graph API documents.
  const madeBy = (answer.body.results as Array<{ platform: Platform; postId: string }>).map((r) => sandbox().control.published({ platform: r.platform, kind: 'post' }).find((item) => item.id === r.postId)?.account);
  expect(madeBy.sort()).toEqual(['bluesky:seven.example.com', 'facebook:seven', 'facebook:seven_page', 'linkedin:seven', 'mastodon:seven', 'threads:seven', 'x:seven'].sort());
  for (const result of answer.body.results as Array<{ platform: Platform; postId: string }>) {
    await until(() => sandbox().control.published({ platform: result.platform, kind: 'comment' }).some((c) => c.text === 'Details below' && c.postId === result.postId));
  }
});

describe('the callback', () => {
  it('refuses a state it did not sign, and a state used twice', async () => {
    const forged = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?state=abc.def&code=x`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as ErrorAnswer).error.code).toBe('connect_state_invalid');

    const started = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    const consent = await fetch(started.body.authorizationUrl, { redirect: 'manual' });
    const query = new URL(consent.headers.get('location')!).search;
    const once = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${query}`, { redirect: 'manual' });
    expect(once.status).toBe(302);
    const twice = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${query}`, { redirect: 'manual' });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as ErrorAnswer).error.code).toBe('connect_state_invalid');
  });

  it('sends the user back with the error when they refuse consent', async () => {
    const started = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    const consent = await fetch(`${started.body.authorizationUrl}&sandbox_deny=1`, { redirect: 'manual' });
    const callback = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${new URL(consent.headers.get('location')!).search}`, { redirect: 'manual' });
    const back = new URL(callback.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('account_ids')).toBeNull();
  });
});

describe('connect refusals', () => {
  it('needs the accounts scope', async () => {
    const { key: writer } = await stack.workspace(['read', 'write', 'publish']);
    const refused = await stack.request('POST', '/api/v1/accounts/connect', { key: writer, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['accounts'] } });
  });

  it('answers sign_in_not_supported for Bluesky, invalid_redirect_uri (platform_not_configured: see "a deployment with only the Facebook app")', async () => {
    const events = await stack.eventCount();
    for (const redirectUri of ['/relative/path', 'javascript:alert(1)', 'not a url']) {
      const refused = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'x', redirectUri } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_redirect_uri');
    }
    const bluesky = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'bluesky', redirectUri: CLIENT_BACK } });
    expect(bluesky.body.error.code).toBe('sign_in_not_supported');
    expect(await stack.eventCount()).toBe(events);
  });

  it('refuses a credential the platform refuses, storing nothing', async () => {
    const events = await stack.eventCount();
    const refused = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'x', accessToken: 'made-up-token' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_credentials');
    expect(await stack.eventCount()).toBe(events);
    const { rows } = await stack.db.pool.query("SELECT count(*)::int AS n FROM accounts WHERE workspace_id = $1 AND platform = 'x' AND handle = '@made-up'", [workspaceId]);
    expect(rows[0].n).toBe(0);
  });
});

describe('credentials obtained elsewhere', () => {
  it('connects a Bluesky account with an app password, and publishes with a first comment', async () => {
    const made = sandbox().control.provisionAccount({ platform: 'bluesky', handle: 'sky.example.com' });
    const connected = await stack.request('POST', '/api/v1/accounts', {
      key,
      body: { platform: 'bluesky', handle: 'sky.example.com', appPassword: made.identity.attributes.appPassword, pds: `${sandbox().url}/bluesky` },
    });
    expect(connected.status).toBe(201);
    const [account] = connected.body.accounts;
    expect(account).toMatchObject({ platform: 'bluesky', platformAccountId: made.identity.platformAccountId, status: 'connected' });
    const published = await publishNow(account.id, { content: 'Hello sky' }, ['and a reply']);
    expect(published.body.results).toEqual([expect.objectContaining({ success: true })]);
  });

  it('connects an X token handed in, and a refused Bluesky password stores nothing', async () => {
    const made = sandbox().control.provisionAccount({ platform: 'x', handle: 'handed_in' });
    const connected = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'x', accessToken: made.accessToken, refreshToken: made.refreshToken } });
    expect(connected.status).toBe(201);
    expect(connected.body.accounts[0]).toMatchObject({ account: '@handed_in', platformAccountId: made.identity.platformAccountId });
    const wrong = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'bluesky', handle: 'nobody.example.com', appPassword: 'xxxx-xxxx-xxxx-xxxx', pds: `${sandbox().url}/bluesky` } });
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  it('disconnects: the account is listed disconnected and its token no longer works on the platform', async () => {
    const made = sandbox().control.provisionAccount({ platform: 'x', handle: 'leaving' });
    const connected = await stack.request('POST', '/api/v1/accounts', { key, body: { platform: 'x', accessToken: made.accessToken, refreshToken: made.refreshToken } });
    const id = connected.body.accounts[0].id;
    const gone = await stack.request('DELETE', `/api/v1/accounts/${id}`, { key });
    expect(gone.body).toMatchObject({ id, status: 'disconnected' });
    const tweet = await fetch(`${sandbox().url}/x/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${made.accessToken}`, 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    expect(tweet.status).toBe(401);
    const other = await stack.workspace(['accounts']);
    expect((await stack.request('DELETE', `/api/v1/accounts/${id}`, { key: other.key })).status).toBe(404);
    const notAnId = await stack.request('DELETE', '/api/v1/accounts/not-an-id', { key });
    expect(notAnId.status).toBe(404);
    expect(notAnId.body.error.code).toBe('not_found');
  });
});

/**
 * What the sign-in asks for is what publishing needs: the tokens hold the scopes asked at
 * consent, and the sandbox refuses every call whose token lacks what the platform's
 * documentation requires (libs/platforms/src/scopes), as X (media.write) and Mastodon
 * (write:media) refuse a media upload.
 */
describe('sign-in scopes', () => {
  const photo = () => `${sandbox().mediaUrl}/media/photo.jpg`;
  const clip = () => `${sandbox().mediaUrl}/media/clip.mp4`;
  /** The documented endpoints the platform was called at for an identity, and whether any call was refused. */
  const callsOf = (platform: Platform, identityKey: string) => sandbox().control.requests({ platform, account: identityKey }).map((request) => request.documented);

  it.each([
    { platform: 'x' as Platform, media: () => [photo()], uploads: ['/2/media/upload'] },
    { platform: 'x' as Platform, media: () => [clip()], uploads: ['/2/media/upload/initialize', '/2/media/upload/{id}/append', '/2/media/upload/{id}/finalize'] },
    { platform: 'mastodon' as Platform, media: () => [photo()], uploads: ['/api/v2/media'] },
  ])('a $platform account signed in through consent publishes with media ($uploads.0)', async ({ platform, media, uploads }) => {
    const user = sandbox().control.provisionAccount({ platform, handle: `media_${Math.random().toString(36).slice(2, 8)}` }).identity.key;
    const [accountId] = (await signIn(platform, user)).searchParams.get('account_ids')!.split(',');
    const published = await publishNow(accountId, { content: 'With media', mediaUrls: media() });
    expect(published.status).toBe(201);
    expect(published.body.results).toEqual([expect.objectContaining({ accountId, success: true })]);
    const item = sandbox().control.published({ platform, account: user, kind: 'post' }).at(-1)!;
    expect(item.media).toHaveLength(1);
    // Made through the documented upload endpoints, with the token the consent gave.
    expect(callsOf(platform, user)).toEqual(expect.arrayContaining(uploads));
  });

  it('the same upload is refused with the platform\'s own answer when the token lacks the media scope', async () => {
    const x = sandbox().control.provisionAccount({ platform: 'x', handle: 'no_media', scopes: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'] });
    const upload = await fetch(`${sandbox().url}/x/2/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${x.accessToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(upload.status).toBe(403);
    expect(await upload.json()).toEqual({ title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Forbidden' });
    const mastodon = sandbox().control.provisionAccount({ platform: 'mastodon', handle: 'no_media', scopes: ['read:accounts', 'read:statuses', 'write:statuses'] });
    const media = await fetch(`${sandbox().url}/mastodon/api/v2/media`, { method: 'POST', headers: { authorization: `Bearer ${mastodon.accessToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(media.status).toBe(403);
    expect(await media.json()).toEqual({ error: 'This action is outside the authorized scopes' });
  });

  it('Instagram connects with only the Facebook app configured (Facebook Login), and publishes with media', async () => {
    // This stack configures no Instagram app: Instagram signs in with the Facebook app.
    const user = sandbox().control.provisionAccount({ platform: 'facebook', handle: 'gram_owner', key: 'facebook:gram_owner' }).identity.key;
    const page = sandbox().control.provisionAccount({ platform: 'facebook', handle: 'gram_page', kind: 'page', ownerKey: user }).identity;
    const gram = sandbox().control.provisionAccount({ platform: 'instagram', handle: 'gram_shop', kind: 'instagram', ownerKey: user, attributes: { pageId: page.platformAccountId } }).identity;
    const started = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'instagram', redirectUri: CLIENT_BACK } });
    expect(started.status).toBe(200);
    expect(new URL(started.body.authorizationUrl).searchParams.get('client_id')).toBe('facebook-client');
    const ids = (await signIn('instagram', user)).searchParams.get('account_ids')!.split(',');
    const listed = await Promise.all(ids.map(accountById));
    const instagram = listed.find((account) => account.platform === 'instagram')!;
    expect(instagram).toMatchObject({ status: 'connected', platformAccountId: gram.platformAccountId });
    const published = await publishNow(instagram.id as string, { content: 'Caption', mediaUrls: [photo()] });
    expect(published.body.results).toEqual([expect.objectContaining({ success: true })]);
  });
});

describe('a deployment with only the Facebook app', () => {
  let bare: TestStack;
  let bareKey: string;
  beforeAll(async () => {
    bare = await TestStack.start({ apps: ['gateway', 'projector', 'accounts'], overrides: { oauthCallbackUrl: CALLBACK, platformApps: { facebook: { clientId: 'fb-only', clientSecret: 'fb-secret' } } } });
    ({ key: bareKey } = await bare.workspace(['accounts']));
  });
  afterAll(() => bare.stop());

  it('starts an Instagram sign-in with the Facebook app, and answers platform_not_configured (naming its variables) for a platform without one, appending nothing', async () => {
    const instagram = await bare.request('POST', '/api/v1/accounts/connect', { key: bareKey, body: { platform: 'instagram', redirectUri: CLIENT_BACK } });
    expect(instagram.status).toBe(200);
    expect(new URL(instagram.body.authorizationUrl).searchParams.get('client_id')).toBe('fb-only');
    const events = await bare.eventCount();
    const unconfigured = await bare.request('POST', '/api/v1/accounts/connect', { key: bareKey, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error).toMatchObject({ code: 'platform_not_configured', message: expect.stringContaining('X_CLIENT_ID') });
    expect(await bare.eventCount()).toBe(events);
  });
});

