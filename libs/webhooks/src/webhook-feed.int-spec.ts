import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { TokenCipher } from '@app/accounts';
import { CheckpointStore, comparePositions, FeedProcessor, GlobalPosition, PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { QueueOutcome, WebhookDeliveryStore } from './delivery-store';
import { WebhookEndpointStore } from './endpoint-store';
import { createAccountEndpoint, liveFanout, storeAccountConnected } from './fanout.test-support';
import { WebhookFanout } from './webhook-fanout';
import { WEBHOOKS_FEED, webhookFeedHandler } from './webhook-feed';
import { WorkspacesWithEndpoints } from './workspaces-with-endpoints';

/**
 * The live fan-out as the webhooks service runs it: a FeedProcessor following the
 * real PostgreSQL event store's feed in batches. The events of a workspace without
 * endpoints cost no statement of their own (only the batch's checkpoint), an
 * endpoint created just before an event gets it, and a crash between queueing and
 * the checkpoint replays the batch without queueing any delivery twice.
 */
let db: TestDatabase;
let store: PostgresEventStore;
let endpoints: WebhookEndpointStore;
let deliveries: WebhookDeliveryStore;
let workspaces: WorkspacesWithEndpoints;
let fanout: WebhookFanout;
/** Statements the fan-out and its checkpoint saves sent (their own pool's queries). */
let statements = 0;
const saved: GlobalPosition[] = [];
const outcomes: QueueOutcome[] = [];
const now = new Date();

/** The pool, counting the statements sent through it. */
function counted(pool: Pool): Pool {
  return Object.assign(Object.create(pool) as Pool, {
    query: (...args: unknown[]) => {
      statements++;
      return (pool.query as (...a: unknown[]) => unknown)(...args);
    },
  });
}

/** Saves recorded in `saved`; the `failOn`-th save (counting from 1) fails once, as a crash before the checkpoint would. */
function recordingCheckpoints(pool: Pool, failOn = 0): CheckpointStore {
  const checkpoints = new CheckpointStore(pool);
  let saves = 0;
  const save = checkpoints.save.bind(checkpoints);
  checkpoints.save = async (name, position, ...rest) => {
    if (++saves === failOn) throw new Error('crashed before the checkpoint');
    await save(name, position, ...rest);
    saved.push(position);
  };
  return checkpoints;
}

function follower(checkpoints: CheckpointStore, batchSize: number, retryDelayMs = 50): FeedProcessor {
  return new FeedProcessor({
    name: WEBHOOKS_FEED,
    store,
    // The checkpoint is loaded on the uncounted pool: only the batches' statements are counted.
    resumeFrom: () => new CheckpointStore(db.pool).load(WEBHOOKS_FEED),
    databaseUrl: db.url,
    handle: webhookFeedHandler(fanout, checkpoints, () => undefined),
    batchSize,
    retryDelayMs,
  });
}

/** Stores `count` AccountConnected events (account.connected) of `workspaceId`, each in its own stream; returns them once the feed shows them. */
async function accountsConnected(workspaceId: string, count: number): Promise<RecordedEvent[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await storeAccountConnected(store, workspaceId)).eventId);
  // The feed shows an event once every older transaction on the server has ended (other test files' included).
  let stored: RecordedEvent[] = [];
  await until(async () => (stored = (await store.readAll(START, 10_000)).filter((event) => ids.includes(event.eventId))).length === count, 15_000);
  return stored;
}

async function checkpointAt(position: GlobalPosition): Promise<boolean> {
  return comparePositions(await new CheckpointStore(db.pool).load(WEBHOOKS_FEED), position) === 0;
}

const createEndpoint = (workspaceId: string) => createAccountEndpoint(endpoints, workspaceId, now);

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  endpoints = new WebhookEndpointStore(counted(db.pool), new TokenCipher(randomBytes(32)));
  deliveries = new WebhookDeliveryStore(counted(db.pool));
  const queue = deliveries.queue.bind(deliveries);
  deliveries.queue = async (...args) => {
    const outcome = await queue(...args);
    outcomes.push(outcome);
    return outcome;
  };
  ({ fanout, workspaces } = await liveFanout(db, { endpoints, deliveries, store, now }));
});
afterAll(async () => {
  await workspaces.stop();
  await store.close();
  await db.drop();
});

it('passes over the events of a workspace without endpoints with no statement per event, and moves the checkpoint once per batch', async () => {
  const events = await accountsConnected(`w-${randomUUID()}`, 12);
  saved.length = 0;
  statements = 0;
  const processor = follower(recordingCheckpoints(counted(db.pool)), 5);
  processor.start();
  try {
    await until(() => checkpointAt(events[11].position));
  } finally {
    await processor.stop();
  }
  // Batches of 5, 5 and 2: one checkpoint save each, at the batch's last event, and no other statement.
  expect(saved).toEqual([events[4].position, events[9].position, events[11].position]);
  expect(statements).toBe(3);
});

it('delivers an event to an endpoint created just before it (by another replica: known by its notification)', async () => {
  const workspaceId = `w-${randomUUID()}`;
  const endpoint = await createEndpoint(workspaceId);
  const processor = follower(recordingCheckpoints(db.pool), 100);
  processor.start();
  try {
    const [event] = await accountsConnected(workspaceId, 1);
    await until(async () => (await deliveries.list(endpoint.id, 10, null)).some((delivery) => delivery.eventId === event.eventId));
  } finally {
    await processor.stop();
  }
});

it('queues each delivery exactly once across a crash before the checkpoint and a restart', async () => {
  const workspaceId = `w-${randomUUID()}`;
  const both = [await createEndpoint(workspaceId), await createEndpoint(workspaceId)];
  workspaces.noteEndpoint(workspaceId);
  const events = await accountsConnected(workspaceId, 10);
  outcomes.length = 0;
  // The second batch's deliveries are queued, then its checkpoint fails; the process dies before it retries.
  const crashing = follower(recordingCheckpoints(db.pool, 2), 4, 60_000);
  crashing.start();
  await until(() => crashing.failure !== null);
  await crashing.stop();
  // The next process resumes at the first batch's checkpoint.
  const restarted = follower(recordingCheckpoints(db.pool), 4);
  restarted.start();
  try {
    await until(() => checkpointAt(events[9].position));
  } finally {
    await restarted.stop();
  }
  expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(20);
  // The replayed batch found its deliveries queued already.
  expect(outcomes.filter((outcome) => outcome === 'pending')).toHaveLength(8);
  for (const endpoint of both) {
    const queued = await deliveries.list(endpoint.id, 100, null);
    expect(queued.map((delivery) => delivery.eventId).sort()).toEqual(events.map((event) => event.eventId).sort());
  }
});
