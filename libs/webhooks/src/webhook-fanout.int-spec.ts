import { randomBytes, randomUUID } from 'node:crypto';
import { TokenCipher } from '@app/accounts';
import { GlobalPosition, START } from '@app/contracts';
import { EventStore, PostgresEventStore, toNewEvents } from '@app/event-store';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpointStore } from './endpoint-store';
import { generateWebhookSecret } from './signing';
import { WebhookFanout } from './webhook-fanout';

/**
 * A replay `since` a time, on the real PostgreSQL event store: it starts reading the feed
 * at the event store's position before that time (PostgresEventStore.positionBefore, by
 * the events_created_at index), not at the feed's start, and still queues every event of
 * the workspace stored at or after the time — and none before. Standard Webhooks
 * ("Visibility into failures and manual retries", https://www.standardwebhooks.com/):
 * replay what an endpoint missed within a range.
 */
let db: TestDatabase;
let store: PostgresEventStore;
let endpoints: WebhookEndpointStore;
let deliveries: WebhookDeliveryStore;
const reads: GlobalPosition[] = [];
const workspaceId = `w-${randomBytes(3).toString('hex')}`;
const now = new Date();

/** The store, recording where each readAll starts. */
function recording(events: EventStore): EventStore {
  return Object.assign(Object.create(events) as EventStore, {
    readAll: (after: GlobalPosition, maxCount: number) => {
      reads.push(after);
      return events.readAll(after, maxCount);
    },
  });
}

async function connected(handle: string): Promise<string> {
  const accountId = randomUUID();
  const data = { accountId, workspaceId, platform: 'x', handle, displayName: handle, platformAccountId: handle, instanceUrl: null, scopes: [], tokenExpiresAt: null, reconnected: false };
  const [event] = toNewEvents([{ type: 'AccountConnected', data } as never], { workspaceId, version: 1, requestId: undefined });
  await store.append(`account-${accountId}`, [event], 'no_stream');
  return event.eventId;
}

/** Moves an event back in time, as if it had been stored then. */
async function storedAt(eventId: string, at: Date): Promise<void> {
  await db.pool.query('UPDATE events SET created_at = $2 WHERE event_id = $1', [eventId, at]);
}

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  endpoints = new WebhookEndpointStore(db.pool, new TokenCipher(randomBytes(32)));
  deliveries = new WebhookDeliveryStore(db.pool);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

it('starts a replay since a time at the position before it, and queues exactly the events stored since', async () => {
  const hours = (n: number) => new Date(now.getTime() - n * 3600_000);
  const old = [await connected('@old1'), await connected('@old2')];
  for (const eventId of old) await storedAt(eventId, hours(3));
  const recent = [await connected('@new1'), await connected('@new2')];
  // The feed shows an event once every older transaction on the cluster has ended.
  await until(async () => (await store.readAll(START, 10)).length === 4);
  const [, lastOld] = await store.readAll(START, 2);
  expect(lastOld.eventId).toBe(old[1]);

  const endpoint = await endpoints.create(workspaceId, { url: 'https://hooks.example.com/in', events: ['account.connected'], description: null }, generateWebhookSecret(), now);
  const fanout = new WebhookFanout(endpoints, deliveries, recording(store), () => now);
  const reply = await fanout.replay(endpoint, { since: hours(1) });

  // The first read starts after the newest event stored before the time (less its margin), not at the feed's start.
  expect(reads[0]).toEqual(lastOld.position);
  expect(reads[0]).not.toEqual(START);
  expect(reply).toMatchObject({ queued: 2, alreadyDelivered: 0 });
  const queued = await deliveries.list(endpoint.id, 10, null);
  expect(queued.map((delivery) => delivery.eventId).sort()).toEqual([...recent].sort());
});

it('positionBefore: START when nothing was stored that long before, so nothing is missed', async () => {
  expect(await store.positionBefore(new Date(now.getTime() - 30 * 24 * 3600_000))).toEqual(START);
});
