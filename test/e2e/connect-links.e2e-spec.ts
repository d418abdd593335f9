import { TestStack } from '../support/test-stack';

/**
 * POST /api/v1/connect-links and DELETE /api/v1/connect-links/:id through HTTP: the scope,
 * the body's validation (redirectUri by the sign-in's own policy, brand, expiry, platforms),
 * refusals that store nothing and append nothing, the page refusing a revoked, expired or
 * altered link, and another workspace unable to revoke.
 */
const BACK = 'https://client.example.test/connected';

let stack: TestStack;
let key: string;
let now = new Date();

beforeAll(async () => {
  stack = await TestStack.start({ overrides: { now: () => now } });
  ({ key } = await stack.workspace(['read', 'accounts']));
});
afterAll(() => stack.stop());

const create = (body: unknown, withKey = key) => stack.request('POST', '/api/v1/connect-links', { key: withKey, body });
const linkCount = async () => Number((await stack.db.pool.query<{ count: string }>('SELECT count(*) FROM connect_links')).rows[0].count);
/** What a browser sends: the page answers it HTML for every outcome (a program gets the API's error body). */
const browse = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { accept: 'text/html', ...(init.headers as Record<string, string>) } });
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe('POST /api/v1/connect-links', () => {
  it('answers a signed link on the gateway, its id and its expiry (default one hour)', async () => {
    const created = await create({ redirectUri: BACK, platforms: ['x', 'mastodon'], brand: { name: 'Acme', logoUrl: 'https://cdn.acme.test/logo.png', accentColor: '#0a7' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['expiresAt', 'id', 'url']);
    const url = new URL(created.body.url);
    expect(url.origin).toBe('https://api.example.test');
    expect(url.pathname).toMatch(new RegExp(`^/connect/${created.body.id}\\.[A-Za-z0-9_-]{43}$`));
    expect(new Date(created.body.expiresAt).getTime() - now.getTime()).toBe(3600_000);
    const page = await browse(`${stack.baseUrl}${url.pathname}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Connect your accounts to Acme');
    expect(html).toContain('Sign in with X');
    expect(html).toContain('Your Mastodon server');
    expect(html).not.toContain('Bluesky');
    // Nothing of the key or the client's redirectUri is written into the page.
    expect(html).not.toContain(key);
    expect(html).not.toContain(BACK);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const css = await fetch(`${stack.baseUrl}/connect-page.css?accent=0a7`);
    expect(await css.text()).toContain('--accent:#00aa77');
  });

  it('takes expiresInSeconds up to seven days', async () => {
    const created = await create({ redirectUri: BACK, expiresInSeconds: 7 * 24 * 3600 });
    expect(created.status).toBe(201);
    expect(new Date(created.body.expiresAt).getTime() - now.getTime()).toBe(7 * 24 * 3600_000);
  });

  it('needs the accounts scope: refused, nothing stored, nothing appended', async () => {
    const { key: readOnly } = await stack.workspace(['read', 'write', 'publish', 'engage']);
    const [links, events] = [await linkCount(), await stack.eventCount()];
    const refused = await create({ redirectUri: BACK }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', details: { missing: ['accounts'] } });
    expect(await stack.request('POST', '/api/v1/connect-links', { body: { redirectUri: BACK } }).then((r) => r.status)).toBe(401);
    expect([await linkCount(), await stack.eventCount()]).toEqual([links, events]);
  });

  it.each([
    ['a plain-http redirectUri', { redirectUri: 'http://client.example.test/back' }, 'invalid_redirect_uri'],
    ['a loopback redirectUri', { redirectUri: 'https://127.0.0.1/back' }, 'invalid_redirect_uri'],
    ['a redirectUri with credentials', { redirectUri: 'https://u:p@client.example.test/back' }, 'invalid_redirect_uri'],
    ['a redirectUri with a fragment', { redirectUri: 'https://client.example.test/back#x' }, 'invalid_redirect_uri'],
    ['no redirectUri', {}, 'invalid_body'],
    ['an accent that is not a hex colour', { redirectUri: BACK, brand: { accentColor: 'red' } }, 'invalid_body'],
    ['an accent without its #', { redirectUri: BACK, brand: { accentColor: '1a73e8' } }, 'invalid_body'],
    ['an accent with alpha', { redirectUri: BACK, brand: { accentColor: '#1a73e8ff' } }, 'invalid_body'],
    ['a logo over plain http', { redirectUri: BACK, brand: { logoUrl: 'http://cdn.acme.test/logo.png' } }, 'invalid_body'],
    ['a logo as a data url', { redirectUri: BACK, brand: { logoUrl: 'data:image/png;base64,AAAA' } }, 'invalid_body'],
    ['an empty brand name', { redirectUri: BACK, brand: { name: '' } }, 'invalid_body'],
    ['an unknown platform', { redirectUri: BACK, platforms: ['myspace'] }, 'invalid_body'],
    ['no platforms at all', { redirectUri: BACK, platforms: [] }, 'invalid_body'],
    ['more than seven days', { redirectUri: BACK, expiresInSeconds: 7 * 24 * 3600 + 1 }, 'invalid_body'],
    ['a fractional expiry', { redirectUri: BACK, expiresInSeconds: 90.5 }, 'invalid_body'],
  ])('refuses %s with a stable code; nothing stored, nothing appended', async (_case, body, code) => {
    const [links, events] = [await linkCount(), await stack.eventCount()];
    const refused = await create(body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(code);
    expect([await linkCount(), await stack.eventCount()]).toEqual([links, events]);
  });

  it("refuses a redirectUri off the workspace's allowed origins (the sign-in's own list)", async () => {
    const { key: narrowKey, workspaceId: narrow } = await stack.workspace(['accounts']);
    await stack.workspaces.setRedirectOrigins(narrow, ['https://app.acme.test']);
    const links = await linkCount();
    const refused = await create({ redirectUri: BACK }, narrowKey);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('redirect_uri_not_allowed');
    expect(await linkCount()).toBe(links);
    expect((await create({ redirectUri: 'https://app.acme.test/done' }, narrowKey)).status).toBe(201);
  });
});

describe('starting a sign-in from the page', () => {
  it('keeps the verifier in an HttpOnly, Secure, SameSite=Lax cookie on the page\'s path and sends the browser to the consent', async () => {
    const created = await create({ redirectUri: BACK, platforms: ['x'] });
    const path = new URL(created.body.url).pathname;
    const start = await browse(`${stack.baseUrl}${path}/start`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'platform=x', redirect: 'manual' });
    expect(start.status).toBe(303);
    const consent = new URL(start.headers.get('location')!);
    expect(consent.searchParams.get('state')).toBeTruthy();
    const cookie = start.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^connect_signin=x\.[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain(`Path=${path}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('SameSite=Lax');
    // The verifier is in the cookie only, never in the consent url.
    expect(consent.toString()).not.toContain(cookie.split(';')[0].split('.')[1]);
  });

  it('refuses a platform the link does not offer (nothing started, no cookie)', async () => {
    const created = await create({ redirectUri: BACK, platforms: ['x'] });
    const path = new URL(created.body.url).pathname;
    const start = await browse(`${stack.baseUrl}${path}/start`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'platform=linkedin', redirect: 'manual' });
    expect(start.status).toBe(400);
    expect(start.headers.get('set-cookie')).toBeNull();
    expect(await start.text()).toContain('This link does not offer this platform.');
  });
});

describe('a link that cannot be used', () => {
  it('revoked: DELETE answers 204 (again too); the page says so and offers nothing', async () => {
    const created = await create({ redirectUri: BACK });
    const path = new URL(created.body.url).pathname;
    expect((await stack.request('DELETE', `/api/v1/connect-links/${created.body.id}`, { key })).status).toBe(204);
    expect((await stack.request('DELETE', `/api/v1/connect-links/${created.body.id}`, { key })).status).toBe(204);
    const page = await browse(`${stack.baseUrl}${path}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('This link was withdrawn');
    expect(html).not.toContain('<form');
    const start = await browse(`${stack.baseUrl}${path}/start`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'platform=x', redirect: 'manual' });
    expect(start.status).toBe(410);
    expect(start.headers.get('set-cookie')).toBeNull();
  });

  it('another workspace cannot revoke it (not_found), nor can a key without the accounts scope', async () => {
    const created = await create({ redirectUri: BACK });
    const { key: otherKey } = await stack.workspace(['accounts']);
    const other = await stack.request('DELETE', `/api/v1/connect-links/${created.body.id}`, { key: otherKey });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    const { key: readOnly } = await stack.workspace(['read']);
    expect((await stack.request('DELETE', `/api/v1/connect-links/${created.body.id}`, { key: readOnly })).status).toBe(403);
    expect((await stack.request('DELETE', '/api/v1/connect-links/not-a-uuid', { key })).status).toBe(404);
    expect((await browse(`${stack.baseUrl}${new URL(created.body.url).pathname}`)).status).toBe(200);
  });

  it('expired: the page says so', async () => {
    const created = await create({ redirectUri: BACK, expiresInSeconds: 60 });
    const path = new URL(created.body.url).pathname;
    now = new Date(now.getTime() + 61_000);
    const page = await browse(`${stack.baseUrl}${path}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This link has expired');
  });

  it('altered (signature, id) or forged: the page says it is not valid', async () => {
    const created = await create({ redirectUri: BACK });
    const token = tokenOf(created.body.url);
    const [id, mac] = token.split('.');
    const flipped = `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const otherId = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}.${mac}`;
    for (const bad of [flipped, otherId, id, 'anything']) {
      const page = await browse(`${stack.baseUrl}/connect/${bad}`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('This link is not valid');
    }
    // A program (no text/html in Accept) gets the API's error body.
    const asProgram = await stack.request('GET', `/connect/${flipped}`);
    expect(asProgram.status).toBe(404);
    expect(asProgram.body.error.code).toBe('connect_link_invalid');
    const done = await browse(`${stack.baseUrl}/connect/${flipped}/done`, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(404);
    expect(done.headers.get('location')).toBeNull();
  });
});
