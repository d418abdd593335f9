import { PassThrough, Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import {
  AccessDeniedError,
  AllStreamResolvedEvent,
  EventStoreDBClient,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AppendToStreamOptions,
  type ReadAllOptions,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import {
  APPEND_MANY_CONCURRENCY,
  backoffDelay,
  EventStoreDbClient,
  EventStoreDbEventStore,
  inBatches,
  requireSupportedServer,
  serverVersionOf,
} from './eventstoredb-event-store';
import { RecordedEvent, WrongExpectedRevisionError } from './event-store.port';
import { START } from '@app/contracts';

/**
 * The adapter's own logic against a fake client: paging and filtering of $all,
 * error mapping, and the subscription's resubscribe / back-pressure / stop
 * behaviour. The contract suite (int-spec) checks it against a real server.
 */

type FakeSubscription = PassThrough & { unsubscribed: boolean; unsubscribe(): Promise<void> };

function record(commit: number, type: string, options: { isJson?: boolean; link?: boolean; streamId?: string } = {}): AllStreamResolvedEvent {
  const event = {
    streamId: options.streamId ?? 's-1',
    id: `id-${commit}`,
    isJson: options.isJson ?? true,
    revision: BigInt(commit),
    type,
    created: new Date(0),
    data: { commit },
    metadata: { workspaceId: 'w-1', version: 1 },
    position: { commit: BigInt(commit), prepare: BigInt(commit) },
  } as AllStreamResolvedEvent['event'];
  return options.link ? { event, link: event as AllStreamResolvedEvent['link'] } : { event };
}

class FakeClient {
  log: AllStreamResolvedEvent[] = [];
  readAllCalls: ReadAllOptions[] = [];
  subscribeCalls: SubscribeToAllOptions[] = [];
  subscriptions: FakeSubscription[] = [];
  appendToStream = jest.fn();
  readStream = jest.fn();
  disposed = false;

  readAll(options: ReadAllOptions = {}) {
    this.readAllCalls.push(options);
    const from = options.fromPosition;
    // Like the server: inclusive of fromPosition.
    const start = from === 'start' ? 0 : this.log.findIndex((r) => r.event!.position.commit >= (from as { commit: bigint }).commit);
    return Readable.from(start < 0 ? [] : this.log.slice(start, start + Number(options.maxCount)));
  }

  subscribeToAll(options: SubscribeToAllOptions = {}) {
    this.subscribeCalls.push(options);
    const subscription = new PassThrough({ objectMode: true }) as FakeSubscription;
    subscription.unsubscribed = false;
    subscription.unsubscribe = async () => {
      subscription.unsubscribed = true;
    };
    this.subscriptions.push(subscription);
    return subscription;
  }

  async dispose() {
    this.disposed = true;
  }
}

function setUp(options: { closeTimeoutMs?: number } = {}) {
  const client = new FakeClient();
  const store = new EventStoreDbEventStore(client as unknown as EventStoreDbClient, { resubscribeBackoff: { initialMs: 1, maxMs: 4 }, ...options });
  return { client, store };
}

const eventually = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

const types = (events: RecordedEvent[]) => events.map((e) => e.type);

describe('EventStoreDbEventStore (fake client)', () => {
  describe('readAll', () => {
    const log = [
      record(10, '$epoch-information'),
      record(20, 'A'),
      record(30, '$>', { isJson: false }),
      record(40, 'B'),
      record(50, 'Linked', { link: true }),
      record(60, 'C'),
      record(70, 'Foreign', { isJson: false }),
    ];

    it('reads from the start of the log, keeping only domain events', async () => {
      const { client, store } = setUp();
      client.log = log;
      expect(types(await store.readAll(START, 10))).toEqual(['A', 'B', 'C']);
      expect(client.readAllCalls[0].fromPosition).toBe('start');
    });

    it('excludes the event at `after` although the server read includes it', async () => {
      const { client, store } = setUp();
      client.log = log;
      const [, b] = await store.readAll(START, 2);
      expect(types(await store.readAll(b.position, 10))).toEqual(['C']);
      expect(await store.readAll({ commit: 60n, prepare: 60n }, 10)).toEqual([]);
    });

    it('pages past records it skips until maxCount events are found', async () => {
      const { client, store } = setUp();
      client.log = log;
      const events = await store.readAll({ commit: 20n, prepare: 20n }, 1);
      expect(types(events)).toEqual(['B']);
      expect(events[0].position).toEqual({ commit: 40n, prepare: 40n });
      expect(client.readAllCalls.length).toBeGreaterThan(1);
    });
  });

  describe('readStream', () => {
    it('reads a stream that does not exist as empty', async () => {
      const { client, store } = setUp();
      client.readStream.mockReturnValue(
        new Readable({
          objectMode: true,
          read() {
            this.destroy(new StreamNotFoundError(undefined, 'missing'));
          },
        }),
      );
      expect(await store.readStream('missing')).toEqual([]);
    });

    it('passes other read errors on', async () => {
      const { client, store } = setUp();
      client.readStream.mockReturnValue(
        new Readable({
          objectMode: true,
          read() {
            this.destroy(new UnavailableError());
          },
        }),
      );
      await expect(store.readStream('s')).rejects.toBeInstanceOf(UnavailableError);
    });

    it('readStreams reads each stream named once and answers every one by its id', async () => {
      const { client, store } = setUp();
      client.readStream.mockImplementation((streamId: string) => Readable.from(streamId === 'a' ? [record(1, 'A0', { streamId: 'a' }), record(2, 'A1', { streamId: 'a' })] : []));
      const streams = await store.readStreams(['a', 'b', 'a']);
      expect(client.readStream.mock.calls.map(([streamId]) => streamId)).toEqual(['a', 'b']);
      expect(types(streams.get('a')!)).toEqual(['A0', 'A1']);
      expect(streams.get('b')).toEqual([]);
    });
  });

  describe('append', () => {
    const newEvent = { eventId: 'e-1', type: 'A', data: { n: 1 }, metadata: { workspaceId: 'w-1', version: 1 } };

    it('writes JSON events with our metadata at the expected revision', async () => {
      const { client, store } = setUp();
      client.appendToStream.mockResolvedValue({ success: true, nextExpectedRevision: 0n, position: { commit: 5n, prepare: 5n } });
      const result = await store.append('s-1', [newEvent], 'no_stream');
      expect(result).toEqual({ revision: 0n, position: { commit: 5n, prepare: 5n } });
      const [streamId, events, options] = client.appendToStream.mock.calls[0] as [string, unknown[], AppendToStreamOptions];
      expect(streamId).toBe('s-1');
      expect(events).toEqual([{ id: 'e-1', contentType: 'application/json', type: 'A', data: { n: 1 }, metadata: newEvent.metadata }]);
      expect(options.expectedRevision).toBe('no_stream');
    });

    it('maps a wrong expected version to WrongExpectedRevisionError with the actual revision', async () => {
      const { client, store } = setUp();
      client.appendToStream.mockRejectedValue(new WrongExpectedVersionError(undefined, { streamName: 's-1', expected: 0n, current: 3n }));
      await expect(store.append('s-1', [newEvent], 0n)).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', expected: 0n, actual: 3n });
    });

    it('reports a refusal returned as a result (throwOnAppendFailure=false) with the current revision', async () => {
      const { client, store } = setUp();
      client.appendToStream.mockResolvedValue({ success: false, nextExpectedRevision: 1n });
      client.readStream.mockReturnValue(Readable.from([record(7, 'B')]));
      const refused = store.append('s-1', [newEvent], 'no_stream');
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(refused).rejects.toMatchObject({ actual: 7n });
    });
  });

  describe('appendMany', () => {
    const appendsTo = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        streamId: `s-${i}`,
        events: [{ eventId: `e-${i}`, type: 'A', data: {}, metadata: { workspaceId: 'w-1', version: 1 } }],
        expected: 'no_stream' as const,
      }));

    /** appendToStream answering each call when told to, recording the order calls start in and how many are open. */
    function controlledAppends(client: FakeClient) {
      const started: string[] = [];
      const open = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
      let maxOpen = 0;
      client.appendToStream.mockImplementation(
        (streamId: string) =>
          new Promise((resolve, reject) => {
            started.push(streamId);
            open.set(streamId, { resolve, reject });
            maxOpen = Math.max(maxOpen, open.size);
          }),
      );
      const settle = (streamId: string, outcome: { revision: bigint } | Error) => {
        const call = open.get(streamId)!;
        open.delete(streamId);
        if (outcome instanceof Error) call.reject(outcome);
        else call.resolve({ success: true, nextExpectedRevision: outcome.revision, position: { commit: 1n, prepare: 1n } });
      };
      return { started, open, settle, maxOpen: () => maxOpen };
    }

    it('has at most APPEND_MANY_CONCURRENCY appends in flight, started in the order given, outcomes in that order', async () => {
      const { client, store } = setUp();
      const calls = controlledAppends(client);
      const appends = appendsTo(APPEND_MANY_CONCURRENCY * 2 + 3);
      const done = store.appendMany(appends);
      await eventually(() => calls.open.size === APPEND_MANY_CONCURRENCY);
      // Answered out of order: the next call starts as soon as any slot frees.
      calls.settle('s-5', new WrongExpectedVersionError(undefined, { streamName: 's-5', expected: 'no_stream', current: 0n }));
      calls.settle('s-0', { revision: 0n });
      await eventually(() => calls.started.length === APPEND_MANY_CONCURRENCY + 2);
      while (calls.open.size > 0) {
        for (const streamId of [...calls.open.keys()]) calls.settle(streamId, { revision: 0n });
        await new Promise((r) => setImmediate(r));
      }
      const outcomes = await done;
      expect(calls.maxOpen()).toBe(APPEND_MANY_CONCURRENCY);
      expect(calls.started).toEqual(appends.map((a) => a.streamId));
      expect(outcomes).toHaveLength(appends.length);
      expect(outcomes[5]).toMatchObject({ name: 'WrongExpectedRevisionError', streamId: 's-5', actual: 0n });
      expect(outcomes.filter((o) => !(o instanceof WrongExpectedRevisionError))).toHaveLength(appends.length - 1);
    });

    it('rejects with the first failure and starts no further append after it', async () => {
      const { client, store } = setUp();
      const calls = controlledAppends(client);
      const done = store.appendMany(appendsTo(APPEND_MANY_CONCURRENCY + 10));
      done.catch(() => undefined);
      await eventually(() => calls.open.size === APPEND_MANY_CONCURRENCY);
      calls.settle('s-3', new UnavailableError());
      await expect(done).rejects.toBeInstanceOf(UnavailableError);
      for (const streamId of [...calls.open.keys()]) calls.settle(streamId, { revision: 0n });
      await new Promise((r) => setImmediate(r));
      expect(calls.started).toHaveLength(APPEND_MANY_CONCURRENCY);
    });
  });

  describe('close', () => {
    it('gives up waiting for a client that never finishes disposing, after closeTimeoutMs', async () => {
      const { client, store } = setUp({ closeTimeoutMs: 50 });
      client.dispose = () => new Promise<void>(() => undefined);
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const started = Date.now();
      await store.close();
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('not closed after 50 ms'));
      warn.mockRestore();
    });

    it('passes on a dispose that fails within the limit', async () => {
      const { client, store } = setUp({ closeTimeoutMs: 1_000 });
      client.dispose = async () => {
        throw new Error('dispose failed');
      };
      await expect(store.close()).rejects.toThrow('dispose failed');
    });

    it('waits for a dispose that finishes within the limit', async () => {
      const { client, store } = setUp({ closeTimeoutMs: 1_000 });
      client.dispose = () => new Promise<void>((resolve) => setTimeout(() => ((client.disposed = true), resolve()), 20));
      await store.close();
      expect(client.disposed).toBe(true);
    });
  });

  describe('subscribeToAll', () => {
    it('subscribes without system events and delivers domain events, one batch at a time', async () => {
      const { client, store } = setUp();
      const seen: string[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      const subscription = store.subscribeToAll(START, async (batch) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        seen.push(...types(batch));
        inFlight--;
      });
      expect(client.subscribeCalls[0].fromPosition).toBe('start');
      expect(client.subscribeCalls[0].filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
      const live = client.subscriptions[0];
      live.write(record(1, 'A'));
      live.write(record(2, '$>', { isJson: false }));
      live.write(record(3, 'B'));
      await eventually(() => seen.length === 2);
      live.write(record(4, 'C'));
      await eventually(() => seen.length === 3);
      await subscription.stop();
      expect(seen).toEqual(['A', 'B', 'C']);
      expect(maxInFlight).toBe(1);
      expect(live.unsubscribed).toBe(true);
      await expect(subscription.done).resolves.toBeUndefined();
    });

    it('resubscribes after a drop from the last position handled, delivering nothing twice', async () => {
      const { client, store } = setUp();
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ commit: 5n, prepare: 5n }, async (batch) => {
        seen.push(...types(batch));
      });
      expect(client.subscribeCalls[0].fromPosition).toEqual({ commit: 5n, prepare: 5n });
      client.subscriptions[0].write(record(10, 'A'));
      client.subscriptions[0].write(record(20, 'B'));
      await eventually(() => seen.length === 2);
      client.subscriptions[0].destroy(new UnavailableError());
      await eventually(() => client.subscriptions.length === 2);
      expect(client.subscriptions[0].unsubscribed).toBe(true);
      expect(client.subscribeCalls[1].fromPosition).toEqual({ commit: 20n, prepare: 20n });
      client.subscriptions[1].write(record(30, 'C'));
      await eventually(() => seen.length === 3);
      await subscription.stop();
      expect(seen).toEqual(['A', 'B', 'C']);
    });

    it('ends with the handler error and does not resubscribe', async () => {
      const { client, store } = setUp();
      const subscription = store.subscribeToAll(START, async () => {
        throw new Error('handler failed');
      });
      client.subscriptions[0].write(record(1, 'Boom'));
      await expect(subscription.done).rejects.toThrow('handler failed');
      expect(client.subscriptions).toHaveLength(1);
      expect(client.subscriptions[0].unsubscribed).toBe(true);
    });

    it('ends with an error that resubscribing cannot cure', async () => {
      const { client, store } = setUp();
      const subscription = store.subscribeToAll(START, async () => undefined);
      client.subscriptions[0].destroy(new AccessDeniedError());
      await expect(subscription.done).rejects.toBeInstanceOf(AccessDeniedError);
      expect(client.subscriptions).toHaveLength(1);
    });

    it('close() stops live subscriptions and disposes the client', async () => {
      const { client, store } = setUp();
      const subscription = store.subscribeToAll(START, async () => undefined);
      await store.close();
      await expect(subscription.done).resolves.toBeUndefined();
      expect(client.subscriptions[0].unsubscribed).toBe(true);
      expect(client.disposed).toBe(true);
    });
  });
});

