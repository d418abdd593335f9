import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, RecordedEvent, StreamAppend, StreamAppendOutcome, WrongExpectedRevisionError } from './event-store.port';
import { comparePositions, GlobalPosition } from '@app/contracts';

export interface ContractHarness {
  store: EventStore;
  /** Position before any event this test appends (adapters with a shared store start after existing events). */
  head(): Promise<GlobalPosition>;
}

function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { eventId: randomUUID(), type, data, metadata: { workspaceId: 'w-1', version: 1 } };
}

/**
 * Reads the feed after `after` until `expected` events of `streams` have been
 * seen. Appended events become readable once every older transaction has
 * ended (on PostgreSQL, in the whole cluster), so a busy server shows them a
 * moment later: wait for them, up to a bound.
 */
async function readAllFrom(store: EventStore, after: GlobalPosition, streams: Set<string>, expected: number): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  const deadline = Date.now() + 10_000;
  let position = after;
  while (seen.length < expected && Date.now() < deadline) {
    const batch = await store.readAll(position, 100);
    if (batch.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    seen.push(...batch.filter((e) => streams.has(e.streamId)));
    position = batch[batch.length - 1].position;
  }
  return seen;
}

/**
 * The behaviour every EventStore adapter must show. Each adapter's test file
 * calls this with a harness of its own.
 */
