import { randomUUID } from 'node:crypto';
import { connect, NatsConnection } from 'nats';
import { START, Subjects } from '@app/contracts';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace, until } from '@app/testing';
import { AppendSignal, PostgresAppendSignal } from './append-signal';
import { NewEvent, RecordedEvent } from './event-store.port';
import { NatsAppendSignal } from './nats-append-signal';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The append signal wakes a feed follower in another process at once: here two stores on one
 * database (the writer's and the follower's, as in two apps), each with its own signal, and a
 * follower whose poll would wait a minute, so only the signal can bring it the event in time.
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
    const seen: RecordedEvent[] = [];
    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
    const already = Number(rows[0].n);
    const subscription = follower.subscribeToAll(START, async (events) => void seen.push(...events));
    try {
      // The follower has read what is there and sleeps until woken (or a minute passes).
      await until(() => seen.length === already, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const streamId = `probe-${randomUUID()}`;
      await writer.append(streamId, [newEvent()], 'no_stream');
      await until(() => seen.some((event) => event.streamId === streamId), 5_000);
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
