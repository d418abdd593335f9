import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { EventEnvelope, Subjects } from '@app/contracts';
import { CheckpointStore, PostgresEventStore, RecordedEvent, START, ThrottledCheckpoint } from '@app/event-store';
import { ensureEventStream } from '@app/messaging';
import { createTestDatabase, TEST_NATS_URL, TestDatabase, testNamespace, until } from '@app/testing';
import { RELAY_CHECKPOINT, RELAY_CHECKPOINT_EVERY_MS, relayToJetStream } from './relay-to-jetstream';

const codec = JSONCodec<EventEnvelope>();

/**
 * The pipelined relay against the real NATS server and PostgreSQL: a publish in
 * the middle of a batch is refused by the stream, and the stream must still end
 * up with every event once, in store order. The refusal comes from the stream's
 * max_msg_size (one event is too large, the others are not), so only the
 * Nats-Expected-Last-Msg-Id chain stops the later, smaller events from landing
 * past the gap (https://docs.nats.io/nats-concepts/jetstream/headers).
 */
describe('relayToJetStream (pipelined publishes that keep store order)', () => {
  let db: TestDatabase;
  let nc: NatsConnection;
  let store: PostgresEventStore;
  let checkpoints: CheckpointStore;
  let subjects: Subjects;

  beforeAll(async () => {
    db = await createTestDatabase();
    nc = await connect({ servers: TEST_NATS_URL });
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    checkpoints = new CheckpointStore(db.pool);
    subjects = new Subjects(testNamespace());
    await ensureEventStream(nc, subjects, 60_000);
  });
  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(subjects.eventStreamName).catch(() => undefined);
    await nc.close();
    await db.drop();
  });

  /** Stores one event per new post stream, the `large`-th with a payload over 4 KiB; returns them as the feed gives them. */
  async function storeEvents(count: number, large: number): Promise<RecordedEvent[]> {
    for (let i = 0; i < count; i++) {
      const data = { n: i, padding: i === large ? 'x'.repeat(8192) : '' };
      await store.append(`post-${randomUUID()}`, [{ eventId: randomUUID(), type: 'PostCreated', data, metadata: { workspaceId: 'w-1', version: 1 } }], 'no_stream');
    }
    // The feed shows an event once every older transaction on the server has ended (other test
    // files' included, in their own databases), so it is read until every event stored here is in it.
    let events: RecordedEvent[] = [];
    await until(async () => (events = await store.readAll(START, 100)).length === count, 15_000);
    return events;
  }

  async function setMaxMessageSize(bytes: number): Promise<void> {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(subjects.eventStreamName);
    await jsm.streams.update(subjects.eventStreamName, { ...info.config, max_msg_size: bytes });
    // The stream answers with its new config; read it back so the relay never races a limit not yet in force.
    await until(async () => (await jsm.streams.info(subjects.eventStreamName)).config.max_msg_size === bytes, 5_000);
  }

  /** The event ids in the stream, in stream order. */
  async function streamEventIds(): Promise<string[]> {
    const jsm = await nc.jetstreamManager();
    const { state } = await jsm.streams.info(subjects.eventStreamName);
    const ids: string[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      ids.push(codec.decode((await jsm.streams.getMessage(subjects.eventStreamName, { seq })).data).eventId);
    }
    return ids;
  }

  it('stops at a refused publish, checkpoints the acknowledged prefix, and resumes without gaps or repeats', async () => {
    const events = await storeEvents(8, 3);
    const lateFailures: unknown[] = [];
    const checkpoint = new ThrottledCheckpoint(checkpoints, RELAY_CHECKPOINT, RELAY_CHECKPOINT_EVERY_MS, (error) => lateFailures.push(error));
    const relay = relayToJetStream(nc, subjects, checkpoint);
    await setMaxMessageSize(4096);

    await expect(relay(events)).rejects.toThrow(/maximum payload|message size|max_msg_size|exceeds/i);
    // Events 4..7 are small enough, but each asserts its predecessor, so none landed past the refused one.
    expect(await streamEventIds()).toEqual(events.slice(0, 3).map((e) => e.eventId));
    expect(await checkpoints.load(RELAY_CHECKPOINT)).toEqual(events[2].position);

    // The limit lifted, the feed resumes after the checkpoint (as FeedProcessor does after a failure).
    await setMaxMessageSize(-1);
    const from = await checkpoints.load(RELAY_CHECKPOINT);
    await relay(await store.readAll(from, 100));
    expect(await streamEventIds()).toEqual(events.map((e) => e.eventId));
    // Moved lazily on success: flushed as the projector does on its next resume or on stop.
    await checkpoint.flush();
    expect(await checkpoints.load(RELAY_CHECKPOINT)).toEqual(events[7].position);

    // A crash before the checkpoint moved: the whole batch again is dropped as duplicates.
    await relay(events);
    expect(await streamEventIds()).toEqual(events.map((e) => e.eventId));
    await checkpoint.flush();
    expect(lateFailures).toEqual([]);
  });
});
