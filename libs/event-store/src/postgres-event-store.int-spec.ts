import { randomUUID } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { describeEventStoreContract } from './event-store.contract';
import { PostgresEventStore } from './postgres-event-store';
import { comparePositions, START } from '@app/contracts';
import { eventsAppended } from '@app/observability';
import { NewEvent, RecordedEvent } from './event-store.port';

let db: TestDatabase;
let store: PostgresEventStore;

describeEventStoreContract(
  'PostgreSQL',
  async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url, pollIntervalMs: 50 });
    return {
      store,
      async head() {
        const { rows } = await db.pool.query<{ t: string | null; g: string | null }>(
          'SELECT max(transaction_id::text::bigint)::text AS t, max(global_position)::text AS g FROM events',
        );
        return rows[0].t === null ? START : { commit: BigInt(rows[0].t), prepare: BigInt(rows[0].g!) };
      },
    };
  },
  async () => db.drop(),
);

describe('PostgreSQL event store under concurrent writers', () => {
  let concurrentDb: TestDatabase;
  beforeAll(async () => {
    concurrentDb = await createTestDatabase();
  });
  afterAll(() => concurrentDb.drop());

  it('a follower sees every event exactly once, in a stable order, even when transactions commit out of sequence order', async () => {
    const writerStore = new PostgresEventStore(concurrentDb.pool, { databaseUrl: concurrentDb.url, pollIntervalMs: 20 });
    const writers = 16;
    const appendsPerWriter = 25;
    const seen: RecordedEvent[] = [];
    const total = writers * appendsPerWriter * 2;
    let resolveAll!: () => void;
    const allSeen = new Promise<void>((r) => (resolveAll = r));
    const subscription = writerStore.subscribeToAll(
      START,
      async (batch) => {
        seen.push(...batch);
        if (seen.length >= total) resolveAll();
      },
      { batchSize: 37 },
    );

    // A transaction that takes a sequence value early and commits late: the
    // classic gap a position-only reader skips for good.
    const slow = await concurrentDb.pool.connect();
    await slow.query('BEGIN');
    await slow.query(
      `INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata) VALUES ($1, 'late-1', 0, 'Late', '{}', '{"workspaceId":"w","version":1}')`,
      [randomUUID()],
    );

    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < appendsPerWriter; i++) {
          const streamId = `writer-${w}-${i}`;
          await writerStore.append(
            streamId,
            [0, 1].map((n) => ({ eventId: randomUUID(), type: `E${n}`, data: { w, i, n }, metadata: { workspaceId: 'w', version: 1 } })),
            'no_stream',
          );
        }
      }),
    );
    await slow.query('COMMIT');
    slow.release();
    await Promise.race([allSeen, new Promise((_, reject) => setTimeout(() => reject(new Error(`saw ${seen.length}`)), 20_000))]);
    // Let any duplicate delivery surface before judging.
    await new Promise((r) => setTimeout(r, 200));
    await subscription.stop();

    const expectedTotal = total + 1;
    expect(seen).toHaveLength(expectedTotal);
    expect(new Set(seen.map((e) => e.eventId)).size).toBe(expectedTotal);
    expect(seen.some((e) => e.type === 'Late')).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1].position, seen[i].position)).toBe(-1);

    // The order is stable: a fresh read from the start gives the same sequence.
    const reread: string[] = [];
    let position = START;
    for (;;) {
      const batch = await writerStore.readAll(position, 200);
      if (batch.length === 0) break;
      reread.push(...batch.map((e) => e.eventId));
      position = batch[batch.length - 1].position;
    }
    expect(reread).toEqual(seen.map((e) => e.eventId));
  });
});

