import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { RebuildSession } from './rebuild-session';

/** Taking the live follower's leadership, on the real server: its leader is ended, another rebuild never is. */
describe('RebuildSession.takeLeadership', () => {
  const FOLLOWER = 'read-models';
  let db: TestDatabase;
  const sessions: RebuildSession[] = [];
  const open = async (projection: string) => {
    const session = await RebuildSession.open(db.url, projection);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  afterAll(() => db?.drop());

  it('ends the live leader holding the lock', async () => {
    const leader = new Client({ connectionString: db.url });
    leader.on('error', () => undefined);
    await leader.connect();
    const ended = new Promise<void>((resolve) => leader.on('end', () => resolve()));
    await leader.query('SELECT pg_advisory_lock(hashtext($1))', [`feed:${FOLLOWER}`]);

    expect(await (await open('first_views')).takeLeadership(FOLLOWER)).toBe(1);
    await ended;
  });

  it('waits for a rebuild of another model holding it, and never ends its session', async () => {
    const first = await open('first_views');
    const second = await open('second_views');
    expect(await first.takeLeadership(FOLLOWER)).toBe(0);

    const taking = second.takeLeadership(FOLLOWER, 20);
    const outcome = await Promise.race([taking.then(() => 'taken'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);

    expect(outcome).toBe('waiting');
    // Still alive and still the holder: taking the lock again from its own session succeeds at once.
    expect(await first.takeLeadership(FOLLOWER)).toBe(0);
    await first.close();
    expect(await taking).toBe(0);
  });
});
