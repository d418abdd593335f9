import { until } from '@app/testing';
import { TestStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhooks end to end: endpoints through the API (key scope `webhooks`), events
 * published through the real stack (posts, publisher, the platform sandbox, relay,
 * JetStream, the webhooks service), delivered to a real HTTP receiver that verifies
 * each request with the standardwebhooks library as a client would
 * (https://www.standardwebhooks.com/).
 */
describe('webhooks', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.start({
      sandbox: true,
      overrides: { webhookAllowedHosts: [receiver.host], webhookDispatchIntervalMs: 200, webhookTimeoutMs: 1_000, publishWaitMs: 8_000 },
    });
  });
  afterAll(async () => {
    await stack.stop();
    await receiver.close();
  });
  beforeEach(async () => {
    stack.config.now = () => new Date();
    receiver.reset();
    ({ key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'webhooks']));
  });

  const subscribe = async (events: string[]) => {
    const created = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events, description: 'test receiver' } });
    expect(created.status).toBe(201);
    receiver.secrets = [created.body.secret];
    return created.body as { id: string; secret: string };
  };
  const publishNow = async () => {
    const account = await stack.connect(workspaceId, 'mastodon', `@hooks${++seq}${Math.random().toString(36).slice(2, 6)}`);
    const answer = await stack.request('POST', '/api/v1/posts', { key, body: { content: `Webhook ${++seq}`, accounts: [account.id], publishNow: true } });
    expect(answer.status).toBe(201);
    return { postId: answer.body.post.id as string, accountId: account.id };
  };
  const deliveryLog = async (endpointId: string) => (await stack.request('GET', `/api/v1/webhooks/${endpointId}/deliveries?limit=100`, { key })).body.deliveries as Array<{ id: string; eventId: string; eventType: string; status: string; attempts: number; responseStatus: number | null }>;
  const deliveredIds = () => receiver.delivered.map((r) => r.id);

  it('refuses bad endpoints with their codes and creates nothing; needs the webhooks scope', async () => {
    const events = await stack.eventCount();
    const refused = async (body: unknown, code: string, status = 400) => {
      const answer = await stack.request('POST', '/api/v1/webhooks', { key, body });
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status, code });
    };
    await refused({ url: 'http://hooks.example.com/x', events: ['post.published'] }, 'invalid_webhook_url');
    await refused({ url: 'https://127.0.0.1:9/x', events: ['post.published'] }, 'webhook_url_refused');
    await refused({ url: 'https://169.254.169.254/x', events: ['post.published'] }, 'webhook_url_refused');
    await refused({ url: receiver.url, events: ['post.published', 'post.exploded'] }, 'invalid_webhook_events');
    await refused({ url: receiver.url, events: [] }, 'invalid_webhook_events');
    await refused({ url: receiver.url, events: 'post.published' }, 'invalid_body');
    const { key: readOnly } = await stack.workspaces.createKey(workspaceId, ['read', 'write']);
    const forbidden = await stack.request('GET', '/api/v1/webhooks', { key: readOnly });
    expect({ status: forbidden.status, code: forbidden.body.error.code, missing: forbidden.body.error.details.missing }).toEqual({ status: 403, code: 'insufficient_scope', missing: ['webhooks'] });
    expect((await stack.request('GET', '/api/v1/webhooks', { key })).body).toEqual({ webhooks: [] });
    expect(await stack.eventCount()).toBe(events);
  });

  it('manages endpoints: the secret shown once, update, rotate (old secret valid 24 h), delete; another workspace sees nothing', async () => {
    const created = await subscribe(['post.published']);
    expect(created.secret).toMatch(/^whsec_/);
    const got = await stack.request('GET', `/api/v1/webhooks/${created.id}`, { key });
    expect(got.body).toEqual({ id: created.id, url: receiver.url, events: ['post.published'], description: 'test receiver', enabled: true, disabledReason: null, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const patched = await stack.request('PATCH', `/api/v1/webhooks/${created.id}`, { key, body: { events: ['post.failed', 'comment.received'], enabled: false } });
    expect(patched.body).toMatchObject({ events: ['post.failed', 'comment.received'], enabled: false, disabledReason: 'client' });
    expect((await stack.request('POST', `/api/v1/webhooks/${created.id}/test`, { key })).body.error.code).toBe('webhook_endpoint_disabled');
    expect((await stack.request('PATCH', `/api/v1/webhooks/${created.id}`, { key, body: {} })).body.error.code).toBe('nothing_to_edit');
    const rotated = await stack.request('POST', `/api/v1/webhooks/${created.id}/rotate-secret`, { key });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const other = await stack.workspace(['webhooks']);
    expect((await stack.request('GET', `/api/v1/webhooks/${created.id}`, { key: other.key })).status).toBe(404);
    expect((await stack.request('DELETE', `/api/v1/webhooks/${created.id}`, { key: other.key })).status).toBe(404);
    expect((await stack.request('DELETE', `/api/v1/webhooks/${created.id}`, { key })).status).toBe(204);
    expect((await stack.request('GET', `/api/v1/webhooks/${created.id}`, { key })).status).toBe(404);
  });

  it('delivers the test event and the post events, signed, per post in order (account outcome before the post outcome)', async () => {
    const endpoint = await subscribe(['post.published', 'post.account.published']);
    const test = await stack.request('POST', `/api/v1/webhooks/${endpoint.id}/test`, { key });
    expect(test.status).toBe(202);
    const { postId, accountId } = await publishNow();
    await until(() => receiver.delivered.length >= 3, 15_000);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.map((r) => r.payload.type)).toEqual(['webhook.test', 'post.account.published', 'post.published']);
    expect(receiver.received[0].id).toBe(test.body.deliveryId);
    const [accountEvent, postEvent] = receiver.received.slice(1).map((r) => r.payload);
    expect(accountEvent).toMatchObject({ version: 1, workspaceId, data: { postId, result: { accountId, platform: 'mastodon', success: true, postId: expect.any(String) } } });
    expect(postEvent).toMatchObject({ version: 1, data: { postId, status: 'published', results: [{ accountId, success: true }] } });
    expect(postEvent.position).toMatch(/^\d+:\d+$/);
    // Each answer is recorded after the receiver has it: wait for the records, not only the requests.
    await until(async () => (await deliveryLog(endpoint.id)).every((d) => d.status !== 'pending'), 15_000);
    const log = await deliveryLog(endpoint.id);
    expect(log.map((d) => [d.eventType, d.status, d.attempts, d.responseStatus])).toEqual([
      ['post.published', 'delivered', 1, 204],
      ['post.account.published', 'delivered', 1, 204],
      ['webhook.test', 'delivered', 1, 204],
    ]);
    // A manual redelivery sends the same event under the same webhook-id.
    const redelivered = await stack.request('POST', `/api/v1/webhooks/${endpoint.id}/deliveries/${log[0].id}/redeliver`, { key });
    expect(redelivered.status).toBe(202);
    await until(() => receiver.received.length === 4, 10_000);
    expect(receiver.received[3]).toMatchObject({ id: log[0].id, body: receiver.received[2].body, verified: true });
  });

  it('replay after an outage: what was missed is delivered, nothing twice under one id', async () => {
    const endpoint = await subscribe(['post.published', 'post.account.published']);
    const since = new Date(Date.now() - 1_000).toISOString();
    receiver.behaviour = () => 503;
    const posts = [await publishNow(), await publishNow()];
    await until(async () => (await deliveryLog(endpoint.id)).length === 4 && receiver.received.length >= 4, 15_000);
    // Days pass with the endpoint down: every retry fails, then the deliveries give up.
    stack.config.now = () => new Date(Date.now() + 4 * 24 * 3600_000);
    await until(async () => (await deliveryLog(endpoint.id)).every((d) => d.status === 'failed'), 15_000);
    receiver.behaviour = () => 204;
    const missedIds = (await deliveryLog(endpoint.id)).map((d) => d.id);
    const replay = await stack.request('POST', `/api/v1/webhooks/${endpoint.id}/replay`, { key, body: { since } });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ queued: 4, alreadyDelivered: 0, lastPosition: expect.stringMatching(/^\d+:\d+$/) });
    await until(() => receiver.delivered.length === 4, 15_000);
    expect(deliveredIds().sort()).toEqual([...missedIds].sort());
    expect(new Set(receiver.delivered.map((r) => `${r.payload.type} ${r.payload.data.postId}`))).toEqual(
      new Set(posts.flatMap(({ postId }) => [`post.published ${postId}`, `post.account.published ${postId}`])),
    );
    // Replaying again finds everything delivered: nothing is sent twice.
    const again = await stack.request('POST', `/api/v1/webhooks/${endpoint.id}/replay`, { key, body: { since } });
    expect(again.body).toMatchObject({ queued: 0, alreadyDelivered: 4 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.delivered).toHaveLength(4);
    const bad = await stack.request('POST', `/api/v1/webhooks/${endpoint.id}/replay`, { key, body: { since, afterPosition: '1:1' } });
    expect(bad.body.error.code).toBe('invalid_replay_start');
  });

  it('a crash of the webhooks app mid-delivery: the delivery is sent again under the same webhook-id after restart', async () => {
    const endpoint = await subscribe(['post.published']);
    receiver.behaviour = (n) => (n === 1 ? 'hang' : 204);
    await publishNow();
    await until(() => receiver.requests === 1, 15_000);
    expect(receiver.received).toHaveLength(0);
    await stack.killApp('webhooks');
    await stack.startApp('webhooks');
    await until(() => receiver.delivered.length === 1, 15_000);
    // The receiver answers before the webhooks app records the answer: wait for the record, not only the request.
    await until(async () => (await deliveryLog(endpoint.id))[0]?.status !== 'pending', 15_000);
    const [log] = await deliveryLog(endpoint.id);
    expect(log).toMatchObject({ status: 'delivered', eventType: 'post.published', responseStatus: 204 });
    expect(receiver.delivered[0]).toMatchObject({ id: log.id, verified: true });
  });
});
