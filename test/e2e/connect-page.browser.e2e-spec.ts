import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { freePort } from '../../tools/local/local-environment';
import { TestStack } from '../support/test-stack';

/**
 * The connect page end to end in a real browser (Debian's Chromium, driven by playwright-core;
 * .ci/run installs it): an end user opens the link, connects X and Mastodon through the
 * sandbox's consent, sees them listed, and "Done" lands on the client's redirectUri with the
 * account ids. A link revoked or expired while its sign-in is at the platform, or altered,
 * shows a clear page and connects nothing (no account, no event). Screenshots of every step
 * are kept under test-artifacts/connect-page/ (git-ignored).
 */
const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'connect-page');
const CLIENT = 'https://client.example.test/connected';

let stack: TestStack;
let key: string;
let workspaceId: string;
let userDataDir: string;
let context: BrowserContext;
let clock = 0;

beforeAll(async () => {
  // A free port, so the callback url (which the sandbox's consent redirects the browser to) is known before the gateway starts.
  const port = await freePort();
  stack = await TestStack.start({
    sandbox: true,
    overrides: { port, oauthCallbackUrl: `http://127.0.0.1:${port}/api/v1/accounts/connect/callback`, now: () => new Date(Date.now() + clock) },
  });
  ({ key, workspaceId } = await stack.workspace(['read', 'accounts']));
  await mkdir(ARTIFACTS, { recursive: true });
  userDataDir = await mkdtemp(join(tmpdir(), 'connect-page-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 390, height: 844 },
  });
  // The client's site: it only has to show where the page sent the user.
  await context.route('https://client.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Client</title><h1>Back at the client</h1>' }));
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await stack?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

async function createLink(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const created = await stack.request('POST', '/api/v1/connect-links', { key, body: { redirectUri: CLIENT, ...body } });
  expect(created.status).toBe(201);
  return created.body;
}

async function accountCount(): Promise<number> {
  const { rows } = await stack.db.pool.query<{ count: string }>('SELECT count(*) FROM accounts WHERE workspace_id = $1', [workspaceId]);
  return Number(rows[0].count);
}

it('connects X, Mastodon and Bluesky, lists them, and Done lands on the redirect with the account ids', async () => {
  const link = await createLink({ platforms: ['x', 'mastodon', 'bluesky'], brand: { name: 'Acme', accentColor: '#0b6e4f' } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => problems.push(message.text()));

  const opened = await page.goto(link.url);
  expect(opened!.status()).toBe(200);
  expect(opened!.headers()['content-security-policy']).toContain("script-src 'none'");
  await expect(page.title()).resolves.toBe('Connect your accounts to Acme');
  // Every field has its label; the first thing a keyboard reaches is the first platform's action.
  await expect(page.getByLabel('Your Mastodon server').isVisible()).resolves.toBe(true);
  await expect(page.getByLabel('Bluesky handle').isVisible()).resolves.toBe(true);
  await expect(page.getByLabel('App password').isVisible()).resolves.toBe(true);
  await page.keyboard.press('Tab');
  await expect(page.evaluate<string | null>('document.activeElement?.textContent')).resolves.toBe('Sign in with X');
  // Usable on a phone: nothing wider than the 390 px viewport.
  await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
  await shot(page, '01-opened');

  await page.getByRole('button', { name: 'Sign in with X' }).click();
  await page.waitForURL((url) => url.pathname === new URL(link.url).pathname && url.searchParams.has('connection_id'));
  await expect(page.getByRole('status').textContent()).resolves.toMatch(/^X: connected @/);
  await shot(page, '02-x-connected');
  // The verifier's cookie is gone once the sign-in came back.
  expect((await context.cookies()).filter((cookie) => cookie.name === 'connect_signin')).toEqual([]);

  await page.getByLabel('Your Mastodon server').fill(`${stack.sandbox!.url}/mastodon`);
  await shot(page, '03-mastodon-server');
  await page.getByRole('button', { name: 'Sign in with Mastodon' }).click();
  await page.waitForURL((url) => url.searchParams.has('connection_id'));
  await expect(page.getByRole('status').textContent()).resolves.toMatch(/^Mastodon: connected @/);
  await expect(page.locator('#p-x-state').textContent()).resolves.toBe('Connected (1)');
  await expect(page.locator('#p-mastodon-state').textContent()).resolves.toBe('Connected (1)');
  await expect(page.locator('#p-bluesky-state').textContent()).resolves.toBe('Not connected');
  await shot(page, '04-both-listed');

  // Bluesky: handle and app password (the sandbox's PDS is the configured one).
  const bluesky = stack.sandbox!.control.provisionAccount({ platform: 'bluesky', handle: 'enduser.example.com' }).identity;
  await page.getByLabel('Bluesky handle').fill(bluesky.handle);
  await page.getByLabel('App password').fill(bluesky.attributes.appPassword);
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  await expect(page.getByRole('status').textContent()).resolves.toBe('Bluesky: connected @enduser.example.com.');
  // The form's answer is styled like the page (its urls are relative to where it was answered).
  await expect(page.evaluate<string>("getComputedStyle(document.querySelector('.done button')).backgroundColor")).resolves.toBe('rgb(11, 110, 79)');
  await expect(page.locator('#p-bluesky-state').textContent()).resolves.toBe('Connected (1)');
  // The app password is not written back into the page.
  expect(await page.content()).not.toContain(bluesky.attributes.appPassword);
  await shot(page, '05-bluesky-connected');

  const listed = await stack.request('GET', '/api/v1/accounts', { key });
  const ids = (listed.body.accounts as Array<{ id: string }>).map((a) => a.id);
  expect(ids).toHaveLength(3);
  // Nothing of the key or a platform token was ever written into the page.
  const html = await page.content();
  expect(html).not.toContain(key);
  expect(html).not.toMatch(/access_token|token-/);

  await page.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL((url) => url.host === 'client.example.test');
  const landed = new URL(page.url());
  expect(`${landed.origin}${landed.pathname}`).toBe(CLIENT);
  expect(landed.searchParams.get('account_ids')!.split(',').sort()).toEqual([...ids].sort());
  expect(landed.searchParams.get('error')).toBeNull();
  await shot(page, '06-back-at-client');
  // No script ran and the CSP refused nothing the page needs.
  expect(problems).toEqual([]);
  await page.close();
});

it('Done without any account connected returns error=access_denied', async () => {
  const link = await createLink({ platforms: ['x'] });
  const page = await context.newPage();
  await page.goto(link.url);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL((url) => url.host === 'client.example.test');
  expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
  expect(new URL(page.url()).searchParams.get('account_ids')).toBeNull();
  await page.close();
});

it('a consent forwarded to another browser (without the page\'s cookie) attaches nothing', async () => {
  const link = await createLink({ platforms: ['x'] });
  const fresh = stack.sandbox!.control.provisionAccount({ platform: 'x', handle: 'forwarded', key: 'x:forwarded' }).identity.key;
  // The starter's browser starts the sign-in (and keeps the cookie) ...
  const start = await fetch(`${link.url.replace(/^https?:\/\/[^/]+/, stack.baseUrl)}/start`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'platform=x', redirect: 'manual' });
  expect(start.status).toBe(303);
  const consent = new URL(start.headers.get('location')!);
  consent.searchParams.set('sandbox_user', fresh);
  const [accounts, events] = [await accountCount(), await stack.eventCount()];
  // ... and someone else's browser (this Chromium: it never had that cookie), given the consent link, consents and comes back to the page.
  const page = await context.newPage();
  await page.goto(consent.toString());
  await page.waitForURL((url) => url.searchParams.has('connection_id'));
  await expect(page.getByRole('alert').textContent()).resolves.toContain('started in another browser');
  await expect(page.locator('#p-x-state').textContent()).resolves.toBe('Not connected');
  await shot(page, '10-forwarded');
  expect([await accountCount(), await stack.eventCount()]).toEqual([accounts, events]);
  await page.close();
});

