import { randomUUID } from 'node:crypto';
import { DomainError } from '@app/contracts';
import type { Decider } from '@app/decider';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { toNewEvents } from './aggregate-stream';
import { CommandRunner, MAX_CONFLICT_RETRIES } from './command-runner';
import { ExpectedRevision, NewEvent, RecordedEvent, StreamAppend } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';

/** A counter: the smallest aggregate whose decisions depend on its state (the next value is the current one plus `by`). */
type CounterCommand = { type: 'Increment'; by: number };
type CounterEvent = { type: 'Incremented'; data: { to: number } };
type Counter = { count: number };

const counterDecider: Decider<CounterCommand, CounterEvent, Counter> = {
  decide(command, state) {
    if (command.by < 0) throw new DomainError('invalid_body', 'by must not be negative');
    return command.by === 0 ? [] : [{ type: 'Incremented', data: { to: state.count + command.by } }];
  },
  evolve: (_state, event) => ({ count: event.data.to }),
  initialState: () => ({ count: 0 }),
};

/**
 * The real PostgreSQL store, where another writer (another replica) can be made to append
 * to the stream between the runner's read and its append, `races` times.
 */
class RacedStore extends PostgresEventStore {
  races = 0;
  appends = 0;
  reads = 0;
  /** The streams of each multi-stream append (group commit), in order. */
  groups: number[] = [];

  override async appendMany(appends: StreamAppend[]) {
    this.groups.push(appends.length);
    return super.appendMany(appends);
  }

  override async append(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    this.appends++;
    if (this.races > 0) {
      this.races--;
      const current = await super.readStream(streamId);
      const count = current.length > 0 ? (current.at(-1)!.data as { to: number }).to : 0;
      await super.append(streamId, toNewEvents([{ type: 'Incremented', data: { to: count + 100 } }], { workspaceId: 'w-1', version: 1, requestId: 'the-winner' }), 'any');
    }
    return super.append(streamId, events, expected);
  }

  /** Streams read, and the reads that asked for them (readStreams: one for several streams). */
  readCalls = 0;

  override async readStream(streamId: string): Promise<RecordedEvent[]> {
    this.reads++;
    this.readCalls++;
    return super.readStream(streamId);
  }

  override async readStreams(streamIds: string[]): Promise<Map<string, RecordedEvent[]>> {
    this.reads += streamIds.length;
    this.readCalls++;
    return super.readStreams(streamIds);
  }
}

