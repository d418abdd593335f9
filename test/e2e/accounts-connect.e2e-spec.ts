import type { Platform } from '@app/contracts';
import { until } from '@app/testing';
import { CredentialsRefresher } from '../../apps/accounts/src/keep-alive/credentials-refresher';
import { TestStack } from '../support/test-stack';

/**
 * Real accounts through HTTP, for every platform, against the platform sandbox (which
 * plays each platform's documented sign-in): connect by signing in (consent → callback →
 * connection id → completed with the verifier → stored identity; Bluesky with an app password), publish with a first comment, the token expires (the sandbox clock
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

/**
 * The user's browser: the consent page answers a redirect to our callback, which answers a
 * redirect to the client with a connection id. Answers where the client was sent back and
 * the verifier the start answered (what the client's backend keeps).
 */
async function consentAndCallBack(platform: Platform, consentAs?: string, startKey = key): Promise<{ back: URL; verifier: string }> {
  const started = await stack.request('POST', '/api/v1/accounts/connect', {
    key: startKey,
    body: { platform, redirectUri: CLIENT_BACK, ...(platform === 'mastodon' ? { instanceUrl: `${sandbox().url}/mastodon` } : {}) },
  });
  expect(started.status).toBe(200);
  expect(started.body.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const consentUrl = new URL(started.body.authorizationUrl);
  // The verifier never travels in a url: not in the consent link the user's browser opens.
  expect(started.body.authorizationUrl).not.toContain(started.body.verifier);
  if (consentAs) consentUrl.searchParams.set('sandbox_user', consentAs);
  const consent = await fetch(consentUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const toCallback = new URL(consent.headers.get('location')!);
  expect(`${toCallback.origin}${toCallback.pathname}`).toBe(CALLBACK);
  expect(toCallback.searchParams.get('state')).toBe(started.body.state);
  const callback = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${toCallback.search}`, { redirect: 'manual' });
  expect(callback.status).toBe(302);
  const back = new URL(callback.headers.get('location')!);
  expect(back.searchParams.get('account_ids')).toBeNull();
  expect(back.toString()).not.toContain(started.body.verifier);
  return { back, verifier: started.body.verifier };
}

/** The client's backend: POST /api/v1/accounts/connect/complete. */
const complete = (connectionId: string | null, verifier: string, withKey = key) =>
  stack.request('POST', '/api/v1/accounts/connect/complete', { key: withKey, body: { connectionId, verifier } });

/** A whole sign-in: consent, callback, completion by the client's backend; answers the account ids. */
async function signIn(platform: Platform, consentAs?: string): Promise<string[]> {
  const { back, verifier } = await consentAndCallBack(platform, consentAs);
  expect(back.searchParams.get('from')).toBe('test');
  expect(back.searchParams.get('error')).toBeNull();
  const completed = await complete(back.searchParams.get('connection_id'), verifier);
  expect(completed.status).toBe(200);
  return completed.body.accounts.map((account: { id: string }) => account.id);
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
  return signIn(platform);
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
  for (const platform of ['x', 'threads', 'linkedin', 'mastodon'] as Platform[]) ids.push(...(await signIn(platform, user(platform))));
  const meta = await signIn('facebook', 'facebook:seven');
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
  // And recorded: the publisher's last events land before the tests after this one count the events they append.
  await until(async () => {
    const detail = await stack.request('GET', `/api/v1/posts/${answer.body.post.id}`, { key });
    const recorded = Object.values((detail.body.post.firstCommentResults ?? {}) as Record<string, Array<{ status: string }>>).flat();
    return recorded.length === ids.length && recorded.every((comment) => comment.status === 'posted');
  });
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
    expect(back.searchParams.get('connection_id')).toBeNull();
  });

  it('an error callback anyone can make up with the state cancels nothing: the sign-in still completes', async () => {
    const started = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    const state = encodeURIComponent(started.body.state);
    const madeUp = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?error=access_denied&error_description=cancelled&state=${state}`, { redirect: 'manual' });
    expect(madeUp.status).toBe(302);
    expect(new URL(madeUp.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    // The same again: still nothing spent.
    expect((await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?error=server_error&state=${state}`, { redirect: 'manual' })).status).toBe(302);

    const user = sandbox().control.provisionAccount({ platform: 'x', handle: 'not_cancelled', key: 'x:not_cancelled' });
    const consentUrl = new URL(started.body.authorizationUrl);
    consentUrl.searchParams.set('sandbox_user', user.identity.key);
    const consent = await fetch(consentUrl, { redirect: 'manual' });
    const callback = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${new URL(consent.headers.get('location')!).search}`, { redirect: 'manual' });
    const connectionId = new URL(callback.headers.get('location')!).searchParams.get('connection_id');
    expect(connectionId).toEqual(expect.any(String));
    const completed = await complete(connectionId, started.body.verifier);
    expect(completed.status).toBe(200);
    expect(completed.body.accounts).toEqual([expect.objectContaining({ account: '@not_cancelled', platformAccountId: user.identity.platformAccountId })]);
  });

  it('an error callback with a state it did not sign, or one already called back with a code, is refused', async () => {
    const forged = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?error=access_denied&state=abc.def`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as ErrorAnswer).error.code).toBe('connect_state_invalid');
    const started = await stack.request('POST', '/api/v1/accounts/connect', { key, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    const consent = await fetch(started.body.authorizationUrl, { redirect: 'manual' });
    expect((await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback${new URL(consent.headers.get('location')!).search}`, { redirect: 'manual' })).status).toBe(302);
    const late = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?error=access_denied&state=${encodeURIComponent(started.body.state)}`, { redirect: 'manual' });
    expect(late.status).toBe(400);
    expect(((await late.json()) as ErrorAnswer).error.code).toBe('connect_state_invalid');
  });
});

describe('the sign-in is completed only by whoever started it', () => {
  const connectedEvents = async () => Number((await stack.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM events WHERE type = 'AccountConnected'")).rows[0].n);
  const storedAs = async (platformAccountId: string) =>
    (await stack.db.pool.query<{ workspace_id: string }>('SELECT workspace_id FROM accounts WHERE platform_account_id = $1', [platformAccountId])).rows.map((row) => row.workspace_id);

  it("a consent link that reached someone else attaches nothing: the victim's account stays out of the sender's workspace without the verifier", async () => {
    // The sender holds an accounts key of its workspace and sends its consent link to a victim, who consents.
    const sender = await stack.workspace(['read', 'accounts']);
    const victim = sandbox().control.provisionAccount({ platform: 'x', handle: 'victim', key: 'x:victim' });
    const events = await stack.eventCount();
    const connected = await connectedEvents();
    const { back, verifier } = await consentAndCallBack('x', victim.identity.key, sender.key);
    const connectionId = back.searchParams.get('connection_id')!;
    expect(connectionId).toMatch(/^[0-9a-f-]{36}$/);

    // The callback exchanged the code but attached nothing, announced nothing.
    expect(await storedAs(victim.identity.platformAccountId)).toEqual([]);
    expect(await connectedEvents()).toBe(connected);
    expect((await stack.request('GET', '/api/v1/accounts', { key: sender.key })).body.accounts).toEqual([]);

    // The connection id alone, with the sender's key: a wrong verifier, or another sign-in's, is refused and attaches nothing.
    const other = await stack.request('POST', '/api/v1/accounts/connect', { key: sender.key, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    for (const wrong of ['guessed', other.body.verifier, `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}`]) {
      const refused = await complete(connectionId, wrong, sender.key);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('connection_verifier_invalid');
    }
    expect(await stack.eventCount()).toBe(events);
    expect(await storedAs(victim.identity.platformAccountId)).toEqual([]);
    expect((await stack.request('GET', '/api/v1/accounts', { key: sender.key })).body.accounts).toEqual([]);

    // Refusals burn nothing: the one holding the verifier (the client's backend that started it) completes it.
    const completed = await complete(connectionId, verifier, sender.key);
    expect(completed.status).toBe(200);
    expect(await storedAs(victim.identity.platformAccountId)).toEqual([sender.workspaceId]);
    expect(await connectedEvents()).toBe(connected + 1);
  });

  it('a completion from another workspace is not_found, even with the right verifier, and attaches nothing there', async () => {
    const user = sandbox().control.provisionAccount({ platform: 'x', handle: 'owned_here', key: 'x:owned_here' });
    const { back, verifier } = await consentAndCallBack('x', user.identity.key);
    const connectionId = back.searchParams.get('connection_id')!;
    const elsewhere = await stack.workspace(['read', 'accounts']);
    const events = await stack.eventCount();
    const refused = await complete(connectionId, verifier, elsewhere.key);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('not_found');
    expect(await stack.eventCount()).toBe(events);
    expect(await storedAs(user.identity.platformAccountId)).toEqual([]);
    const unknown = await complete('00000000-0000-4000-8000-000000000000', verifier);
    expect(unknown.status).toBe(404);
    expect((await complete(connectionId, verifier)).status).toBe(200);
    expect(await storedAs(user.identity.platformAccountId)).toEqual([workspaceId]);
  });

  it('is single-use: a second completion is connection_already_completed and appends nothing', async () => {
    const user = sandbox().control.provisionAccount({ platform: 'x', handle: 'once_only', key: 'x:once_only' });
    const { back, verifier } = await consentAndCallBack('x', user.identity.key);
    const connectionId = back.searchParams.get('connection_id')!;
    const [first, second] = await Promise.all([complete(connectionId, verifier), complete(connectionId, verifier)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect([first, second].find((answer) => answer.status === 409)!.body.error.code).toBe('connection_already_completed');
    const events = await stack.eventCount();
    const again = await complete(connectionId, verifier);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('connection_already_completed');
    expect(await stack.eventCount()).toBe(events);
    // Its tokens left the pending row once attached.
    const { rows } = await stack.db.pool.query('SELECT signed_in FROM account_connect_requests WHERE connection_id = $1', [connectionId]);
    expect(rows[0].signed_in).toBeNull();
  });

  it('expires ten minutes after the callback: connection_expired, nothing attached', async () => {
    const user = sandbox().control.provisionAccount({ platform: 'x', handle: 'too_late', key: 'x:too_late' });
    const { back, verifier } = await consentAndCallBack('x', user.identity.key);
    const connectionId = back.searchParams.get('connection_id')!;
    const events = await stack.eventCount();
    const realNow = stack.config.now;
    stack.config.now = () => new Date(Date.now() + 10 * 60_000 + 1_000);
    const held = async () => (await stack.db.pool.query('SELECT signed_in FROM account_connect_requests WHERE connection_id = $1', [connectionId])).rows[0].signed_in;
    expect(await held()).not.toBeNull();
    try {
      const late = await complete(connectionId, verifier);
      expect(late.status).toBe(410);
      expect(late.body.error.code).toBe('connection_expired');
      // The accounts service's pass forgets the tokens nobody came for; a late completion is still told why.
      await stack.app('accounts').get(CredentialsRefresher).pass();
      expect(await held()).toBeNull();
      expect((await complete(connectionId, verifier)).body.error.code).toBe('connection_expired');
    } finally {
      stack.config.now = realNow;
    }
    expect(await stack.eventCount()).toBe(events);
    expect(await storedAs(user.identity.platformAccountId)).toEqual([]);
  });

  it('refuses a completion body without connectionId or verifier', async () => {
    const events = await stack.eventCount();
    for (const body of [{ verifier: 'x' }, { connectionId: 'x' }, { connectionId: 1, verifier: 'x' }]) {
      const refused = await stack.request('POST', '/api/v1/accounts/connect/complete', { key, body });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_body');
    }
    const reader = await stack.workspace(['read']);
    expect((await stack.request('POST', '/api/v1/accounts/connect/complete', { key: reader.key, body: { connectionId: 'x', verifier: 'y' } })).status).toBe(403);
    expect(await stack.eventCount()).toBe(events);
  });
});

describe('where a sign-in may send the user back', () => {
  const requests = async () => Number((await stack.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM account_connect_requests')).rows[0].n);
  const start = (redirectUri: string, withKey = key) => stack.request('POST', '/api/v1/accounts/connect', { key: withKey, body: { platform: 'x', redirectUri } });

  it.each([
    ['plain http', 'http://client.example.test/connected'],
    ['credentials in the url', 'https://user:pw@client.example.test/connected'],
    ['a loopback address', 'https://127.0.0.1/connected'],
    ['an IPv6 loopback address', 'https://[::1]:8443/connected'],
    ['localhost', 'https://localhost:8443/connected'],
    ['a private address', 'https://10.1.2.3/connected'],
    ['a link-local (metadata) address', 'https://169.254.169.254/latest'],
    ['a fragment', 'https://client.example.test/connected#done'],
    ['a relative path', '/relative/path'],
    ['javascript:', 'javascript:alert(1)'],
  ])('refuses %s with invalid_redirect_uri, storing nothing', async (_case, redirectUri) => {
    const [events, before] = [await stack.eventCount(), await requests()];
    const refused = await start(redirectUri);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_redirect_uri');
    expect(await stack.eventCount()).toBe(events);
    expect(await requests()).toBe(before);
  });

  it("keeps to the workspace's allowed origins once it has some", async () => {
    const limited = await stack.workspace(['accounts']);
    await stack.workspaces.setRedirectOrigins(limited.workspaceId, ['https://app.example.test']);
    const before = await requests();
    const refused = await start('https://elsewhere.example.test/connected', limited.key);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('redirect_uri_not_allowed');
    expect(await requests()).toBe(before);
    expect((await start('https://app.example.test/connected?session=1', limited.key)).status).toBe(200);
    // The allow list narrows the service's rule; it does not lift it.
    await stack.workspaces.setRedirectOrigins(limited.workspaceId, ['http://app.example.test']);
    expect((await start('http://app.example.test/connected', limited.key)).body.error.code).toBe('invalid_redirect_uri');
  });
});

describe('connect refusals', () => {
  it('needs the accounts scope', async () => {
    const { key: writer } = await stack.workspace(['read', 'write', 'publish']);
    const refused = await stack.request('POST', '/api/v1/accounts/connect', { key: writer, body: { platform: 'x', redirectUri: CLIENT_BACK } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['accounts'] } });
  });

  it('answers sign_in_not_supported for Bluesky (platform_not_configured: see "a deployment with only the Facebook app")', async () => {
    const events = await stack.eventCount();
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
    const [accountId] = await signIn(platform, user);
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
    const ids = await signIn('instagram', user);
    const listed = await Promise.all(ids.map(accountById));
    const instagram = listed.find((account: Record<string, unknown>) => account.platform === 'instagram')!;
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

