import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { AppendBatcher } from './append-batcher';
import { NewEvent, StreamAppend, WrongExpectedRevisionError } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';

const event = (type: string): NewEvent => ({ eventId: randomUUID(), type, data: {}, metadata: { workspaceId: 'w-1', version: 1 } });

describe('AppendBatcher (group commit over the PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  /** The multi-stream appends the batcher sent, by number of streams. */
  let statements: number[];
  let batcher: AppendBatcher;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
  });
  afterAll(() => db.drop());
  beforeEach(() => {
    statements = [];
    const counting = { appendMany: (appends: StreamAppend[]) => (statements.push(appends.length), store.appendMany(appends)) };
    batcher = new AppendBatcher(counting, 50);
  });

  it('writes appends asked for together in one statement and gives each caller its own stream’s outcome', async () => {
    const streams = Array.from({ length: 30 }, () => `batch-${randomUUID()}`);
    const outcomes = await Promise.all(streams.map((streamId) => batcher.append({ streamId, events: [event('A'), event('B')], expected: 'no_stream' })));
    expect(statements).toEqual([30]);
    expect(outcomes.map((o) => (o instanceof WrongExpectedRevisionError ? 'refused' : o.revision))).toEqual(streams.map(() => 1n));
    for (const streamId of streams) expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('gathers appends that arrive while a statement is in flight into the next one, up to its limit', async () => {
    const first = batcher.append({ streamId: `lone-${randomUUID()}`, events: [event('A')], expected: 'no_stream' });
    // Asked for on later ticks, while the first statement runs.
    await new Promise((resolve) => setImmediate(resolve));
    const later = await Promise.all([
      first,
      ...Array.from({ length: 120 }, () => batcher.append({ streamId: `later-${randomUUID()}`, events: [event('A')], expected: 'no_stream' })),
    ]);
    expect(later.every((o) => !(o instanceof WrongExpectedRevisionError))).toBe(true);
    expect(statements).toEqual([1, 50, 50, 20]);
  });

  it('sends one stream asked for twice in two statements: the second is refused on what the first wrote', async () => {
    const streamId = `twice-${randomUUID()}`;
    const other = `other-${randomUUID()}`;
    const [firstOutcome, otherOutcome, secondOutcome] = await Promise.all([
      batcher.append({ streamId, events: [event('First')], expected: 'no_stream' }),
      batcher.append({ streamId: other, events: [event('Other')], expected: 'no_stream' }),
      batcher.append({ streamId, events: [event('Second')], expected: 'no_stream' }),
    ]);
    expect(statements).toEqual([2, 1]);
    expect(firstOutcome).toMatchObject({ revision: 0n });
    expect(otherOutcome).toMatchObject({ revision: 0n });
    expect(secondOutcome).toMatchObject({ name: 'WrongExpectedRevisionError', streamId, actual: 0n });
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['First']);
  });

  it('rejects every caller of a statement that fails, and goes on with the next', async () => {
    const failing = new AppendBatcher({
      appendMany: (appends) => (appends.some((a) => a.streamId === 'poison') ? Promise.reject(new Error('database gone')) : store.appendMany(appends)),
    });
    const [poisoned, neighbour] = await Promise.allSettled([
      failing.append({ streamId: 'poison', events: [event('A')], expected: 'no_stream' }),
      failing.append({ streamId: `neighbour-${randomUUID()}`, events: [event('A')], expected: 'no_stream' }),
    ]);
    expect(poisoned).toMatchObject({ status: 'rejected', reason: { message: 'database gone' } });
    expect(neighbour).toMatchObject({ status: 'rejected', reason: { message: 'database gone' } });
    const afterwards = await failing.append({ streamId: `after-${randomUUID()}`, events: [event('A')], expected: 'no_stream' });
    expect(afterwards).toMatchObject({ revision: 0n });
  });
});
