import { runner } from 'node-pg-migrate';
import { migrate, migrationsDir } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { WEBHOOKS_FEED } from './webhook-feed';

/** The migration that starts the webhooks feed follower where the relay stands. */
const FEED_CHECKPOINT_MIGRATION = 1700000002000;

const migrateDownTo = (url: string) =>
  runner({ databaseUrl: url, dir: migrationsDir(), direction: 'down', count: FEED_CHECKPOINT_MIGRATION, timestamp: true, migrationsTable: 'pgmigrations', log: () => undefined });

/**
 * A deployment from before the webhooks service followed the feed: its events were
 * passed over by a JetStream consumer long ago. Migrated, the follower starts where
 * the relay stands, never at the beginning (which would send today's endpoints
 * every event stored before they existed).
 */
describe('migration 1700000002000: the webhooks feed starts where the relay stands', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  const checkpoints = async () => (await db.pool.query('SELECT name, position FROM checkpoints ORDER BY name')).rows;

  it('copies the relay checkpoint to the webhooks feed, and leaves a fresh database to start at the beginning', async () => {
    await migrateDownTo(db.url);
    await migrate(db.url);
    expect(await checkpoints()).toEqual([]);

    await migrateDownTo(db.url);
    await db.pool.query(`INSERT INTO checkpoints (name, position) VALUES ('relay:jetstream', '1234:5678')`);
    await migrate(db.url);
    expect(await checkpoints()).toEqual([
      { name: 'relay:jetstream', position: '1234:5678' },
      { name: WEBHOOKS_FEED, position: '1234:5678' },
    ]);
  });
});
