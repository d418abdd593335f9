import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { createGatewayApp } from '../../apps/gateway/src/gateway.app';
import { TestStack } from '../support/test-stack';

/**
 * Per-key rate limits through HTTP, with the counters in Postgres: a small
 * general limit, the reply limit on top, two gateway replicas sharing them,
 * and a burst of parallel requests at the limit.
 */
describe('rate limits', () => {
  const GENERAL = 5;
  const REPLIES = 3;
  const REPLY = '/api/v1/comments/reply';
  let stack: TestStack;
  let replica: NestFastifyApplication;
  let replicaUrl: string;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['gateway'], overrides: { rateLimitGeneralPerMinute: GENERAL, rateLimitRepliesPerMinute: REPLIES } });
    replica = await createGatewayApp(stack.config, { logger: false });
    await replica.listen(0, '127.0.0.1');
    replicaUrl = await replica.getUrl();
  });
  afterAll(async () => {
    await replica?.close();
    await stack?.stop();
  });

  /** A request to the first gateway (0) or the second replica (1). */
  async function send(gateway: 0 | 1, method: string, path: string, key: string, body?: unknown) {
    if (gateway === 0) return stack.request(method, path, { key, body });
    const response = await fetch(`${replicaUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }
  const list = (key: string, gateway: 0 | 1 = 0) => send(gateway, 'GET', '/api/v1/accounts', key);
  /** Not a valid reply (400, or 404 while the route is missing): it still reaches the limiter. */
  const reply = (key: string, gateway: 0 | 1 = 0) => send(gateway, 'POST', REPLY, key, { commentId: 'nope' });

  it(`the request after ${GENERAL} is 429 rate_limited with Retry-After and the RateLimit headers; other keys and health are not limited`, async () => {
    const { workspaceId, key } = await stack.workspace(['read']);
    for (let i = 1; i <= GENERAL; i++) {
      const response = await list(key);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(GENERAL));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(GENERAL - i));
      expect(response.headers.get('ratelimit-policy')).toBe(`${GENERAL};w=60;name="general"`);
    }
    const refused = await list(key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: { code: 'rate_limited', message: expect.any(String), details: { limit: GENERAL, windowSeconds: 60, policy: 'general', retryAfterSeconds: expect.any(Number) } },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    // Six counted (the refusal too): one more fits once ceil(6 × the unelapsed part) ≤ 4 in the next
    // minute, a third of the way in: between 20 and 80 s from now, depending on where in the minute we are.
    expect(retryAfter).toBeGreaterThanOrEqual(20);
    expect(retryAfter).toBeLessThanOrEqual(80);
    expect(refused.body.error.details.retryAfterSeconds).toBe(retryAfter);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    const other = (await stack.workspaces.createKey(workspaceId, ['read'])).key;
    expect((await list(other)).status).toBe(200);
    for (let i = 0; i < GENERAL + 2; i++) expect((await stack.request('GET', '/health/live')).status).toBe(200);
    // Without a key the answer is 401, not a limit.
    expect((await stack.request('GET', '/api/v1/accounts')).status).toBe(401);
  });

  it(`replies are limited to ${REPLIES} per minute on top of the general limit`, async () => {
    const { key } = await stack.workspace(['read', 'engage']);
    for (let i = 1; i <= REPLIES; i++) {
      const response = await reply(key);
      expect(response.status).not.toBe(429);
      expect(response.headers.get('ratelimit-policy')).toBe(`${REPLIES};w=60;name="replies"`);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(REPLIES - i));
    }
    const refused = await reply(key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { limit: REPLIES, windowSeconds: 60, policy: 'replies' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other routes still have the general allowance: 4 of 5 used, so one more.
    expect((await list(key)).status).toBe(200);
    expect((await list(key)).status).toBe(429);
  });

  it('a gateway with the default limits lets 20 replies a minute through, below the general limit (spec, Limits)', async () => {
    const defaults = new AppConfig();
    expect(defaults.rateLimitRepliesPerMinute).toBeLessThan(defaults.rateLimitGeneralPerMinute);
    const gateway = await createGatewayApp(stack.config.with({ rateLimitGeneralPerMinute: defaults.rateLimitGeneralPerMinute, rateLimitRepliesPerMinute: defaults.rateLimitRepliesPerMinute }), { logger: false });
    try {
      await gateway.listen(0, '127.0.0.1');
      const url = await gateway.getUrl();
      const { key } = await stack.workspace(['engage']);
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const response = await fetch(`${url}${REPLY}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"commentId":"nope"}' });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 20).filter((status) => status === 429)).toEqual([]);
      expect(statuses[20]).toBe(429);
    } finally {
      await gateway.close();
    }
  });

  it('both limits hold in total across two gateway replicas', async () => {
    const { key } = await stack.workspace(['read', 'engage']);
    const replyStatuses = [];
    for (let i = 0; i <= REPLIES; i++) replyStatuses.push((await reply(key, (i % 2) as 0 | 1)).status === 429);
    expect(replyStatuses).toEqual([false, false, false, true]);

    const other = await stack.workspace(['read']);
    const listStatuses = [];
    for (let i = 0; i < GENERAL + 2; i++) listStatuses.push((await list(other.key, (i % 2) as 0 | 1)).status);
    expect(listStatuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('a burst of parallel requests on both replicas lets exactly the limit through', async () => {
    const { key } = await stack.workspace(['read']);
    const statuses = await Promise.all(Array.from({ length: 24 }, (_, i) => list(key, (i % 2) as 0 | 1).then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(GENERAL);
    expect(statuses.filter((status) => status === 429)).toHaveLength(24 - GENERAL);
  });
});
