import { EVENT_STORE, EventStore } from '@app/event-store';
import { HealthController } from '../../libs/health/src/health.controller';
import { PublishRequestsWorker } from '../../apps/publisher/src/publish-requests.worker';
import { TestStack } from '../support/test-stack';

describe('readiness', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true });
  });
  afterAll(() => stack.stop());

  it('the gateway is ready over HTTP when Postgres and NATS answer', async () => {
    const response = await stack.request('GET', '/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('an app that uses the event store is not ready while the store does not answer', async () => {
    const posts = stack.app('posts');
    const health = posts.get(HealthController);
    await expect(health.ready()).resolves.toEqual({ status: 'ok' });
    const store = posts.get<symbol, EventStore>(EVENT_STORE);
    const ping = store.ping;
    store.ping = () => Promise.reject(new Error('unreachable'));
    try {
      await expect(health.ready()).rejects.toMatchObject({ response: { error: { message: expect.stringContaining('event store') } } });
    } finally {
      store.ping = ping;
    }
  });

  it('the publisher is not ready while its consumer is not consuming', async () => {
    const publisher = stack.app('publisher');
    const health = publisher.get(HealthController);
    await expect(health.ready()).resolves.toEqual({ status: 'ok' });
    // The worker stops taking events (as when its consumer never registered or was lost).
    await publisher.get(PublishRequestsWorker).onModuleDestroy();
    await expect(health.ready()).rejects.toMatchObject({ response: { error: { code: 'service_unavailable', message: expect.stringContaining('publish-requests-consumer') } } });
  });
});
