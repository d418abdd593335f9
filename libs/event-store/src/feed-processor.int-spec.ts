import { randomUUID } from 'node:crypto';
import { START } from '@app/contracts';
import { createTestDatabase, TestDatabase, until } from '@app/testing';
import { RecordedEvent } from './event-store.port';
import { FeedProcessor, FeedProcessorOptions } from './feed-processor';
import { PostgresEventStore } from './postgres-event-store';

/**
 * FeedProcessor's minimum interval between reads (a follower with no
 * read-your-writes bound gathers events into fewer batches), and its failure as
 * readiness sees it, on the real PostgreSQL event store.
 */
let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

/** Stores `count` events, each in its own stream, and waits until the feed shows them all. */
async function storeEvents(count: number): Promise<void> {
  const before = (await store.readAll(START, 10_000)).length;
  for (let i = 0; i < count; i++) {
    await store.append(`post-${randomUUID()}`, [{ eventId: randomUUID(), type: 'PostCreated', data: { n: i }, metadata: { workspaceId: 'w-1', version: 1 } }], 'no_stream');
  }
  await until(async () => (await store.readAll(START, 10_000)).length === before + count, 15_000);
}

function processor(options: Pick<FeedProcessorOptions, 'handle'> & Partial<FeedProcessorOptions>): FeedProcessor {
  return new FeedProcessor({ name: `test-${randomUUID()}`, store, resumeFrom: () => Promise.resolve(START), databaseUrl: db.url, retryDelayMs: 50, ...options });
}

it('reads again no sooner than minReadIntervalMs after a read that found events', async () => {
  await storeEvents(3);
  const handledAt: number[] = [];
  const following = processor({
    batchSize: 1,
    minReadIntervalMs: 300,
    handle: async (events: RecordedEvent[]) => {
      handledAt.push(Date.now());
      expect(events).toHaveLength(1);
    },
  });
  following.start();
  try {
    await until(() => handledAt.length >= 3);
  } finally {
    await following.stop();
  }
  // Timers may fire a millisecond early; the gaps are the interval, not the (immediate) default.
  for (let i = 1; i < handledAt.length; i++) expect(handledAt[i] - handledAt[i - 1]).toBeGreaterThanOrEqual(295);
});

it('stops at once while it holds a read back', async () => {
  await storeEvents(2);
  let handled = 0;
  const following = processor({
    batchSize: 1,
    minReadIntervalMs: 60_000,
    handle: async () => {
      handled++;
    },
  });
  following.start();
  await until(() => handled === 1);
  const stopping = Date.now();
  await following.stop();
  expect(Date.now() - stopping).toBeLessThan(5_000);
  expect(handled).toBe(1);
});

it('reports why leading failed (readiness)', async () => {
  await storeEvents(1);
  let calls = 0;
  const following = processor({
    retryDelayMs: 60_000,
    handle: async () => {
      calls++;
      throw new Error('handler broke');
    },
  });
  expect(following.failure).toBeNull();
  following.start();
  try {
    await until(() => following.failure !== null);
    expect(following.failure).toBe('handler broke');
    expect(calls).toBe(1);
  } finally {
    await following.stop();
  }
});
