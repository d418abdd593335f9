import { createTestDatabase, TestDatabase } from '@app/testing';
import { notifyProjectionAdvanced, ProjectionWaiter } from './projection-waiter';

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
});
