import { randomUUID } from 'node:crypto';
import { connect, headers, JSONCodec, NatsConnection, nanos } from 'nats';
import { EventEnvelope, Subjects } from '@app/contracts';
import { TEST_NATS_URL, testNamespace, until } from '@app/testing';
import { EventConsumer, EventConsumerOptions, EventDelivery, redeliveryBackoffMs, retryDelayMs } from './event-consumer';
import { ensureEventStream } from './event-stream';

const codec = JSONCodec();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


describe('EventConsumer (real NATS JetStream)', () => {
  let nc: NatsConnection;
  let subjects: Subjects;
  const consumers: EventConsumer[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
  });
  beforeEach(async () => {
    subjects = new Subjects(testNamespace());
    await ensureEventStream(nc, subjects, 60_000);
  });
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.stop(0)));
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(subjects.eventStreamName).catch(() => undefined);
  });
  afterAll(() => nc.close());

  function options(handler: (d: EventDelivery) => Promise<void>, overrides: Partial<EventConsumerOptions> = {}): EventConsumerOptions {
    return {
      stream: subjects.eventStreamName,
      durableName: 'worker',
      filterSubjects: [`${subjects.eventRoot}.posts.Wanted`],
      ackWaitMs: 500,
      maxDeliver: 3,
      maxInFlight: 10,
      handler,
      onError: () => undefined,
      ...overrides,
    };
  }

  async function start(opts: EventConsumerOptions): Promise<EventConsumer> {
    const consumer = await EventConsumer.start(nc, opts);
    consumers.push(consumer);
    return consumer;
  }

  async function publish(type: string, data: unknown = {}): Promise<EventEnvelope> {
    const envelope: EventEnvelope = {
      eventId: randomUUID(), type, version: 1, streamId: `post-${randomUUID()}`, revision: '0', position: '1:1', occurredAt: new Date().toISOString(), workspaceId: 'w', data,
    };
    const h = headers();
    h.set('Nats-Msg-Id', envelope.eventId);
    await nc.jetstream().publish(`${subjects.eventRoot}.posts.${type}`, codec.encode(envelope), { headers: h });
    return envelope;
  }

  async function consumerInfo() {
    const jsm = await nc.jetstreamManager();
    return jsm.consumers.info(subjects.eventStreamName, 'worker');
  }

  it('creates a durable, explicit-ack consumer with bounded redelivery and backoff, and updates it in place', async () => {
    await start(options(async () => undefined, { ackWaitMs: 1_000 }));
    const info = await consumerInfo();
    expect(info.config).toMatchObject({
      durable_name: 'worker', ack_policy: 'explicit', max_deliver: 3, max_ack_pending: 10, filter_subject: `${subjects.eventRoot}.posts.Wanted`,
      backoff: [nanos(1_000), nanos(2_000)],
    });
    await consumers.pop()!.stop(0);
    await start(options(async () => undefined, { ackWaitMs: 2_000, maxDeliver: 5 }));
    expect((await consumerInfo()).config).toMatchObject({ max_deliver: 5, backoff: [2_000, 4_000, 8_000, 16_000].map(nanos) });
  });

  it('hands only the filtered events to the handler, with the envelope and delivery facts, and acks them', async () => {
    const seen: EventDelivery[] = [];
    await start(options(async (d) => void seen.push(d)));
    const wanted = await publish('Wanted', { n: 1 });
    await publish('Other');
    await until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ envelope: wanted, deliveryCount: 1, isLastDelivery: false });
    await until(async () => (await consumerInfo()).num_ack_pending === 0);
    await sleep(700);
    expect(seen).toHaveLength(1);
  });

  it('naks a failure for a later delivery, flags the last one, and stops there', async () => {
    const deliveries: Array<{ count: number; last: boolean }> = [];
    const errors: unknown[] = [];
    await start(options(async (d) => {
      deliveries.push({ count: d.deliveryCount, last: d.isLastDelivery });
      throw new Error('boom');
    }, { onError: (e) => errors.push(e) }));
    await publish('Wanted');
    await until(() => deliveries.length === 3);
    expect(deliveries).toEqual([{ count: 1, last: false }, { count: 2, last: false }, { count: 3, last: true }]);
    expect(errors).toHaveLength(3);
    await sleep(700);
    expect(deliveries).toHaveLength(3);
    expect((await consumerInfo()).num_ack_pending).toBe(0);
  });

  it('keeps a long job alive with working(): no redelivery while it reports progress', async () => {
    let calls = 0;
    await start(options(async (d) => {
      calls++;
      for (let i = 0; i < 8; i++) {
        await sleep(150);
        d.working();
      }
    }));
    await publish('Wanted');
    await until(async () => calls === 1 && (await consumerInfo()).num_ack_pending === 0, 6_000);
    expect(calls).toBe(1);
  });

  it('a redelivery of an event still running here joins it instead of running it twice', async () => {
    let calls = 0;
    await start(options(async () => {
      calls++;
      await sleep(1_200); // past the ack wait, without working(): JetStream redelivers meanwhile
    }));
    await publish('Wanted');
    await until(async () => (await consumerInfo()).num_redelivered > 0, 3_000);
    await until(async () => (await consumerInfo()).num_ack_pending === 0, 3_000);
    expect(calls).toBe(1);
  });

  it('stop waits for a running handler and acks its finished work', async () => {
    let finished = false;
    let started = false;
    const consumer = await start(options(async () => {
      started = true;
      await sleep(400);
      finished = true;
    }));
    await publish('Wanted');
    await until(() => started);
    await consumer.stop(5_000);
    expect(finished).toBe(true);
    expect(await consumer.problem()).toBe('stopped');
    expect((await consumerInfo()).num_ack_pending).toBe(0);
  });

  it('stop gives up after the grace: the abandoned event is not acked and comes back to the next consumer', async () => {
    const first: EventDelivery[] = [];
    const consumer = await start(options(async (d) => {
      first.push(d);
      await new Promise((resolve) => d.signal.addEventListener('abort', resolve));
    }));
    const event = await publish('Wanted');
    await until(() => first.length === 1);
    await consumer.stop(100);
    expect(first[0].signal.aborted).toBe(true);
    const second: EventDelivery[] = [];
    await start(options(async (d) => void second.push(d)));
    await until(() => second.length === 1, 5_000);
    expect(second[0]).toMatchObject({ envelope: { eventId: event.eventId }, deliveryCount: 2 });
  });

  it('reports a problem when its durable consumer disappears, none while it consumes', async () => {
    const consumer = await start(options(async () => undefined));
    expect(await consumer.problem()).toBeNull();
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.delete(subjects.eventStreamName, 'worker');
    expect(await consumer.problem()).toMatch(/worker|consumer/);
  });

  it('spaces redeliveries: backoff grows from the ack wait, retries from a tenth of it', () => {
    expect(redeliveryBackoffMs(1_000, 6)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(redeliveryBackoffMs(1_000, 1)).toEqual([]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(30_000, n))).toEqual([3_000, 6_000, 12_000, 24_000, 30_000]);
    expect(retryDelayMs(500, 1)).toBe(100);
  });
});
