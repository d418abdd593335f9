import { isComplete, isSocialApiError, SocialApiError, SocialClient, verifyWebhook, WebhookVerificationError } from '@app/sdk';
import { TestStack, tokenOf } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Every request the SDK sent and the answer it got, through the global fetch. */
function recordingFetch() {
  const exchanges: Array<{ method: string; path: string; idempotencyKey: string | null; status: number; retryAfter: string | null }> = [];
  const send = async (request: Request) => {
    const response = await fetch(request);
    exchanges.push({ method: request.method, path: new URL(request.url).pathname, idempotencyKey: request.headers.get('idempotency-key'), status: response.status, retryAfter: response.headers.get('retry-after') });
    return response;
  };
  return { exchanges, send };
}

/** The whole answer of a create (not the 202 that has only the id): the tests' stack answers in time. */
function shown<A extends object>(answer: A): Extract<A, { accounts: unknown }> {
  if (!isComplete(answer)) throw new Error(`only recorded: ${JSON.stringify(answer)}`);
  return answer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The SDK (libs/sdk) against the whole service over HTTP: the flows its README shows. */
describe('the SDK through HTTP', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let workspaceId: string;
  let key: string;
  let seq = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.start({ sandbox: true, overrides: { webhookAllowedHosts: [receiver.host], webhookDispatchIntervalMs: 200, webhookTimeoutMs: 1_000, publishWaitMs: 8_000 } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.reset();
    ({ workspaceId, key } = await stack.workspace(['read', 'write', 'publish', 'engage', 'webhooks']));
  });

  const connect = async (platform: 'x' | 'mastodon') => stack.connect(workspaceId, platform, `@sdk${++seq}${Math.random().toString(36).slice(2, 6)}`);

  it('publishes now with one result per account, sent with an Idempotency-Key; lists and gets the post; a repeat of the key creates nothing', async () => {
    const { exchanges, send } = recordingFetch();
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key, fetch: send });
    const [x, mastodon] = [await connect('x'), await connect('mastodon')];

    const created = shown(await social.posts.create({ content: 'Hello from the SDK', accounts: [x.id, `mastodon:${mastodon.handle}`], publishNow: true }));
    expect(created.post).toMatchObject({ status: 'published', platforms: ['x', 'mastodon'] });
    expect(created.results.map((result) => [result.accountId, result.success]).sort()).toEqual([[x.id, true], [mastodon.id, true]].sort());
    for (const account of [x, mastodon]) expect(stack.sandbox!.control.published({ account: tokenOf(account.handle), kind: 'post' })).toHaveLength(1);
    const [sent] = exchanges;
    expect(sent).toMatchObject({ method: 'POST', path: '/api/v1/posts', status: 201, idempotencyKey: expect.stringMatching(UUID) });

    // Another call gets another key; the same key again answers the first answer and publishes nothing more.
    const draft = await social.posts.create({ content: 'A draft', accounts: [x.id] });
    expect(exchanges[1].idempotencyKey).toMatch(UUID);
    expect(exchanges[1].idempotencyKey).not.toBe(sent.idempotencyKey);
    const repeated = await social.posts.create({ content: 'Hello from the SDK', accounts: [x.id, `mastodon:${mastodon.handle}`], publishNow: true }, { idempotencyKey: sent.idempotencyKey! });
    expect(repeated.post.id).toBe(created.post.id);
    expect(stack.sandbox!.control.published({ account: tokenOf(x.handle), kind: 'post' })).toHaveLength(1);

    const { posts } = await social.posts.list({ limit: 5 });
    expect(posts.map((post) => post.id)).toEqual([draft.post.id, created.post.id]);
    const { post } = await social.posts.get(created.post.id);
    expect(post).toMatchObject({ id: created.post.id, status: 'published' });
    expect(post.results).toHaveLength(2);
  });

  it('iterates every page of a list through nextCursor', async () => {
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key });
    const account = await connect('mastodon');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await social.posts.create({ content: `Draft ${i}`, accounts: [account.id] })).post.id);
    const pages: number[] = [];
    for await (const page of social.posts.pages({ limit: 2 })) pages.push(page.posts.length);
    expect(pages).toEqual([2, 2, 1]);
    const iterated: string[] = [];
    for await (const post of social.posts.iterate({ limit: 2, status: 'draft' })) iterated.push(post.id);
    expect(iterated).toEqual(ids);
  });

  it('throws typed errors carrying the API code, status and details', async () => {
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key });
    const missing = await social.posts.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SocialApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });

    const { key: readOnly } = await stack.workspaces.createKey(workspaceId, ['read']);
    const events = await stack.eventCount();
    const refused = await new SocialClient({ baseUrl: stack.baseUrl, apiKey: readOnly }).posts.create({ content: 'no', platforms: ['x'], publishNow: true }).catch((error: unknown) => error);
    expect(isSocialApiError(refused, 'insufficient_scope')).toBe(true);
    expect((refused as SocialApiError).details).toEqual({ missing: ['write', 'publish'] });
    expect(await stack.eventCount()).toBe(events);

    const invalid = await social.posts.create({ content: 'x', accounts: [] }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: 'accounts_required' });
  });

  it('verifies a real signed delivery with the endpoint secret, and refuses it tampered or with another secret', async () => {
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key });
    const endpoint = await social.webhooks.create({ url: receiver.url, events: ['post.published'] });
    const account = await connect('mastodon');
    const { post } = await social.posts.create({ content: 'Webhook me', accounts: [account.id], publishNow: true });
    const deadline = Date.now() + 10_000;
    while (!receiver.received.some((r) => r.payload.type === 'post.published') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const delivery = receiver.received.find((r) => r.payload.type === 'post.published');
    expect(delivery).toBeDefined();
    const headers = { 'webhook-id': delivery!.id, 'webhook-timestamp': delivery!.timestamp, 'webhook-signature': delivery!.signature };

    const event = verifyWebhook(endpoint.secret, delivery!.body, headers);
    expect(event.type).toBe('post.published');
    expect(event).toMatchObject({ workspaceId, data: { postId: post.id } });
    // A fetch Headers works as well as a plain object, and a second (rotated) secret is tried too.
    expect(verifyWebhook(['whsec_' + Buffer.alloc(32, 1).toString('base64'), endpoint.secret], delivery!.body, new Headers(headers)).type).toBe('post.published');

    expect(() => verifyWebhook(endpoint.secret, delivery!.body.replace(post.id, 'another'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook('whsec_' + Buffer.alloc(32, 2).toString('base64'), delivery!.body, headers)).toThrow(WebhookVerificationError);
  });
});

