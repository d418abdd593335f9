import { createTestDatabase, TestDatabase } from '@app/testing';
import { notifyProjectionAdvanced, notifyProjectionAdvancedWith, ProjectionWaiter } from './projection-waiter';

/** The read-your-writes wait of publishNow answers: woken by the projector's notifications on the real server. */
describe('ProjectionWaiter.waitUntil', () => {
  const PROJECTION = 'post_views';
  let db: TestDatabase;
  let waiter: ProjectionWaiter;

  const advanceTo = async (position: string) => {
    const client = await db.pool.connect();
    try {
      await notifyProjectionAdvanced(client, PROJECTION, position);
    } finally {
      client.release();
    }
    // Resolves once the waiter has handled the notification, so its watchers have been called.
    expect(await waiter.waitFor(position, 5_000)).toBe(true);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // A fallback re-check far beyond the test: only notifications can end the wait below.
    waiter = new ProjectionWaiter(db.pool, db.url, PROJECTION, 60_000);
    await waiter.start();
  });
  afterAll(async () => {
    await waiter.stop();
    await db.drop();
  });

  it('checks again after an advance that came while a check was running, instead of dropping it', async () => {
    let checks = 0;
    let secondStarted!: () => void;
    const secondRunning = new Promise<void>((started) => (secondStarted = started));
    let releaseSecond!: () => void;
    const gate = new Promise<void>((release) => (releaseSecond = release));
    // Check 1: before waiting. 2: on the first advance, held until a second advance has come. 3: after it; it holds.
    const waited = waiter.waitUntil(async () => {
      checks++;
      if (checks === 2) {
        secondStarted();
        await gate;
      }
      return checks >= 3;
    }, 5_000);

    await advanceTo('100:1');
    await secondRunning;
    await advanceTo('101:1');
    releaseSecond();

    expect(await waited).toBe(true);
    expect(checks).toBe(3);
  });

  /** An advance that lists the views its batch changed (as the projector's post_views announces). */
  const advanceListing = async (position: string, views: string[]) => {
    const { channel, payload } = notifyProjectionAdvancedWith(PROJECTION, position, new Set(views));
    await db.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    expect(await waiter.waitFor(position, 5_000)).toBe(true);
  };

  it('with a viewId, checks again only after advances that may have changed that view', async () => {
    let checks = 0;
    let holds = false;
    const readAt = waiter.mark();
    // The caller has just checked (readAt): no check until an advance concerns the post.
    const waited = waiter.waitUntil(async () => (checks++, holds), 5_000, { viewId: 'post-a', checkedAt: readAt });
    await advanceListing('110:1', ['post-b', 'post-c']);
    await advanceListing('111:1', []);
    expect(checks).toBe(0);
    holds = true;
    await advanceListing('112:1', ['post-c', 'post-a']);
    expect(await waited).toBe(true);
    expect(checks).toBe(1);
  });

  it('with a viewId, an advance that lists no views (any may have changed) still wakes it', async () => {
    let checks = 0;
    const waited = waiter.waitUntil(async () => ++checks === 2, 5_000, { viewId: 'post-a' });
    await advanceTo('120:1');
    expect(await waited).toBe(true);
    expect(checks).toBe(2);
  });

  it('checks at once when the projection advanced between the caller read and the wait (checkedAt behind)', async () => {
    const readAt = waiter.mark();
    await advanceListing('130:1', ['post-a']);
    let checks = 0;
    expect(await waiter.waitUntil(async () => ++checks === 1, 5_000, { viewId: 'post-a', checkedAt: readAt })).toBe(true);
    expect(checks).toBe(1);
  });
});

describe('ProjectionWaiter.waitFor', () => {
  const PROJECTION = 'post_views';
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  /** A waiter whose pool counts the checkpoint polls it sends. */
  const countingWaiter = (polls: { count: number }) => {
    const pool = Object.create(db.pool) as typeof db.pool;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (String(args[0]).includes('FROM checkpoints')) polls.count++;
      return (db.pool.query as (...a: unknown[]) => unknown).apply(db.pool, args);
    };
    return new ProjectionWaiter(pool, db.url, PROJECTION, 20);
  };

  it('is woken by the position the projector notifies, without polling while it listens', async () => {
    const polls = { count: 0 };
    const waiter = countingWaiter(polls);
    await waiter.start();
    try {
      const pollsAtStart = polls.count;
      const waited = waiter.waitFor('200:1', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 300)); // fifteen poll intervals
      const client = await db.pool.connect();
      await notifyProjectionAdvanced(client, PROJECTION, '200:1').finally(() => client.release());
      expect(await waited).toBe(true);
      expect(polls.count).toBe(pollsAtStart);
    } finally {
      await waiter.stop();
    }
  });

  it('polls the checkpoint while its listening connection is down, so waiters still move', async () => {
    const polls = { count: 0 };
    const waiter = countingWaiter(polls);
    await waiter.start();
    try {
      await db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200)); // the listener's connection error arrives
      const waited = waiter.waitFor('300:1', 5_000);
      await db.pool.query(`INSERT INTO checkpoints (name, position) VALUES ($1, '300:1') ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`, [PROJECTION]);
      expect(await waited).toBe(true);
      expect(polls.count).toBeGreaterThan(0);
    } finally {
      await waiter.stop();
    }
  });
});
