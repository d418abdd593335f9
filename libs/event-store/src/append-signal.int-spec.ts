import { randomUUID } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { START, Subjects } from '@app/contracts';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace, until } from '@app/testing';
import { AppendSignal, PostgresAppendSignal } from './append-signal';
import { NewEvent } from './event-store.port';
import { NatsAppendSignal } from './nats-append-signal';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The append signal wakes a feed follower in another process at once: here two stores on one
 * database (the writer's and the follower's, as in two apps), each with its own signal, and a
 * follower whose poll would wait a minute, so only the signal can make it read again in time.
 */
describe('append signal: a follower in another process reads an append at once', () => {
  let db: TestDatabase;
  let nc: NatsConnection;
  let subjects: Subjects;
  const newEvent = (): NewEvent => ({ eventId: randomUUID(), type: 'Probed', data: {}, metadata: { workspaceId: randomUUID(), version: 1 } });

  beforeAll(async () => {
    db = await createTestDatabase();
    nc = await connect({ servers: TEST_NATS_URL });
    subjects = new Subjects(testNamespace());
  });
  afterAll(async () => {
    await nc.close();
    await db.drop();
  });

  const signals: Array<[string, () => AppendSignal]> = [
    ['NOTIFY (PostgreSQL)', () => new PostgresAppendSignal(db.pool, db.url)],
    ['NATS', () => new NatsAppendSignal(nc, subjects.eventsAppended)],
  ];

  it.each(signals)('%s', async (_name, signal) => {
    const writer = new PostgresEventStore(db.pool, { databaseUrl: db.url, signal: signal() });
    const follower = new PostgresEventStore(db.pool, { databaseUrl: db.url, pollIntervalMs: 60_000, signal: signal() });
    const reads = jest.spyOn(follower, 'readAll');
    const subscription = follower.subscribeToAll(START, async () => undefined);
    try {
      // The follower has read what is there and sleeps until woken (or a minute passes).
      await until(() => reads.mock.calls.length > 0, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const readsBefore = reads.mock.calls.length;
      await writer.append(`probe-${randomUUID()}`, [newEvent()], 'no_stream');
      // Woken: it reads again at once. (Whether that read shows the event is the feed's visibility rule, which a
      // transaction of another test on the cluster can hold back; the feed's own tests prove what it returns.)
      await until(() => reads.mock.calls.length > readsBefore, 5_000);
    } finally {
      await subscription.stop();
    }
  });

  it('NATS: the appends of one turn send one message', async () => {
    const received: number[] = [];
    const probe = nc.subscribe(subjects.eventsAppended, { callback: () => received.push(Date.now()) });
    await nc.flush();
    const signal = new NatsAppendSignal(nc, subjects.eventsAppended);
    signal.signal();
    signal.signal();
    signal.signal();
    await new Promise((resolve) => setTimeout(resolve, 100));
    signal.signal();
    await until(() => received.length >= 2, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    probe.unsubscribe();
    expect(received).toHaveLength(2);
  });
});
