import { randomUUID } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { START, Subjects } from '@app/contracts';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace, until } from '@app/testing';
import { NewEvent, RecordedEvent } from './event-store.port';
import { NatsAppendSignal } from './nats-append-signal';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Two followers of one process (the projector's read models and relay) woken by the same appends
 * read the feed once between them, and each still gets every event once, in order.
 */
describe('PostgreSQL event store: the followers of one process share their feed reads', () => {
  let db: TestDatabase;
  let nc: NatsConnection;

  beforeAll(async () => {
    db = await createTestDatabase();
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    await nc.close();
    await db.drop();
  });

  it('one read for both followers per append, every event to each once and in order', async () => {
    const signal = new NatsAppendSignal(nc, new Subjects(testNamespace()).eventsAppended);
    // A short poll: a transaction anywhere on the cluster (another test's) can hide an append from the read its signal starts.
    const store = new PostgresEventStore(db.pool, { databaseUrl: db.url, pollIntervalMs: 200, signal });
    const readAll = jest.spyOn(store, 'readAll');
    const seen: RecordedEvent[][] = [[], []];
    const followers = seen.map((events) => store.subscribeToAll(START, async (batch) => void events.push(...batch)));
    const appended: string[] = [];
    try {
      await until(() => readAll.mock.calls.length >= 1, 5_000);
      const rounds = 20;
      for (let i = 0; i < rounds; i++) {
        const event: NewEvent = { eventId: randomUUID(), type: 'Probed', data: { i }, metadata: { workspaceId: randomUUID(), version: 1 } };
        await store.append(`probe-${randomUUID()}`, [event], 'no_stream');
        appended.push(event.eventId);
        await until(() => seen.every((events) => events.length === appended.length), 5_000);
      }
      for (const events of seen) expect(events.map((e) => e.eventId)).toEqual(appended);
      // Unshared, each append costs each follower a read at least (2 to start, then 40): most are answered once for both.
      expect(readAll.mock.calls.length).toBeLessThan(rounds * 2);
    } finally {
      await Promise.all(followers.map((follower) => follower.stop()));
    }
  });

  it('a follower that starts listening reads on its own: a read begun before may miss an append that nobody heard', async () => {
    const signal = new NatsAppendSignal(nc, new Subjects(testNamespace()).eventsAppended);
    const store = new PostgresEventStore(db.pool, { databaseUrl: db.url, pollIntervalMs: 60_000, signal });
    const readAll = jest.spyOn(store, 'readAll');
    const first = store.subscribeToAll(START, async () => undefined);
    await until(() => readAll.mock.calls.length === 1, 5_000);
    await first.stop();
    // Appended while no follower listens: its signal reaches nobody in this process.
    await store.append(`probe-${randomUUID()}`, [{ eventId: randomUUID(), type: 'Probed', data: {}, metadata: { workspaceId: randomUUID(), version: 1 } }], 'no_stream');
    const second = store.subscribeToAll(START, async () => undefined);
    try {
      await until(() => readAll.mock.calls.length === 2, 5_000);
    } finally {
      await second.stop();
    }
  });
});