describe('PostgreSQL event store feed order', () => {
  let orderDb: TestDatabase;
  beforeAll(async () => {
    orderDb = await createTestDatabase();
  });
  afterAll(() => orderDb.drop());

  it('reads transactions in xid8 order where their ids gain a digit (9 before 10), skipping none', async () => {
    const orderStore = new PostgresEventStore(orderDb.pool, { databaseUrl: orderDb.url });
    // Written directly with the ids a long-running cluster gives: the later transaction's row has the smaller position.
    for (const [streamId, transactionId] of [['tx-ten', '10'], ['tx-nine', '9']]) {
      await orderDb.pool.query(
        `INSERT INTO events (event_id, stream_id, stream_position, type, data, metadata, transaction_id)
         VALUES ($1, $2, 0, 'E', '{}', '{"workspaceId":"w","version":1}', $3::text::xid8)`,
        [randomUUID(), streamId, transactionId],
      );
    }
    const first = await orderStore.readAll(START, 1);
    expect(first.map((e) => [e.streamId, e.position.commit])).toEqual([['tx-nine', 9n]]);
    const rest = await orderStore.readAll(first[0].position, 10);
    expect(rest.map((e) => [e.streamId, e.position.commit])).toEqual([['tx-ten', 10n]]);
  });
});

describe('PostgreSQL event store event ids', () => {
  let idsDb: TestDatabase;
  beforeAll(async () => {
    idsDb = await createTestDatabase();
  });
  afterAll(() => idsDb.drop());

  const event = (eventId: string = randomUUID()): NewEvent => ({ eventId, type: 'E', data: {}, metadata: { workspaceId: 'w-1', version: 1 } });

  it('throws on an event id stored in another stream (unique ids; not a retry), writing nothing', async () => {
    const store = new PostgresEventStore(idsDb.pool, { databaseUrl: idsDb.url });
    const used = event();
    await store.append('ids-first', [used], 'no_stream');
    await expect(store.append('ids-second', [event(), event(used.eventId)], 'no_stream')).rejects.toThrow(/ids-second: an event id is already stored, and not as a retry/);
    await expect(store.append('ids-third', [event(used.eventId)], 'any')).rejects.toThrow(/an event id is already stored/);
    await expect(
      store.appendMany([
        { streamId: 'ids-fourth', events: [event()], expected: 'no_stream' },
        { streamId: 'ids-fifth', events: [event(used.eventId)], expected: 'any' },
      ]),
    ).rejects.toThrow(/ids-fourth, ids-fifth: an event id is already stored/);
    for (const streamId of ['ids-second', 'ids-third', 'ids-fourth', 'ids-fifth']) expect(await store.readStream(streamId)).toEqual([]);
  });

  it('recognises a retry whose ids are in upper case', async () => {
    const store = new PostgresEventStore(idsDb.pool, { databaseUrl: idsDb.url });
    const written = event();
    await store.append('ids-upper', [written], 'no_stream');
    expect((await store.append('ids-upper', [event(written.eventId.toUpperCase())], 'no_stream')).revision).toBe(0n);
    expect(await store.readStream('ids-upper')).toHaveLength(1);
  });

  it('counts (events_appended_total) every event a multi-stream append writes, and not a retry that finds them stored', async () => {
    const store = new PostgresEventStore(idsDb.pool, { databaseUrl: idsDb.url });
    // A type of this test's own: the counter is the process's, shared with every other test of the file.
    const type = `Counted${randomUUID().slice(0, 8)}`;
    const counted = async () => (await eventsAppended.get()).values.find((value) => value.labels.type === type)?.value ?? 0;
    const typed = (): NewEvent => ({ ...event(), type });
    const appends = [
      { streamId: `ids-${randomUUID()}`, events: [typed(), typed()], expected: 'no_stream' as const },
      { streamId: `ids-${randomUUID()}`, events: [typed()], expected: 'no_stream' as const },
    ];
    await store.appendMany(appends);
    expect(await counted()).toBe(3);
    await store.appendMany(appends);
    expect(await counted()).toBe(3);
    await store.append(`ids-${randomUUID()}`, [typed()], 'no_stream');
    expect(await counted()).toBe(4);
  });
});
