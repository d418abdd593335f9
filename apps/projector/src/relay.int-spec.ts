import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection } from 'nats';
import { EventEnvelope, Subjects } from '@app/contracts';
import { RELAY_CHECKPOINT } from '@app/event-relay';
import { CheckpointStore, PostgresEventStore, START } from '@app/event-store';
import { TEST_NATS_URL } from '@app/testing';
import { TestStack } from '../../../test/support/test-stack';

const codec = JSONCodec<EventEnvelope>();

describe('relay: event store -> JetStream', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let store: PostgresEventStore;
  let subjects: Subjects;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['projector'] });
    nc = await connect({ servers: TEST_NATS_URL });
    store = new PostgresEventStore(stack.db.pool, { databaseUrl: stack.db.url });
    subjects = new Subjects(stack.config.natsNamespace);
  });
  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(subjects.eventStreamName).catch(() => undefined);
    await nc.close();
    await stack.stop();
  });

  async function appendPosts(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const eventId = randomUUID();
      ids.push(eventId);
      await store.append(`post-${randomUUID()}`, [{ eventId, type: 'PostCreated', data: { n: i }, metadata: { workspaceId: 'w-1', version: 1, requestId: `req-${i}` } }], 'no_stream');
    }
    return ids;
  }

  /** Every message in the stream, in stream order. */
  async function streamContents(expected: number): Promise<EventEnvelope[]> {
    const js = nc.jetstream();
    const deadline = Date.now() + 10_000;
    const jsm = await nc.jetstreamManager();
    while (Date.now() < deadline) {
      const info = await jsm.streams.info(subjects.eventStreamName).catch(() => null);
      if (info && info.state.messages >= expected) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const consumer = await js.consumers.get(subjects.eventStreamName); // ordered, from the first message
    const messages: EventEnvelope[] = [];
    const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
    for await (const message of batch) {
      messages.push(codec.decode(message.data));
      if (messages.length === expected) break;
    }
    return messages;
  }

  it('publishes every stored event in store order, with the documented envelope and subject', async () => {
    const ids = await appendPosts(20);
    const messages = await streamContents(20);
    expect(messages.map((m) => m.eventId)).toEqual(ids);
    expect(messages[0]).toEqual({
      eventId: ids[0],
      type: 'PostCreated',
      version: 1,
      streamId: expect.stringMatching(/^post-/),
      revision: '0',
      position: expect.stringMatching(/^\d+:\d+$/),
      occurredAt: expect.any(String),
      workspaceId: 'w-1',
      data: { n: 0 },
    });
    const jsm = await nc.jetstreamManager();
    const last = await jsm.streams.getMessage(subjects.eventStreamName, { last_by_subj: `${subjects.eventRoot}.posts.PostCreated` });
    expect(last.header.get('Nats-Msg-Id')).toBe(ids[19]);
    expect(last.header.get('x-request-id')).toBe('req-19');
  });

  it('resumes from its checkpoint after a restart, and a resend after a crash is dropped as a duplicate', async () => {
    const before = (await streamContents(20)).length;
    await stack.stopApp('projector');
    const whileDown = await appendPosts(5);
    // A crash after publishing but before saving the checkpoint: the relay starts from an earlier position and sends again.
    await new CheckpointStore(stack.db.pool).save(RELAY_CHECKPOINT, START);
    await stack.startApp('projector');
    const after = await appendPosts(5);
    const messages = await streamContents(before + 10);
    expect(messages).toHaveLength(before + 10);
    expect(new Set(messages.map((m) => m.eventId)).size).toBe(messages.length);
    expect(messages.slice(-10).map((m) => m.eventId)).toEqual([...whileDown, ...after]);
    const jsm = await nc.jetstreamManager();
    expect((await jsm.streams.info(subjects.eventStreamName)).state.messages).toBe(before + 10);
  });
});
