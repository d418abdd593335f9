import { TokenCipher } from '@app/accounts';
import { generateWebhookSecret, RETRY_WINDOW_MS, WebhookDeliveryStore, WebhookEndpointStore } from '@app/webhooks';
import { TestStack } from '../../../../test/support/test-stack';

/**
 * GET /api/v1/webhooks/:id/deliveries a page at a time, through HTTP: `limit`, `cursor`
 * and `nextCursor` as the posts and comments lists have them (libs/read-models/src/list-cursor.ts),
 * newest first, every delivery exactly once however many are queued during the walk; a
 * cursor is bound to its endpoint and status filter. Standard Webhooks ("Visibility into
 * failures and manual retries", https://www.standardwebhooks.com/): list failed messages.
 */
let stack: TestStack;
let key: string;
let workspaceId: string;
let endpoints: WebhookEndpointStore;
let deliveries: WebhookDeliveryStore;
let events = 0;

beforeAll(async () => {
  stack = await TestStack.start({ apps: ['gateway'] });
  ({ key, workspaceId } = await stack.workspace(['read', 'webhooks']));
  endpoints = new WebhookEndpointStore(stack.db.pool, new TokenCipher(stack.config.tokenEncryptionKey));
  deliveries = new WebhookDeliveryStore(stack.db.pool);
});
afterAll(() => stack.stop());

async function endpoint() {
  return endpoints.create(workspaceId, { url: 'https://hooks.example.com/in', events: ['post.published'], description: null }, generateWebhookSecret(), new Date());
}

async function queue(endpointId: string): Promise<string> {
  const eventId = `event-${++events}`;
  const now = new Date();
  await deliveries.queue({ endpointId, eventId, eventType: 'post.published', position: `1:${events}`, payload: '{}' }, now, new Date(now.getTime() + RETRY_WINDOW_MS));
  return eventId;
}

const page = (endpointId: string, query: string) => stack.request('GET', `/api/v1/webhooks/${endpointId}/deliveries?${query}`, { key });

it('walks the log newest first, a page at a time; deliveries queued during the walk shift nothing', async () => {
  const { id } = await endpoint();
  const queued: string[] = [];
  for (let i = 0; i < 7; i++) queued.push(await queue(id));

  const seen: string[] = [];
  let answer = await page(id, 'limit=3');
  expect(answer.status).toBe(200);
  seen.push(...answer.body.deliveries.map((d: { eventId: string }) => d.eventId));
  expect(answer.body.nextCursor).toEqual(expect.any(String));
  // Queued after the walk began: newer than its position, so on the next walk's first page only.
  await queue(id);
  while (answer.body.nextCursor) {
    answer = await page(id, `limit=3&cursor=${answer.body.nextCursor}`);
    expect(answer.status).toBe(200);
    seen.push(...answer.body.deliveries.map((d: { eventId: string }) => d.eventId));
  }
  expect(seen).toEqual([...queued].reverse());
  expect(answer.body.nextCursor).toBeNull();
  // 7 items in pages of 3: 3, 3, 1 — the last page says it is the last.
  expect(answer.body.deliveries).toHaveLength(1);
});

it('a page ending exactly at the last delivery has no next cursor', async () => {
  const { id } = await endpoint();
  await queue(id);
  await queue(id);
  const answer = await page(id, 'limit=2');
  expect(answer.body.deliveries).toHaveLength(2);
  expect(answer.body.nextCursor).toBeNull();
});

it('refuses a cursor of another endpoint, of another status filter, or not issued here, with invalid_query', async () => {
  const first = await endpoint();
  const second = await endpoint();
  for (let i = 0; i < 3; i++) await queue(first.id);
  const { body } = await page(first.id, 'limit=1');
  const cursor = body.nextCursor as string;

  const elsewhere = await page(second.id, `limit=1&cursor=${cursor}`);
  expect(elsewhere.status).toBe(400);
  expect(elsewhere.body.error.code).toBe('invalid_query');
  const filtered = await page(first.id, `limit=1&status=pending&cursor=${cursor}`);
  expect(filtered.status).toBe(400);
  expect(filtered.body.error.code).toBe('invalid_query');
  const forged = await page(first.id, `limit=1&cursor=${Buffer.from('{"beforeSeq":"1"}').toString('base64url')}`);
  expect(forged.status).toBe(400);
  expect(forged.body.error.code).toBe('invalid_query');
  const empty = await page(first.id, 'cursor=');
  expect(empty.status).toBe(400);
});
