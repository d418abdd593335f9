import { connect, NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { TEST_NATS_URL, testNamespace } from '@app/testing';
import { ensureEventStream } from './event-stream';
import { JetStreamPublisher } from './jetstream-publisher';

const data = new TextEncoder().encode('{}');

/** JetStream publishes on one reply inbox, against the real server: its acknowledgements and refusals. */
describe('JetStreamPublisher (real NATS JetStream)', () => {
  let nc: NatsConnection;
  let subjects: Subjects;
  let js: JetStreamPublisher;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    subjects = new Subjects(testNamespace());
    await ensureEventStream(nc, subjects, 60_000);
    js = new JetStreamPublisher(nc, 2_000);
  });
  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(subjects.eventStreamName).catch(() => undefined);
    await nc.close();
  });

  const subject = () => subjects.event('post-1', 'PostCreated');

  it('answers where the stream stored each message, and a repeated id as a duplicate stored nowhere new', async () => {
    const first = await js.publish(subject(), data, { msgID: 'm-1' });
    const second = await js.publish(subject(), data, { msgID: 'm-2', expectLastMsgID: 'm-1' });
    expect(first).toEqual({ stream: subjects.eventStreamName, seq: expect.any(Number), duplicate: false });
    expect(second.seq).toBe(first.seq + 1);
    expect(await js.publish(subject(), data, { msgID: 'm-1' })).toEqual({ ...first, duplicate: true });
    const jsm = await nc.jetstreamManager();
    const stored = await jsm.streams.getMessage(subjects.eventStreamName, { seq: second.seq });
    expect(stored.header.get('Nats-Msg-Id')).toBe('m-2');
  });

  it('rejects with the stream\'s refusal when its last message is not the one expected', async () => {
    await js.publish(subject(), data, { msgID: 'm-3' });
    await expect(js.publish(subject(), data, { msgID: 'm-4', expectLastMsgID: 'not-the-last' })).rejects.toThrow(/wrong last msg ID/i);
  });

  it('rejects when no stream takes the subject', async () => {
    await expect(js.publish(`${testNamespace()}.nowhere`, data, { msgID: 'm-5' })).rejects.toThrow(/no responders/);
  });
});