describe('a link that cannot be used connects nothing', () => {
  /**
   * Starts an X sign-in on the page as a user the workspace does not have yet and, once the
   * page has started it (its answer sends the browser to the consent), does `meanwhile` before
   * the browser goes on to the platform and back. Playwright routes only the first request of a
   * redirect chain, so the page's own "start" answer is the one held.
   */
  async function signInWhile(name: string, meanwhile: (link: { id: string; url: string }) => Promise<void>): Promise<Page> {
    const link = await createLink({ platforms: ['x'] });
    const fresh = stack.sandbox!.control.provisionAccount({ platform: 'x', handle: name.replace(/\W/g, '_'), key: `x:${name}` }).identity.key;
    const page = await context.newPage();
    await page.goto(link.url);
    await page.route('**/start', async (route) => {
      const started = await route.fetch({ maxRedirects: 0 });
      expect(started.status()).toBe(303);
      const consent = new URL(started.headers()['location']);
      consent.searchParams.set('sandbox_user', fresh);
      await meanwhile(link);
      await route.fulfill({ response: started, headers: { ...started.headers(), location: consent.toString() } });
    });
    const [accounts, events] = [await accountCount(), await stack.eventCount()];
    await page.getByRole('button', { name: 'Sign in with X' }).click();
    await page.waitForURL((url) => url.searchParams.has('connection_id'));
    await shot(page, name);
    expect([await accountCount(), await stack.eventCount()]).toEqual([accounts, events]);
    await expect(page.locator('form').count()).resolves.toBe(0);
    return page;
  }

  it('revoked while the user was at the platform', async () => {
    const page = await signInWhile('07-revoked', async (link) => {
      expect((await stack.request('DELETE', `/api/v1/connect-links/${link.id}`, { key })).status).toBe(204);
    });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link was withdrawn');
    await page.close();
  });

  it('expired while the user was at the platform', async () => {
    const page = await signInWhile('08-expired', async () => {
      clock += 3600_000 + 1000;
    });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link has expired');
    await page.close();
  });

  it('altered', async () => {
    const link = await createLink({ platforms: ['x'] });
    const tampered = link.url.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    const [accounts, events] = [await accountCount(), await stack.eventCount()];
    const page = await context.newPage();
    const opened = await page.goto(tampered);
    expect(opened!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link is not valid');
    await expect(page.locator('form').count()).resolves.toBe(0);
    await shot(page, '09-altered');
    expect([await accountCount(), await stack.eventCount()]).toEqual([accounts, events]);
    await page.close();
  });
});