export function describeEventStoreContract(name: string, setUp: () => Promise<ContractHarness>, tearDown: () => Promise<void>): void {
  describe(`EventStore contract: ${name}`, () => {
    let harness: ContractHarness;
    beforeAll(async () => {
      harness = await setUp();
    });
    afterAll(tearDown);

    const stream = () => `test-${randomUUID()}`;

    it('creates a stream with no_stream and reads it back in order', async () => {
      const id = stream();
      const result = await harness.store.append(id, [event('A', { n: 1 }), event('B', { n: 2 })], 'no_stream');
      expect(result.revision).toBe(1n);
      const events = await harness.store.readStream(id);
      expect(events.map((e) => [e.type, e.data, e.revision])).toEqual([
        ['A', { n: 1 }, 0n],
        ['B', { n: 2 }, 1n],
      ]);
      expect(events[1].metadata).toMatchObject({ workspaceId: 'w-1', version: 1 });
      expect(comparePositions(events[1].position, result.position)).toBe(0);
    });

    it('answers a ping', async () => {
      await expect(harness.store.ping()).resolves.toBeUndefined();
    });

    it('reads an unknown stream as empty', async () => {
      expect(await harness.store.readStream(stream())).toEqual([]);
    });

    it('reads several streams at once, each as readStream reads it, an unknown one as empty', async () => {
      const [a, b, unknown] = [stream(), stream(), stream()];
      await harness.store.append(a, [event('A0'), event('A1')], 'no_stream');
      await harness.store.append(b, [event('B0')], 'no_stream');
      await harness.store.append(a, [event('A2')], 1n);
      const streams = await harness.store.readStreams([b, unknown, a]);
      expect([...streams.keys()].sort()).toEqual([a, b, unknown].sort());
      expect(streams.get(a)).toEqual(await harness.store.readStream(a));
      expect(streams.get(a)!.map((e) => [e.type, e.revision])).toEqual([['A0', 0n], ['A1', 1n], ['A2', 2n]]);
      expect(streams.get(b)!.map((e) => e.type)).toEqual(['B0']);
      expect(streams.get(unknown)).toEqual([]);
    });

    it('refuses no_stream on an existing stream and writes nothing', async () => {
      const id = stream();
      await harness.store.append(id, [event('A')], 'no_stream');
      await expect(harness.store.append(id, [event('B')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await harness.store.readStream(id)).map((e) => e.type)).toEqual(['A']);
    });

    it('appends at the expected revision and refuses a stale one, writing nothing', async () => {
      const id = stream();
      await harness.store.append(id, [event('A')], 'no_stream');
      await harness.store.append(id, [event('B')], 0n);
      const stale = harness.store.append(id, [event('C'), event('D')], 0n);
      await expect(stale).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', actual: 1n });
      expect((await harness.store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('refuses an expected revision on a stream that does not exist', async () => {
      const id = stream();
      await expect(harness.store.append(id, [event('A')], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(await harness.store.readStream(id)).toEqual([]);
    });

    it('lets exactly one of two racing appends at the same revision win', async () => {
      const id = stream();
      await harness.store.append(id, [event('A')], 'no_stream');
      const outcomes = await Promise.allSettled([harness.store.append(id, [event('X')], 0n), harness.store.append(id, [event('Y')], 0n)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await harness.store.readStream(id)).toHaveLength(2);
    });

    it('appends to several streams in one call, each at its own expected revision, into the feed in the order given', async () => {
      const start = await harness.head();
      const [a, b, c] = [stream(), stream(), stream()];
      await harness.store.append(b, [event('B0')], 'no_stream');
      const outcomes = await harness.store.appendMany([
        { streamId: a, events: [event('A0'), event('A1')], expected: 'no_stream' },
        { streamId: b, events: [event('B1')], expected: 0n },
        { streamId: c, events: [event('C0')], expected: 'any' },
      ]);
      expect(outcomes.map((o) => (o instanceof WrongExpectedRevisionError ? o : o.revision))).toEqual([1n, 1n, 0n]);
      expect((await harness.store.readStream(a)).map((e) => [e.type, e.revision])).toEqual([['A0', 0n], ['A1', 1n]]);
      expect((await harness.store.readStream(b)).map((e) => e.type)).toEqual(['B0', 'B1']);
      const feed = await readAllFrom(harness.store, start, new Set([a, b, c]), 5);
      expect(feed.map((e) => e.type)).toEqual(['B0', 'A0', 'A1', 'B1', 'C0']);
      expect(comparePositions(feed[2].position, (outcomes[0] as { position: GlobalPosition }).position)).toBe(0);
    });

    it('refuses in a multi-stream append only the streams not at their expected revision, writing the others', async () => {
      const [taken, stale, fresh] = [stream(), stream(), stream()];
      await harness.store.append(taken, [event('T0')], 'no_stream');
      await harness.store.append(stale, [event('S0'), event('S1')], 'no_stream');
      const outcomes = await harness.store.appendMany([
        { streamId: taken, events: [event('T-again')], expected: 'no_stream' },
        { streamId: fresh, events: [event('F0')], expected: 'no_stream' },
        { streamId: stale, events: [event('S-late')], expected: 0n },
      ]);
      expect(outcomes[0]).toMatchObject({ name: 'WrongExpectedRevisionError', streamId: taken, actual: 0n });
      expect(outcomes[1]).toMatchObject({ revision: 0n });
      expect(outcomes[2]).toMatchObject({ name: 'WrongExpectedRevisionError', streamId: stale, actual: 1n });
      expect((await harness.store.readStream(taken)).map((e) => e.type)).toEqual(['T0']);
      expect((await harness.store.readStream(stale)).map((e) => e.type)).toEqual(['S0', 'S1']);
      expect((await harness.store.readStream(fresh)).map((e) => e.type)).toEqual(['F0']);
    });

    it('lets exactly one of a multi-stream append and a single append racing for a new stream create it', async () => {
      const [contested, other] = [stream(), stream()];
      const [many, single] = await Promise.allSettled([
        harness.store.appendMany([
          { streamId: other, events: [event('O0')], expected: 'no_stream' },
          { streamId: contested, events: [event('M0')], expected: 'no_stream' },
        ]),
        harness.store.append(contested, [event('S0')], 'no_stream'),
      ]);
      if (many.status !== 'fulfilled') throw many.reason;
      const manyWon = !(many.value[1] instanceof WrongExpectedRevisionError);
      expect(manyWon).toBe(single.status === 'rejected');
      expect((await harness.store.readStream(contested)).map((e) => e.type)).toEqual([manyWon ? 'M0' : 'S0']);
      expect((await harness.store.readStream(other)).map((e) => e.type)).toEqual(['O0']);
    });

    it('answers a retry of a written append (same event ids) with its result, writing nothing twice', async () => {
      const id = stream();
      const first = [event('A0'), event('A1')];
      const written = await harness.store.append(id, first, 'no_stream');
      await harness.store.append(id, [event('B')], 1n);
      // Retried after the stream moved on (an answer lost, then another writer): still the same result.
      const retried = await harness.store.append(id, first, 'no_stream');
      expect(retried.revision).toBe(written.revision);
      const next = [event('C')];
      await harness.store.append(id, next, 2n);
      expect((await harness.store.append(id, next, 2n)).revision).toBe(3n);
      expect((await harness.store.append(id, next, 'any')).revision).toBe(3n);
      expect((await harness.store.readStream(id)).map((e) => e.type)).toEqual(['A0', 'A1', 'B', 'C']);
    });

    it('refuses an append at a taken revision that repeats only some of the ids written there', async () => {
      const id = stream();
      const [a0, a1] = [event('A0'), event('A1')];
      await harness.store.append(id, [a0, a1], 'no_stream');
      await expect(harness.store.append(id, [a0, event('X')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(harness.store.append(id, [a1], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await harness.store.readStream(id)).map((e) => e.type)).toEqual(['A0', 'A1']);
    });

    it('answers a retried multi-stream append with the results of the streams it wrote, writing the rest once', async () => {
      const [created, extended, anyRevision, refused] = [stream(), stream(), stream(), stream()];
      await harness.store.append(extended, [event('X0')], 'no_stream');
      await harness.store.append(refused, [event('R0')], 'no_stream');
      const appends: StreamAppend[] = [
        { streamId: created, events: [event('C0'), event('C1')], expected: 'no_stream' },
        { streamId: extended, events: [event('X1')], expected: 0n },
        { streamId: anyRevision, events: [event('N0')], expected: 'any' },
        { streamId: refused, events: [event('R-late')], expected: 'no_stream' },
      ];
      const first = await harness.store.appendMany(appends);
      // As after a call that threw part-way: the same appends again, with one not sent before.
      const late = stream();
      const retried = await harness.store.appendMany([...appends, { streamId: late, events: [event('L0')], expected: 'no_stream' }]);
      const revisions = (outcomes: StreamAppendOutcome[]) => outcomes.map((o) => (o instanceof WrongExpectedRevisionError ? 'refused' : o.revision));
      expect(revisions(first)).toEqual([1n, 1n, 0n, 'refused']);
      expect(revisions(retried)).toEqual([1n, 1n, 0n, 'refused', 0n]);
      expect((await harness.store.readStream(created)).map((e) => e.type)).toEqual(['C0', 'C1']);
      expect((await harness.store.readStream(extended)).map((e) => e.type)).toEqual(['X0', 'X1']);
      expect((await harness.store.readStream(anyRevision)).map((e) => e.type)).toEqual(['N0']);
      expect((await harness.store.readStream(refused)).map((e) => e.type)).toEqual(['R0']);
      expect((await harness.store.readStream(late)).map((e) => e.type)).toEqual(['L0']);
    });

    it('refuses a multi-stream append naming a stream twice', async () => {
      const id = stream();
      await expect(harness.store.appendMany([{ streamId: id, events: [event('A')], expected: 'any' }, { streamId: id, events: [event('B')], expected: 'any' }])).rejects.toThrow(/distinct streams/);
      expect(await harness.store.readStream(id)).toEqual([]);
    });

    it('reads the global feed in append order from a position, exclusively', async () => {
      const start = await harness.head();
      const a = stream();
      const b = stream();
      await harness.store.append(a, [event('A1')], 'no_stream');
      await harness.store.append(b, [event('B1'), event('B2')], 'no_stream');
      await harness.store.append(a, [event('A2')], 0n);
      const streams = new Set([a, b]);
      const all = await readAllFrom(harness.store, start, streams, 4);
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
      for (let i = 1; i < all.length; i++) expect(comparePositions(all[i - 1].position, all[i].position)).toBe(-1);
      const rest = await readAllFrom(harness.store, all[1].position, streams, 2);
      expect(rest.map((e) => e.type)).toEqual(['B2', 'A2']);
    });

    it('follows the feed with a subscription, including events appended later', async () => {
      const start = await harness.head();
      const id = stream();
      await harness.store.append(id, [event('E0')], 'no_stream');
      const received: string[] = [];
      let resolveAll!: () => void;
      const allSeen = new Promise<void>((r) => (resolveAll = r));
      const subscription = harness.store.subscribeToAll(start, async (batch) => {
        received.push(...batch.filter((e) => e.streamId === id).map((e) => e.type));
        if (received.length === 3) resolveAll();
      });
      await harness.store.append(id, [event('E1')], 0n);
      await harness.store.append(id, [event('E2')], 1n);
      await allSeen;
      await subscription.stop();
      expect(received).toEqual(['E0', 'E1', 'E2']);
    });

    it('ends a subscription with the error its handler throws', async () => {
      const start = await harness.head();
      await harness.store.append(stream(), [event('Boom')], 'no_stream');
      const subscription = harness.store.subscribeToAll(start, async () => {
        throw new Error('handler failed');
      });
      await expect(subscription.done).rejects.toThrow('handler failed');
    });
  });
}