describe('the SDK under the rate limit', () => {
  const LIMIT = 2;
  let stack: TestStack;
  /** How far the stack's clock is ahead of the machine's: the SDK's waits move it, so a retry lands after the window. */
  let ahead = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['gateway'], overrides: { rateLimitGeneralPerMinute: LIMIT } });
    stack.config.now = () => new Date(Date.now() + ahead);
  });
  afterAll(() => stack?.stop());

  it('waits what Retry-After says on a 429 and retries a GET, which then succeeds', async () => {
    const { key } = await stack.workspace(['read']);
    const { exchanges, send } = recordingFetch();
    const waits: number[] = [];
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key, fetch: send, retry: { sleep: async (ms) => void (waits.push(ms), (ahead += ms)) } });
    for (let i = 0; i < LIMIT; i++) await social.accounts.list();
    const answer = await social.accounts.list();
    expect(answer.accounts).toEqual([]);
    expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 200, 429, 200]);
    const retryAfter = Number(exchanges[2].retryAfter);
    expect(retryAfter).toBeGreaterThan(0);
    expect(waits).toEqual([retryAfter * 1000]);
  });

  it('never sends a non-idempotent call twice: a reply refused with 429 is thrown as rate_limited with its Retry-After', async () => {
    const { key } = await stack.workspace(['read', 'engage']);
    const { exchanges, send } = recordingFetch();
    const waits: number[] = [];
    const social = new SocialClient({ baseUrl: stack.baseUrl, apiKey: key, fetch: send, retry: { sleep: async (ms) => void waits.push(ms) } });
    for (let i = 0; i < LIMIT; i++) await social.accounts.list();
    const refused = await social.comments.reply({ platform: 'x', commentId: 'c-1', message: 'thanks' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: expect.any(Number) });
    expect(exchanges.filter((exchange) => exchange.path === '/api/v1/comments/reply')).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});
