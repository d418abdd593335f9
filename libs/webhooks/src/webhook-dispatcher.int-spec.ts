import { randomBytes } from 'node:crypto';
import { TokenCipher } from '@app/accounts';
import { DomainError } from '@app/contracts';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { verifies, WebhookReceiver } from '../../../test/support/webhook-receiver';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpoint, WebhookEndpointStore } from './endpoint-store';
import { DISABLE_FAILING_AFTER_MS, RETRY_WINDOW_MS } from './retry-schedule';
import { generateWebhookSecret } from './signing';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookTarget } from './webhook-target';

/**
 * The dispatcher against the real PostgreSQL and real HTTP receivers on loopback, on a
 * clock the test moves (retries days apart take no time). Receivers verify every
 * request with the standardwebhooks library (https://www.standardwebhooks.com/).
 */
describe('WebhookDispatcher (PostgreSQL, real receivers, a test clock)', () => {
  let db: TestDatabase;
  let endpoints: WebhookEndpointStore;
  let deliveries: WebhookDeliveryStore;
  const receivers: WebhookReceiver[] = [];
  const targets: WebhookTarget[] = [];
  let clock = new Date('2026-11-23T12:00:00Z');
  const now = () => clock;
  const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

  beforeAll(async () => {
    db = await createTestDatabase();
    endpoints = new WebhookEndpointStore(db.pool, new TokenCipher(randomBytes(32)));
    deliveries = new WebhookDeliveryStore(db.pool);
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    for (const target of targets) await target.close();
    await db.drop();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  }

  function dispatcherFor(allowedHosts: string[], timeoutMs = 2_000) {
    const target = new WebhookTarget({ allowedHosts, timeoutMs, maxResponseBytes: 1024 });
    targets.push(target);
    return new WebhookDispatcher(endpoints, deliveries, target, { now, leaseMs: timeoutMs * 2 + 1_000, maxEndpointsInFlight: 8, random: () => 0.5 });
  }

  async function endpointAt(target: WebhookReceiver, workspaceId = `w-${randomBytes(3).toString('hex')}`): Promise<WebhookEndpoint> {
    const secret = generateWebhookSecret();
    target.secrets = [secret];
    return endpoints.create(workspaceId, { url: target.url, events: ['post.published'], description: null }, secret, clock);
  }

  let events = 0;
  async function queue(endpoint: WebhookEndpoint): Promise<string> {
    const eventId = `event-${++events}`;
    const body = JSON.stringify({ type: 'post.published', timestamp: clock.toISOString(), version: 1, eventId, position: `1:${events}`, workspaceId: endpoint.workspaceId, data: { postId: `p${events}` } });
    await deliveries.queue({ endpointId: endpoint.id, eventId, eventType: 'post.published', position: `1:${events}`, payload: body }, clock, new Date(clock.getTime() + RETRY_WINDOW_MS));
    return eventId;
  }

  async function run(dispatcher: WebhookDispatcher): Promise<void> {
    await dispatcher.pass();
    await dispatcher.idle();
  }

  it('delivers signed (the receiver verifies with the secret), in queue order, and logs status, attempts and response code', async () => {
    const hooks = await receiver();
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    const first = await queue(endpoint);
    const second = await queue(endpoint);
    await run(dispatcher);
    expect(hooks.received.map((r) => [r.payload.eventId, r.verified])).toEqual([
      [first, true],
      [second, true],
    ]);
    const log = await deliveries.list(endpoint.id, 10, null);
    expect(log.map((d) => [d.eventId, d.status, d.attempts, d.responseStatus])).toEqual([
      [second, 'delivered', 1, 204],
      [first, 'delivered', 1, 204],
    ]);
    expect(hooks.received[0].id).toBe(log[1].id);
  });

  it('retries after 500s with backoff under the same webhook-id, then delivers', async () => {
    const hooks = await receiver();
    hooks.behaviour = (n) => (n <= 2 ? 500 : 200);
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    await queue(endpoint);
    await run(dispatcher);
    let [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, lastError: 'answered 500' });
    // Not due yet: nothing is sent.
    await run(dispatcher);
    expect(hooks.received).toHaveLength(1);
    advance(new Date(delivery.nextAttemptAt!).getTime() - clock.getTime());
    await run(dispatcher);
    [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, responseStatus: 500 });
    advance(new Date(delivery.nextAttemptAt!).getTime() - clock.getTime());
    await run(dispatcher);
    [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 200 });
    expect(new Set(hooks.received.map((r) => r.id))).toEqual(new Set([delivery.id]));
    expect(hooks.received.every((r) => r.verified)).toBe(true);
    expect((await endpoints.byId(endpoint.id))?.failingSince).toBeNull();
  });

  it('429 with Retry-After (seconds): the endpoint is left alone until then, all its deliveries, then they go out in order', async () => {
    // Standard Webhooks, "Delivery success and failure": 429 means throttle; a Retry-After is taken into account.
    const hooks = await receiver();
    hooks.behaviour = (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '120' } } : 204);
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    const first = await queue(endpoint);
    const failedAt = clock.getTime();
    await run(dispatcher);
    const [throttled] = await deliveries.list(endpoint.id, 1, null);
    expect(throttled).toMatchObject({ eventId: first, status: 'pending', attempts: 1, responseStatus: 429, nextAttemptAt: new Date(failedAt + 120_000).toISOString() });
    // Another event queued meanwhile is due at once, but the endpoint asked for two minutes: nothing is sent before.
    const second = await queue(endpoint);
    advance(119_000);
    await run(dispatcher);
    expect(hooks.received).toHaveLength(1);
    advance(1_000);
    await run(dispatcher);
    expect(hooks.received.map((r) => [r.payload.eventId, r.answered])).toEqual([
      [first, 429],
      [first, 204],
      [second, 204],
    ]);
  });

  it('503 with Retry-After as an HTTP date waits until that date; 502 with one keeps the normal backoff', async () => {
    const hooks = await receiver();
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    const until = new Date(clock.getTime() + 10 * 60_000);
    until.setUTCMilliseconds(0);
    hooks.behaviour = () => ({ status: 503, headers: { 'retry-after': until.toUTCString() } });
    await queue(endpoint);
    await run(dispatcher);
    let [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ responseStatus: 503, nextAttemptAt: until.toISOString() });

    const gateway = await receiver();
    gateway.behaviour = () => ({ status: 502, headers: { 'retry-after': '3600' } });
    const behindGateway = await endpointAt(gateway);
    await queue(behindGateway);
    const failedAt = clock.getTime();
    await run(dispatcherFor([gateway.host]));
    [delivery] = await deliveries.list(behindGateway.id, 1, null);
    // The first backoff step (5 s, half fixed and half jitter at random 0.5): not the hour asked.
    expect(delivery).toMatchObject({ responseStatus: 502, nextAttemptAt: new Date(failedAt + 3_750).toISOString() });
  });

  it('counts a timeout as a failed attempt (no response code) and retries it', async () => {
    const hooks = await receiver();
    hooks.behaviour = (n) => (n === 1 ? 'hang' : 204);
    const dispatcher = dispatcherFor([hooks.host], 300);
    const endpoint = await endpointAt(hooks);
    await queue(endpoint);
    await run(dispatcher);
    let [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null, lastError: 'no answer within 300 ms' });
    advance(RETRY_WINDOW_MS / 100);
    await run(dispatcher);
    [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 204 });
  });

  it('gives up after about three days of failures', async () => {
    const hooks = await receiver();
    hooks.behaviour = () => 503;
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    await queue(endpoint);
    const start = clock.getTime();
    for (let pass = 0; pass < 40; pass++) {
      await run(dispatcher);
      const [delivery] = await deliveries.list(endpoint.id, 1, null);
      if (delivery.status === 'failed') break;
      advance(new Date(delivery.nextAttemptAt!).getTime() - clock.getTime());
    }
    const [delivery] = await deliveries.list(endpoint.id, 1, null);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toBeGreaterThanOrEqual(9);
    expect(clock.getTime() - start).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    expect(clock.getTime() - start).toBeGreaterThan(RETRY_WINDOW_MS / 2);
  });

  it('disables an endpoint answering 410 and tells the workspace\'s other endpoints (webhook.disabled)', async () => {
    const gone = await receiver();
    gone.behaviour = () => 410;
    const other = await receiver();
    const dispatcher = dispatcherFor([gone.host, other.host]);
    const endpoint = await endpointAt(gone);
    const sibling = await endpointAt(other, endpoint.workspaceId);
    await queue(endpoint);
    await queue(endpoint);
    await run(dispatcher);
    expect(gone.received).toHaveLength(1);
    expect(await endpoints.byId(endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    const log = await deliveries.list(endpoint.id, 10, null);
    expect(log.map((d) => d.status)).toEqual(['pending', 'failed']);
    await run(dispatcher);
    expect(gone.received).toHaveLength(1);
    expect(other.received.map((r) => [r.payload.type, r.payload.data.endpointId, r.payload.data.reason, r.verified])).toEqual([['webhook.disabled', endpoint.id, 'gone', true]]);
    expect((await deliveries.list(sibling.id, 10, null))[0].status).toBe('delivered');
  });

  it('disables an endpoint that failed every attempt for five days', async () => {
    const hooks = await receiver();
    hooks.behaviour = () => 500;
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    await queue(endpoint);
    await run(dispatcher);
    expect(await endpoints.byId(endpoint.id)).toMatchObject({ enabled: true, failingSince: clock });
    advance(DISABLE_FAILING_AFTER_MS);
    await queue(endpoint);
    await run(dispatcher);
    expect(await endpoints.byId(endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'failing' });
  });

  it('a slow endpoint never delays another: each is drained on its own', async () => {
    const slow = await receiver();
    slow.behaviour = () => ({ delayMs: 1_500, status: 200 });
    const fast = await receiver();
    const dispatcher = dispatcherFor([slow.host, fast.host]);
    const slowEndpoint = await endpointAt(slow);
    const fastEndpoint = await endpointAt(fast);
    await queue(slowEndpoint);
    await queue(slowEndpoint);
    for (let i = 0; i < 5; i++) await queue(fastEndpoint);
    const started = Date.now();
    await dispatcher.pass();
    await until(() => fast.received.length === 5, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(slow.received).toHaveLength(0);
    await dispatcher.idle();
    expect(slow.received).toHaveLength(2);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const hooks = await receiver();
    const dispatcher = dispatcherFor([hooks.host]);
    const endpoint = await endpointAt(hooks);
    const [old] = hooks.secrets;
    const fresh = generateWebhookSecret();
    await endpoints.rotateSecret(endpoint.workspaceId, endpoint.id, fresh, clock);
    await queue(endpoint);
    await run(dispatcher);
    advance(24 * 60 * 60_000 + 1);
    await queue(endpoint);
    await run(dispatcher);
    const verifiedWith = (secret: string) => hooks.received.map((r) => verifies(secret, r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }));
    expect(verifiedWith(old)).toEqual([true, false]);
    expect(verifiedWith(fresh)).toEqual([true, true]);
  });

  describe('targets: https only, the media address policy on every other address', () => {
    const resolver = async (hostname: string) => (hostname === 'rebinds.example' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.215.14', family: 4 }]);
    const target = () => {
      const made = new WebhookTarget({ allowedHosts: ['127.0.0.1:8443', 'hooks.internal'], timeoutMs: 500, maxResponseBytes: 1024, resolver });
      targets.push(made);
      return made;
    };
    const refusal = async (url: string) => target().check(url).then(() => null, (error: DomainError) => error.code);

    it.each([
      ['not a url', 'invalid_webhook_url'],
      ['ftp://hooks.example.com/x', 'invalid_webhook_url'],
      ['http://hooks.example.com/x', 'invalid_webhook_url'],
      ['https://user:pass@hooks.example.com/x', 'invalid_webhook_url'],
      ['https://hooks.example.com/ + 2,100 characters', 'invalid_webhook_url'],
      ['https://127.0.0.1/x', 'webhook_url_refused'],
      ['https://[::ffff:127.0.0.1]/x', 'webhook_url_refused'],
      ['https://[::127.0.0.1]/x', 'webhook_url_refused'],
      ['https://[2002:a00:1::1]/x', 'webhook_url_refused'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_url_refused'],
      ['https://metadata.google.internal/x', 'webhook_url_refused'],
      ['https://rebinds.example/x', 'webhook_url_refused'],
      ['https://10.0.0.8:8443/x', 'webhook_url_refused'],
    ])('%s is refused with %s', async (url, code) => {
      expect(await refusal(url.replace(' + 2,100 characters', 'x'.repeat(2_100)))).toBe(code);
    });

    it.each(['https://hooks.example.com/x', 'http://127.0.0.1:8443/x', 'http://hooks.internal/x'])('%s is accepted', async (url) => {
      expect(await refusal(url)).toBeNull();
    });

    it('refuses at delivery a loopback address not in WEBHOOK_ALLOWED_HOSTS (the guarded agent checks the address dialled)', async () => {
      const hooks = await receiver();
      const unguarded = new WebhookTarget({ allowedHosts: [], timeoutMs: 500, maxResponseBytes: 1024 });
      targets.push(unguarded);
      const result = await unguarded.send(hooks.url, {}, '{}');
      expect(result).toEqual({ responseStatus: null, retryAfter: null, error: expect.stringMatching(/AddressRefusedError: 127\.0\.0\.1 is a loopback address/) });
      expect(hooks.received).toHaveLength(0);
    });
  });
});
