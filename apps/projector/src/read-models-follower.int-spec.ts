import { randomUUID } from 'node:crypto';
import { PoolClient } from 'pg';
import { CheckpointStore, formatPosition, GlobalPosition, PostgresEventStore, RecordedEvent, START } from '@app/event-store';
import { ProjectionWaiter } from '@app/read-models';
import { createTestDatabase, sqlOf, TestDatabase, until } from '@app/testing';
import { ReadModel } from './read-model';
import { ReadModelsFollower } from './read-models-follower';

/**
 * One follower of the feed for every read model, on the real server: each batch is read once for
 * all, each model gets exactly the events after its own checkpoint, and a batch commits for all the
 * models or for none.
 */
describe('ReadModelsFollower', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let checkpoints: CheckpointStore;
  let follower: ReadModelsFollower | null = null;
  /** Names of the models whose project() throws (a model's failure in the middle of a batch). */
  const failing = new Set<string>();
  const failures: string[] = [];

  /** A model that writes one row per event it is given (no unique key: an event applied twice shows as two rows). */
  const model = (name: string): ReadModel => ({
    name,
    tables: { applied: 'follower_applied' },
    view: { role: 'applied', streamPrefix: 'thing-' },
    async project(client: PoolClient, events: RecordedEvent[], tables) {
      await client.query(`INSERT INTO ${tables.applied} (model, event_id) SELECT $1, unnest($2::text[])`, [name, events.map((e) => e.eventId)]);
      if (failing.has(name)) {
        failures.push(name);
        throw new Error(`${name} refuses the batch`);
      }
    },
  });
  const [first, second, third] = [model('first_views'), model('second_views'), model('third_views')];
  const models = [first, second, third];

  const lastPosition = async (): Promise<GlobalPosition> => {
    const all = await store.readAll(START, 10_000);
    return all.length ? all[all.length - 1].position : START;
  };
  /** Appends `count` events, one stream each, and answers them as the feed gives them. */
  const append = async (count: number): Promise<RecordedEvent[]> => {
    const from = await lastPosition();
    for (let i = 0; i < count; i++) {
      await store.append(`thing-${randomUUID()}`, [{ eventId: randomUUID(), type: 'ThingHappened', data: { i }, metadata: { workspaceId: 'w-1', version: 1 } }], 'no_stream');
    }
    // The feed shows an append once no older transaction is running (the append's own wake-up may still be): wait for all of them.
    let visible: RecordedEvent[] = [];
    await until(async () => (visible = await store.readAll(from, count)).length === count);
    return visible;
  };
  const applied = async (name: string): Promise<string[]> =>
    (await db.pool.query<{ event_id: string }>('SELECT event_id FROM follower_applied WHERE model = $1 ORDER BY id', [name])).rows.map((r) => r.event_id);
  const checkpointOf = async (name: string) => formatPosition(await checkpoints.load(name));
  const start = (batchSize: number) => {
    follower = new ReadModelsFollower({ pool: db.pool, store, databaseUrl: db.url, models, batchSize, retryDelayMs: 50 });
    follower.start();
  };
  const allAt = (position: GlobalPosition) => until(async () => (await Promise.all(models.map((m) => checkpointOf(m.name)))).every((p) => p === formatPosition(position)));

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    checkpoints = new CheckpointStore(db.pool);
    await db.pool.query('CREATE TABLE follower_applied (id bigserial PRIMARY KEY, model text NOT NULL, event_id text NOT NULL)');
  });
  afterEach(async () => {
    await follower?.stop();
    follower = null;
    jest.restoreAllMocks();
  });
  afterAll(() => db?.drop());

  it('reads each batch once for all the models, and gives each exactly the events after its own checkpoint', async () => {
    const events = await append(10);
    // The second was rebuilt up to the third event, the third up to the seventh; the first never ran.
    await checkpoints.save(second.name, events[2].position);
    await checkpoints.save(third.name, events[6].position);
    const reads = jest.spyOn(store, 'readAll');
    const waiter = new ProjectionWaiter(db.pool, db.url, third.name, 60_000);
    await waiter.start();
    try {
      const last = formatPosition(events[9].position);
      const announced = waiter.waitFor(last, 10_000);

      start(4);
      await allAt(events[9].position);

      // The waiters in the gateway are told each model's progress, in the format they read.
      expect(await announced).toBe(true);
      const ids = events.map((e) => e.eventId);
      expect(await applied(first.name)).toEqual(ids);
      expect(await applied(second.name)).toEqual(ids.slice(3));
      expect(await applied(third.name)).toEqual(ids.slice(7));
      // From the lowest checkpoint, in batches of 4: three reads that found events, for the three models together.
      const batches = await Promise.all(reads.mock.results.map((r) => r.value as Promise<RecordedEvent[]>));
      expect(reads.mock.calls[0][0]).toEqual(START);
      expect(batches.filter((batch) => batch.length > 0).map((batch) => batch.length)).toEqual([4, 4, 2]);
    } finally {
      await waiter.stop();
    }
  });

  it('commits a batch for every model or for none: one model failing rolls back the others, and nothing is skipped after a restart', async () => {
    const before = await lastPosition();
    const counts = await Promise.all(models.map(async (m) => (await applied(m.name)).length));
    failing.add(second.name);
    const events = await append(5);
    start(3);
    // Retried after each failure (a new leadership, from the checkpoints): still all or nothing.
    await until(() => failures.length >= 2);
    await follower!.stop();
    follower = null;
    for (const [i, m] of models.entries()) {
      expect(await applied(m.name)).toHaveLength(counts[i]);
      expect(await checkpointOf(m.name)).toBe(formatPosition(before));
    }

    failing.clear();
    start(3);
    await allAt(events[4].position);
    for (const [i, m] of models.entries()) {
      const rows = await applied(m.name);
      expect(rows.slice(counts[i])).toEqual(events.map((e) => e.eventId));
    }
  });

  it('writes a batch every model can write as one statement, with the checkpoints: no transaction, and all or nothing', async () => {
    /** A model that gives its writes for one statement; `broken` makes its write fail in the database. */
    let broken = false;
    const oneStatementModel: ReadModel = {
      ...model('one_statement_views'),
      writesOf: async (_pool, events, tables) => [
        { text: `INSERT INTO ${tables.applied} (model, event_id) SELECT $1, unnest($2::text[])`, values: [broken ? null : 'one_statement_views', events.map((e) => e.eventId)] },
      ],
    };
    // The other models have no use for these events: they send nothing, so they do not hold the batch back.
    const passing = (name: string): ReadModel => ({ ...model(name), project: async () => undefined });
    const all = [oneStatementModel, passing('passing_views')];
    const last = await lastPosition();
    await checkpoints.saveAll(all.map((m) => ({ name: m.name, position: last })));
    const statements = jest.spyOn(db.pool, 'query');
    const run = () => {
      follower = new ReadModelsFollower({ pool: db.pool, store, databaseUrl: db.url, models: all, batchSize: 10, retryDelayMs: 50 });
      follower.start();
    };

    broken = true;
    const refused = await append(3);
    run();
    await until(() => statements.mock.calls.some((call) => sqlOf(call).text.includes('write_0')));
    await follower!.stop();
    follower = null;
    // The failed statement wrote nothing: no row, no checkpoint moved.
    expect(await applied(oneStatementModel.name)).toEqual([]);
    expect(await checkpointOf(oneStatementModel.name)).toBe(formatPosition(last));

    broken = false;
    statements.mockClear();
    const events = [...refused, ...(await append(2))];
    run();
    await until(async () => (await checkpointOf(oneStatementModel.name)) === formatPosition(events[4].position));
    expect(await applied(oneStatementModel.name)).toEqual(events.map((e) => e.eventId));
    expect(await checkpointOf('passing_views')).toBe(formatPosition(events[4].position));
    const sent = statements.mock.calls.map((call) => sqlOf(call).text);
    expect(sent.filter((text) => /^\s*(BEGIN|COMMIT)/i.test(text))).toEqual([]);
    expect(sent.filter((text) => text.includes('write_0'))).toHaveLength(1);
  });
});
