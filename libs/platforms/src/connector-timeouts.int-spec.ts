import { mediaRefs } from '@app/media';
import { startPlatformSandbox, RunningPlatformSandbox, provisionConnectorAccount } from '@app/platform-sandbox';
import type { ConnectorAccount } from './connector';
import { sandboxEndpoints } from './endpoints';
import { ConnectorRegistry } from './registry';

/**
 * Timeouts and reset headers, with recorded (not slept) delays. The request timeout leaves a loaded
 * machine (the whole suite on two cores) time to connect and send: a call that times out before it
 * leaves is not the case these tests are about.
 */
let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
const sleeps: number[] = [];

/** An account signed in on the sandbox under `key` (its requests and faults are filed under it). */
const account = (platform: ConnectorAccount['platform'], key: string, platformAccountId?: string): ConnectorAccount => {
  const kind = platform === 'instagram' ? 'instagram' : undefined;
  const { accountId, identity, credentials } = provisionConnectorAccount(sandbox, { platform, handle: '@brand', key, kind, platformAccountId });
  return { accountId, platform, identity, credentials };
};

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
  connectors = new ConnectorRegistry({
    endpoints: sandboxEndpoints(sandbox.url),
    retry: { baseDelayMs: 1, maxDelayMs: 4, requestTimeoutMs: 1_000, sleep: async (ms) => void sleeps.push(ms) },
    media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  });
});

afterAll(() => sandbox.close());
beforeEach(() => {
  sleeps.length = 0;
});

it('a publish that times out is unknown and is sent exactly once', async () => {
  sandbox.control.addFault({ platform: 'x', account: 'slow-x', fault: { type: 'latency', ms: 2_500 }, times: 1 });
  const outcome = await connectors.get('x').publish(account('x', 'slow-x'), { content: 'hi', media: [], idempotencyKey: 'k' });
  expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown' } });
  expect(sandbox.control.requestCount({ account: 'slow-x', operation: 'publish' })).toBe(1);
});

it('a safe call that times out (an Instagram container) is retried and the publish goes through', async () => {
  sandbox.control.addFault({ platform: 'instagram', account: 'slow-ig', operation: 'container', fault: { type: 'latency', ms: 2_500 }, times: 1 });
  const outcome = await connectors.get('instagram').publish(account('instagram', 'slow-ig', '1784'), {
    content: 'caption',
    media: mediaRefs([`${sandbox.mediaUrl}/media/a.jpg`]),
    idempotencyKey: 'k',
  });
  expect(outcome.status).toBe('published');
  expect(sandbox.control.requestCount({ account: 'slow-ig', operation: 'container' })).toBe(2);
  expect(sandbox.control.requestCount({ account: 'slow-ig', operation: 'publish' })).toBe(1);
});

it("waits until X's x-rate-limit-reset before retrying", async () => {
  sandbox.control.addFault({ platform: 'x', account: 'limited-x', fault: { type: 'rate_limit', resetAfterSeconds: 3 } });
  const outcome = await connectors.get('x').publish(account('x', 'limited-x'), { content: 'hi', media: [], idempotencyKey: 'k' });
  expect(outcome.status).toBe('published');
  expect(sleeps).toHaveLength(1);
  expect(sleeps[0]).toBeGreaterThanOrEqual(2_000);
  expect(sleeps[0]).toBeLessThanOrEqual(4_000);
});

it('does not wait for a reset further away than the policy allows: a retryable rate_limited failure', async () => {
  sandbox.control.addFault({ platform: 'x', account: 'capped-x', fault: { type: 'rate_limit', resetAfterSeconds: 900 } });
  const outcome = await connectors.get('x').publish(account('x', 'capped-x'), { content: 'hi', media: [], idempotencyKey: 'k' });
  expect(outcome).toMatchObject({ status: 'failed', error: { code: 'rate_limited', retryable: true } });
  expect(sleeps).toEqual([]);
});

it('LinkedIn sends its version headers (the sandbox refuses calls without them) and keeps reserved characters', async () => {
  const outcome = await connectors.get('linkedin').publish(account('linkedin', 'li', 'urn:li:person:abc'), {
    content: 'Launch (beta) #news @team_x',
    media: [],
    idempotencyKey: 'k',
  });
  expect(outcome.status).toBe('published');
  expect(sandbox.control.published({ platform: 'linkedin', account: 'li' })[0].text).toBe('Launch (beta) #news @team_x');
});