describe('CommandRunner (load, decide, append with retry, over the PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: RacedStore;
  let runner: CommandRunner<CounterCommand, CounterEvent, Counter>;
  /** The states each command was built on, in order (a retry builds again). */
  let builtOn: Counter[];

  const increment = (by: number, options: { fresh?: boolean } = {}) => ({
    build: (state: Counter) => {
      builtOn.push(state);
      return { type: 'Increment' as const, by };
    },
    requestId: `req-${by}`,
    ...options,
  });
  const stored = async (id: string) => (await store.readStream(`counter-${id}`)).map((event) => [event.data, event.metadata.requestId]);

  /** A runner of the counter on the shared store; a second one is another replica, knowing nothing of what the first remembers. */
  const counterRunner = () =>
    new CommandRunner({
      store,
      decider: counterDecider,
      streamId: (id) => `counter-${id}`,
      toNewEvents: (events, _state, requestId) => toNewEvents(events, { workspaceId: 'w-1', version: 1, requestId }),
      now: () => new Date('2026-01-01T00:00:00Z'),
      aggregate: 'counter',
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new RacedStore(db.pool, { databaseUrl: db.url });
  });
  afterAll(() => db.drop());
  beforeEach(() => {
    builtOn = [];
    runner = counterRunner();
  });

  it('answers the events it appended and the position of the last one', async () => {
    const id = randomUUID();
    await runner.run(id, increment(1));
    const outcome = await runner.run(id, increment(2));
    expect(outcome.events).toEqual([{ type: 'Incremented', data: { to: 3 } }]);
    expect(outcome.state).toEqual({ count: 3 });
    const last = (await store.readStream(`counter-${id}`)).at(-1)!;
    expect(outcome.position).toBe(`${last.position.commit}:${last.position.prepare}`);
  });

  it('a conflict is decided again on the winner’s events, then appended after them', async () => {
    const id = randomUUID();
    await runner.run(id, increment(1));
    builtOn = [];
    store.races = 1;
    const appendsBefore = store.appends;

    const outcome = await runner.run(id, increment(5));

    expect(builtOn).toEqual([{ count: 1 }, { count: 101 }]);
    expect(outcome.events).toEqual([{ type: 'Incremented', data: { to: 106 } }]);
    expect(store.appends - appendsBefore).toBe(2);
    expect(await stored(id)).toEqual([
      [{ to: 1 }, 'req-1'],
      [{ to: 101 }, 'the-winner'],
      [{ to: 106 }, 'req-5'],
    ]);
  });

  it('a refusal appends nothing, and the commands batched with it are appended without it', async () => {
    const id = randomUUID();
    await expect(runner.run(id, increment(-1))).rejects.toMatchObject({ code: 'invalid_body' });
    expect(await stored(id)).toEqual([]);

    const appendsBefore = store.appends;
    // Sent in the same turn, the three are decided together, in one batch: the refusal between its neighbours.
    const [first, refused, second] = await Promise.allSettled([runner.run(id, increment(1)), runner.run(id, increment(-1)), runner.run(id, increment(2))]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'invalid_body' } });
    expect(first).toMatchObject({ status: 'fulfilled', value: { events: [{ data: { to: 1 } }] } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { events: [{ data: { to: 3 } }], state: { count: 3 } } });
    expect(store.appends - appendsBefore).toBe(1);
    expect(await stored(id)).toEqual([
      [{ to: 1 }, 'req-1'],
      [{ to: 3 }, 'req-2'],
    ]);
  });

  it('a command that decides nothing appends nothing and answers the stream’s current position', async () => {
    const id = randomUUID();
    const { position } = await runner.run(id, increment(4));
    const appendsBefore = store.appends;
    await expect(runner.run(id, increment(0))).resolves.toEqual({ state: { count: 4 }, events: [], position });
    expect(store.appends).toBe(appendsBefore);
  });

  it('commands on one stream that arrive in the same turn are decided in order on the evolving state and appended in one go', async () => {
    const id = randomUUID();
    const appendsBefore = store.appends;
    // The starts of one publication, delivered in one socket read: one batch, one append.
    const outcomes = await Promise.all([1, 2, 3, 4].map((by) => runner.run(id, increment(by))));
    expect(outcomes.map((outcome) => outcome.events[0].data.to)).toEqual([1, 3, 6, 10]);
    expect(store.appends - appendsBefore).toBe(1);
    expect(outcomes.map((outcome) => outcome.position)).toEqual([outcomes[3].position, outcomes[3].position, outcomes[3].position, outcomes[3].position]);
    expect(outcomes[1].state).toEqual({ count: 10 });
  });

  it('commands on one stream that arrive while one runs are decided in order on the evolving state and appended together after it', async () => {
    const id = randomUUID();
    const appendsBefore = store.appends;
    const first = runner.run(id, increment(1));
    // A later turn: the first batch is already reading or appending.
    await new Promise((resolve) => setImmediate(resolve));
    const outcomes = await Promise.all([first, ...[2, 3, 4].map((by) => runner.run(id, increment(by)))]);
    expect(outcomes.map((outcome) => outcome.events[0].data.to)).toEqual([1, 3, 6, 10]);
    // The first alone, the three queued behind it together: no command raced another of this process.
    expect(store.appends - appendsBefore).toBe(2);
    expect(outcomes.map((outcome) => outcome.position)).toEqual([outcomes[0].position, outcomes[3].position, outcomes[3].position, outcomes[3].position]);
    expect(outcomes[1].state).toEqual({ count: 10 });
  });

  it('a fresh id is not read on the first try', async () => {
    const id = randomUUID();
    const readsBefore = store.reads;
    await runner.run(id, increment(1, { fresh: true }));
    expect(store.reads).toBe(readsBefore);
    expect(await stored(id)).toEqual([[{ to: 1 }, 'req-1']]);
  });

  it('the streams the commands of one moment must read are read in one go', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    // Each stream exists, and is not in this runner's memory (another process wrote it).
    for (const id of ids) await counterRunner().run(id, increment(1));
    const [readsBefore, callsBefore] = [store.reads, store.readCalls];
    const outcomes = await Promise.all(ids.map((id) => runner.run(id, increment(2))));
    expect(outcomes.map((outcome) => outcome.state)).toEqual([{ count: 3 }, { count: 3 }, { count: 3 }]);
    expect(store.reads - readsBefore).toBe(3);
    expect(store.readCalls - callsBefore).toBe(1);
  });

  describe('the state kept between commands', () => {
    it('a stream this runner just wrote is not read again for the next command', async () => {
      const id = randomUUID();
      await runner.run(id, increment(1));
      const readsBefore = store.reads;
      const outcome = await runner.run(id, increment(2));
      expect(store.reads).toBe(readsBefore);
      expect(outcome.state).toEqual({ count: 3 });
      expect(await stored(id)).toEqual([
        [{ to: 1 }, 'req-1'],
        [{ to: 3 }, 'req-2'],
      ]);
    });

    it('after another process appended, the remembered revision is refused and the command is decided on what it wrote', async () => {
      const id = randomUUID();
      await runner.run(id, increment(1));
      await counterRunner().run(id, increment(10));
      builtOn = [];

      const outcome = await runner.run(id, increment(5));

      expect(builtOn).toEqual([{ count: 1 }, { count: 11 }]);
      expect(outcome.events).toEqual([{ type: 'Incremented', data: { to: 16 } }]);
      const last = (await store.readStream(`counter-${id}`)).at(-1)!;
      expect(outcome.position).toBe(`${last.position.commit}:${last.position.prepare}`);
      expect(await stored(id)).toEqual([
        [{ to: 1 }, 'req-1'],
        [{ to: 11 }, 'req-10'],
        [{ to: 16 }, 'req-5'],
      ]);
      // The stale entry is gone: the next command appends after the stream as it is, without a conflict.
      const appendsBefore = store.appends;
      await runner.run(id, increment(1));
      expect(store.appends - appendsBefore).toBe(1);
    });

    it('a refusal or a command that decides nothing answers the stream as it is, not as this runner remembers it', async () => {
      const id = randomUUID();
      await runner.run(id, increment(1));
      const { position } = await counterRunner().run(id, increment(10));

      await expect(runner.run(id, increment(0))).resolves.toEqual({ state: { count: 11 }, events: [], position });
      await expect(runner.run(id, increment(-1))).rejects.toMatchObject({ code: 'invalid_body' });
      expect(await stored(id)).toEqual([
        [{ to: 1 }, 'req-1'],
        [{ to: 11 }, 'req-10'],
      ]);
    });
  });

  it('once the retry bound is reached the caller gets service_unavailable and nothing of its own is appended', async () => {
    const id = randomUUID();
    store.races = MAX_CONFLICT_RETRIES + 1;
    const appendsBefore = store.appends;

    await expect(runner.run(id, increment(1))).rejects.toEqual(new DomainError('service_unavailable', 'the counter is changing too fast; retry'));

    expect(store.races).toBe(0);
    expect(store.appends - appendsBefore).toBe(MAX_CONFLICT_RETRIES + 1);
    expect(builtOn).toHaveLength(MAX_CONFLICT_RETRIES + 1);
    const events = await stored(id);
    expect(events).toHaveLength(MAX_CONFLICT_RETRIES + 1);
    expect(events.every(([, requestId]) => requestId === 'the-winner')).toBe(true);
  });

  describe('group commit: the batches of different streams ready together', () => {
    it('are appended in one statement, each stream checked on its own', async () => {
      const ids = Array.from({ length: 20 }, () => randomUUID());
      store.groups = [];
      const outcomes = await Promise.all(ids.map((id, i) => runner.run(id, increment(i + 1, { fresh: true }))));
      expect(store.groups).toEqual([20]);
      expect(outcomes.map((outcome) => outcome.events[0].data.to)).toEqual(ids.map((_, i) => i + 1));
      // Each its own position: the global feed has them in the order given.
      expect(new Set(outcomes.map((outcome) => outcome.position)).size).toBe(20);
      for (const [i, id] of ids.entries()) expect(await stored(id)).toEqual([[{ to: i + 1 }, `req-${i + 1}`]]);
    });

    it('a stream refused in the statement is decided again on what the other process wrote, and its neighbours are not failed by it', async () => {
      const raced = randomUUID();
      await runner.run(raced, increment(1));
      await counterRunner().run(raced, increment(10)); // another replica: this runner's remembered revision is stale
      const neighbours = Array.from({ length: 5 }, () => randomUUID());
      store.groups = [];
      const [racedOutcome, ...neighbourOutcomes] = await Promise.all([runner.run(raced, increment(5)), ...neighbours.map((id) => runner.run(id, increment(2, { fresh: true })))]);
      expect(store.groups[0]).toBe(6);
      expect(racedOutcome.events).toEqual([{ type: 'Incremented', data: { to: 16 } }]);
      expect(neighbourOutcomes.every((outcome) => outcome.events[0].data.to === 2)).toBe(true);
      expect(await stored(raced)).toEqual([
        [{ to: 1 }, 'req-1'],
        [{ to: 11 }, 'req-10'],
        [{ to: 16 }, 'req-5'],
      ]);
      for (const id of neighbours) expect(await stored(id)).toEqual([[{ to: 2 }, 'req-2']]);
    });

    it('a statement that fails as a whole is tried again for each stream alone: one bad event fails only its own command', async () => {
      // PostgreSQL's jsonb refuses \u0000 in a string: the statement carrying this event fails and writes nothing.
      const poisonRunner = new CommandRunner({
        store,
        decider: counterDecider,
        streamId: (id) => `counter-${id}`,
        toNewEvents: (events, state, requestId) =>
          toNewEvents(events, { workspaceId: 'w-1', version: 1, requestId }).map((event) => (state.count === 13 ? { ...event, data: { to: 13, note: 'bad \u0000' } } : event)),
        now: () => new Date('2026-01-01T00:00:00Z'),
        aggregate: 'counter',
      });
      const poisoned = randomUUID();
      const neighbours = Array.from({ length: 3 }, () => randomUUID());
      const [poisonOutcome, ...neighbourOutcomes] = await Promise.allSettled([
        poisonRunner.run(poisoned, increment(13, { fresh: true })),
        ...neighbours.map((id) => poisonRunner.run(id, increment(3, { fresh: true }))),
      ]);
      expect(poisonOutcome.status).toBe('rejected');
      expect(neighbourOutcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(await stored(poisoned)).toEqual([]);
      for (const id of neighbours) expect(await stored(id)).toEqual([[{ to: 3 }, 'req-3']]);
    });
  });
});
