import { createServer, Server } from 'node:net';
import { provisionConnectorAccount, RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import { PlatformAuthRegistry } from '../auth/auth-registry';
import type { ConnectorAccount } from '../connector';
import { ConnectorRegistry, platformClientOptions, PlatformSettings } from '../registry';

/**
 * Instances and PDSes are hosts users name; the platform client dials them through the
 * guarded agent on every call (platform-dialer.ts), not only when the account connected.
 * A host that resolves to 127.0.0.1 (`localhost`, as a DNS change could make any name)
 * is refused before any connection; the configured endpoints (here the sandbox, on
 * loopback) keep working. Calls as documented: Mastodon "Post a new status"
 * (https://docs.joinmastodon.org/methods/statuses/#create), Bluesky
 * com.atproto.server.createSession (https://docs.bsky.app/docs/api/com-atproto-server-create-session).
 */
let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
let auth: PlatformAuthRegistry;
let listener: Server;
let connections = 0;
let privateInstance: string;

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
  const settings: PlatformSettings = {
    platformSandboxUrl: sandbox.url,
    platformBaseUrls: {},
    platformRetry: { baseDelayMs: 1, maxDelayMs: 4 },
    mediaAllowedHosts: [new URL(sandbox.mediaUrl).host],
    linkedInApiVersion: null,
  };
  // The services' own wiring: what the publisher, the comments and the accounts services build.
  connectors = new ConnectorRegistry(platformClientOptions(settings));
  auth = new PlatformAuthRegistry(platformClientOptions(settings));
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  privateInstance = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => listener.close(resolve));
});

beforeEach(() => {
  connections = 0;
});

const mastodonAccount = (instanceUrl: string | null): ConnectorAccount => {
  const made = provisionConnectorAccount(sandbox, { platform: 'mastodon', handle: `@dialer${Math.random().toString(36).slice(2, 8)}` });
  return { ...made, identity: { ...made.identity, instanceUrl: instanceUrl ?? made.identity.instanceUrl } };
};

it('refuses a Mastodon instance that now resolves to 127.0.0.1 at call time: a definite failure (not outcome_unknown), nothing dialled', async () => {
  const outcome = await connectors.get('mastodon').publish(mastodonAccount(privateInstance), { content: 'hello', media: [], idempotencyKey: 'dialer-1' });
  // Not outcome_unknown: the guard refuses before a connection, so the status cannot have been posted.
  expect(outcome).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'platform_address_refused', retryable: false }) });
  expect(outcome.status === 'failed' && outcome.error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  expect(connections).toBe(0);
});

it('refuses a Bluesky PDS that resolves to 127.0.0.1 when signing in, nothing dialled', async () => {
  const signIn = auth.get('bluesky').logIn!({ identifier: 'someone.example.com', password: 'xxxx-xxxx-xxxx-xxxx', instanceUrl: privateInstance });
  await expect(signIn).rejects.toMatchObject({ error: expect.objectContaining({ code: 'platform_address_refused', retryable: false }) });
  expect(connections).toBe(0);
});

it('keeps calling the configured endpoints (the sandbox on loopback) as before', async () => {
  const account = mastodonAccount(null);
  const outcome = await connectors.get('mastodon').publish(account, { content: 'still reachable', media: [], idempotencyKey: 'dialer-2' });
  expect(outcome).toMatchObject({ status: 'published', platformPostId: expect.any(String) });
  expect(sandbox.control.published({ platform: 'mastodon', kind: 'post' }).at(-1)?.text).toBe('still reachable');
});
