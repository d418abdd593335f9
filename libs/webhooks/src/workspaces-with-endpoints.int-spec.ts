import { randomBytes, randomUUID } from 'node:crypto';
import { TokenCipher } from '@app/accounts';
import { EventEnvelope } from '@app/contracts';
import { PostgresEventStore, toEnvelope } from '@app/event-store';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpointStore } from './endpoint-store';
import { createAccountEndpoint, liveFanout, storeAccountConnected } from './fanout.test-support';
import { WebhookFanout } from './webhook-fanout';
import { WorkspacesWithEndpoints } from './workspaces-with-endpoints';

/**
 * The webhooks fan-out skips the events of a workspace without endpoints by a
 * lookup in memory, and still delivers the next event to an endpoint created
 * just now: by this replica (known at once) or by another (its notification,
 * and the skipped event taken again when it arrives after the event).
 */
let db: TestDatabase;
let store: PostgresEventStore;
let endpoints: WebhookEndpointStore;
let deliveries: WebhookDeliveryStore;
let workspaces: WorkspacesWithEndpoints;
let fanout: WebhookFanout;
let subscriberQueries = 0;
const now = new Date();

/** One stored AccountConnected (a subscribable event: account.connected) of `workspaceId`, as the feed follower gets it. */
async function accountConnected(workspaceId: string): Promise<EventEnvelope> {
  const { streamId } = await storeAccountConnected(store, workspaceId);
  const [recorded] = await store.readStream(streamId);
  return toEnvelope(recorded);
}

const createEndpoint = (workspaceId: string) => createAccountEndpoint(endpoints, workspaceId, now);

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  endpoints = new WebhookEndpointStore(db.pool, new TokenCipher(randomBytes(32)));
  const subscribers = endpoints.subscribers.bind(endpoints);
  endpoints.subscribers = (workspaceId, type) => {
    subscriberQueries++;
    return subscribers(workspaceId, type);
  };
  deliveries = new WebhookDeliveryStore(db.pool);
  ({ fanout, workspaces } = await liveFanout(db, { endpoints, deliveries, store, now }));
});
afterAll(async () => {
  await workspaces.stop();
  await store.close();
  await db.drop();
});

it('skips the events of a workspace without endpoints without asking the database', async () => {
  const event = await accountConnected(`w-${randomUUID()}`);
  const before = subscriberQueries;
  expect(await fanout.take([event])).toBe(0);
  expect(subscriberQueries).toBe(before);
});

it('asks the database for a workspace that had an endpoint when the process started', async () => {
  const workspaceId = `w-${randomUUID()}`;
  const endpoint = await createEndpoint(workspaceId);
  const restarted = new WorkspacesWithEndpoints(db.pool, db.url);
  await restarted.start();
  try {
    const freshFanout = new WebhookFanout(endpoints, deliveries, store, () => now, restarted);
    expect(await freshFanout.take([await accountConnected(workspaceId)])).toBe(1);
    expect(await deliveries.list(endpoint.id, 10, null)).toHaveLength(1);
  } finally {
    await restarted.stop();
  }
});

it('delivers the next event to an endpoint this replica created just now', async () => {
  const workspaceId = `w-${randomUUID()}`;
  await fanout.take([await accountConnected(workspaceId)]); // skipped: no endpoint yet
  const endpoint = await createEndpoint(workspaceId);
  workspaces.noteEndpoint(workspaceId); // what the webhooks service's create handler does
  const next = await accountConnected(workspaceId);
  expect(await fanout.take([next])).toBeGreaterThanOrEqual(1);
  await until(async () => (await deliveries.list(endpoint.id, 10, null)).some((d) => d.eventId === next.eventId));
});

it('delivers the next event to an endpoint another replica created just now, even when its notification comes after the event', async () => {
  const workspaceId = `w-${randomUUID()}`;
  // Another replica's write: this process learns of it only by the notification, whenever that arrives.
  const endpoint = await createEndpoint(workspaceId);
  const next = await accountConnected(workspaceId);
  await fanout.take([next]);
  await until(async () => (await deliveries.list(endpoint.id, 10, null)).some((d) => d.eventId === next.eventId));
  expect(workspaces.mayHaveEndpoints(workspaceId)).toBe(true);
});

it('asks the database for every workspace while it is not listening', async () => {
  const stopped = new WorkspacesWithEndpoints(db.pool, db.url);
  expect(stopped.mayHaveEndpoints(`w-${randomUUID()}`)).toBe(true);
  await stopped.start();
  expect(stopped.mayHaveEndpoints(`w-${randomUUID()}`)).toBe(false);
  await stopped.stop();
  expect(stopped.mayHaveEndpoints(`w-${randomUUID()}`)).toBe(true);
});

it('takes again an event it skipped when its workspace gains an endpoint right after (the notification arriving after the event)', async () => {
  const workspaceId = `w-${randomUUID()}`;
  const event = await accountConnected(workspaceId);
  // The event reaches the fan-out before the notification of an endpoint created meanwhile by another replica.
  expect(await fanout.take([event])).toBe(0);
  const endpoint = await createEndpoint(workspaceId);
  await until(async () => (await deliveries.list(endpoint.id, 10, null)).some((d) => d.eventId === event.eventId));
});
