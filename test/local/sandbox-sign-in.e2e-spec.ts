import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Platform, PLATFORMS } from '@app/contracts';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace } from '@app/testing';
import { WorkspaceStore } from '@app/workspaces';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { AppConfig, PLATFORMS_WITH_OWN_APP } from '@app/config';
import { InProcessStack } from '../../tools/local/in-process-stack';
import { localConfig } from '../../tools/local/local-config';
import { freePort } from '../../tools/local/local-environment';
import { prepareSandboxSignIn } from '../../tools/local/sandbox-users';

/**
 * Signing in under npm start with nothing configured: the configuration npm start builds
 * (tools/local/local-config, the same function) gives every platform an app on the sandbox
 * and a callback on this gateway, so POST /api/v1/accounts/connect answers a consent page on
 * every platform that signs in through the browser, the sandbox's consent accepts it and
 * sends the user to our callback, the callback takes them back to the client, and the client
 * completes the sign-in with its verifier (Facebook
 * and Instagram with the Page and Instagram account npm start gives the sandbox's user). Bluesky
 * connects with a handle and an app password against the sandbox's PDS. A webhook receiver on
 * this machine (plain http, loopback) is taken as an endpoint, as the README's walkthrough uses one.
 */
const CLIENT = 'http://localhost:5173/connected';
const BROWSER_SIGN_IN = PLATFORMS.filter((platform) => platform !== 'bluesky');

let db: TestDatabase;
let sandbox: RunningPlatformSandbox;
let stack: InProcessStack;
let config: AppConfig;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = await startPlatformSandbox();
  prepareSandboxSignIn(sandbox);
  // What npm start finds in a fresh shell: no platform setting at all (the test's own port, database and NATS namespace).
  const env = { PORT: String(await freePort()), HOST: '127.0.0.1', NATS_NAMESPACE: testNamespace() };
  config = localConfig({ env, databaseUrl: db.url, natsUrl: TEST_NATS_URL, state: { tokenEncryptionKey: randomBytes(32).toString('base64') }, sandbox });
  stack = await new InProcessStack(config, { logger: false }).start();
  const workspaces = new WorkspaceStore(db.pool);
  const workspace = await workspaces.createWorkspace('first hour');
  ({ key } = await workspaces.createKey(workspace.id, ['read', 'accounts', 'webhooks']));
});
afterAll(async () => {
  await stack?.stop();
  await sandbox?.close();
  await db?.drop();
});

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  // JSON of several shapes, read by each test (as TestStack.request answers it).
  return { status: response.status, body: JSON.parse(await response.text()) };
}

it('configures an app on every platform and a callback on this gateway', () => {
  expect(Object.keys(config.platformApps).sort()).toEqual([...PLATFORMS_WITH_OWN_APP].sort());
  expect(config.oauthCallbackUrl).toBe(`http://localhost:${config.port}/api/v1/accounts/connect/callback`);
  expect(config.platformSandboxUrl).toBe(sandbox.url);
});

it.each(BROWSER_SIGN_IN)('%s: connect answers the sandbox consent page, which sends the user to our callback and back to the client', async (platform: Platform) => {
  const instance = platform === 'mastodon' ? { instanceUrl: `${sandbox.url}/mastodon` } : {};
  const started = await api('POST', '/api/v1/accounts/connect', { platform, redirectUri: CLIENT, ...instance });
  expect({ platform, status: started.status, error: started.body.error }).toEqual({ platform, status: 200, error: undefined });
  const consentUrl = new URL(started.body.authorizationUrl);
  expect(consentUrl.origin).toBe(sandbox.url);

  const consent = await fetch(consentUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const toCallback = new URL(consent.headers.get('location')!);
  expect(`${toCallback.origin}${toCallback.pathname}`).toBe(config.oauthCallbackUrl);
  expect(toCallback.searchParams.get('state')).toBe(started.body.state);
  expect(toCallback.searchParams.get('code')).toEqual(expect.any(String));

  // The browser follows it: the code is exchanged with the configured app's credentials.
  const callback = await fetch(`${stack.gatewayUrl}${toCallback.pathname}${toCallback.search}`, { redirect: 'manual' });
  expect(callback.status).toBe(302);
  const back = new URL(callback.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(CLIENT);
  expect({ platform, error: back.searchParams.get('error') }).toEqual({ platform, error: null });

  // The client's backend completes the sign-in with the verifier it kept: the account is attached.
  const completed = await api('POST', '/api/v1/accounts/connect/complete', { connectionId: back.searchParams.get('connection_id'), verifier: started.body.verifier });
  expect({ platform, status: completed.status, error: completed.body.error }).toEqual({ platform, status: 200, error: undefined });
  expect(completed.body.accounts.map((account: { platform: string }) => account.platform)).toContain(platform);
});

it('bluesky: connects with a handle and an app password on the sandbox PDS', async () => {
  const made = sandbox.control.provisionAccount({ platform: 'bluesky', handle: 'first-hour.example.com' });
  const connected = await api('POST', '/api/v1/accounts', { platform: 'bluesky', handle: 'first-hour.example.com', appPassword: made.identity.attributes.appPassword, pds: `${sandbox.url}/bluesky` });
  expect(connected.status).toBe(201);
  expect(connected.body.accounts[0]).toMatchObject({ platform: 'bluesky', platformAccountId: made.identity.platformAccountId, status: 'connected' });
});

it('lists an account of every platform afterwards', async () => {
  const listed = await api('GET', '/api/v1/accounts');
  const platforms = new Set((listed.body.accounts as Array<{ platform: string }>).map((account) => account.platform));
  expect([...platforms].sort()).toEqual([...PLATFORMS].sort());
});

it('takes a webhook receiver on this machine over plain http, and delivers to it', async () => {
  expect(config.webhookAllowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
  const received: Array<{ type: string }> = [];
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const created = await api('POST', '/api/v1/webhooks', { url, events: ['comment.received'] });
    expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
    const test = await api('POST', `/api/v1/webhooks/${created.body.id}/test`);
    expect(test.status).toBe(202);
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((event) => event.type)).toEqual(['webhook.test']);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