describe('server version', () => {
  it('accepts 22.6 and every later version', () => {
    for (const version of ['22.6.0', '22.10.3', '23.10.0', '24.10.1', '25.0.0']) expect(() => requireSupportedServer(version)).not.toThrow();
  });

  it('refuses older versions, and a server without the server-features call, saying what is needed', () => {
    for (const version of ['22.5.9', '21.10.9', '20.10.0']) expect(() => requireSupportedServer(version)).toThrow(`EventStoreDB 22.6 or newer is needed (stream reads must report $all positions); the server reports version ${version}`);
    expect(() => requireSupportedServer('unknown')).toThrow(/version unknown \(it has no server-features call: older than 21.10\)/);
  });

  it('is read from the server features the client fetched', async () => {
    const client = { capabilities: Promise.resolve({ serverVersion: '24.10.0', supports: () => true }) };
    expect(await serverVersionOf(client as unknown as EventStoreDBClient)).toBe('24.10.0');
  });

  it('fails connect() on an older server and disposes the client', async () => {
    const client = { capabilities: Promise.resolve({ serverVersion: '21.10.0' }), dispose: jest.fn(async () => undefined) };
    const connectionString = jest.spyOn(EventStoreDBClient, 'connectionString').mockReturnValue(client as unknown as EventStoreDBClient);
    try {
      await expect(EventStoreDbEventStore.connect('esdb://old:2113?tls=false')).rejects.toThrow(/22\.6 or newer is needed.*version 21\.10\.0/);
      expect(connectionString).toHaveBeenCalledWith('esdb://old:2113?tls=false');
      expect(client.dispose).toHaveBeenCalled();
    } finally {
      connectionString.mockRestore();
    }
  });
});

describe('inBatches', () => {
  it('batches what is already buffered, up to the maximum, without waiting for more', async () => {
    const stream = new PassThrough({ objectMode: true });
    [1, 2, 3, 4, 5].forEach((n) => stream.write(n));
    const batches = inBatches<number>(stream, 2);
    expect((await batches.next()).value).toEqual([1, 2]);
    expect((await batches.next()).value).toEqual([3, 4]);
    expect((await batches.next()).value).toEqual([5]);
    stream.write(6);
    expect((await batches.next()).value).toEqual([6]);
    stream.end();
    expect((await batches.next()).done).toBe(true);
  });
});

describe('backoffDelay', () => {
  it('doubles per failure up to the maximum', () => {
    const backoff = { initialMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(backoff, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});
