import { randomUUID } from 'node:crypto';
import { runner } from 'node-pg-migrate';
import { migrate, migrationsDir } from '@app/database';
import { PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { appendSampleStreams } from '../../../../test/support/projection-streams';

/** The migration that gives comment_views its own checkpoint and its own record of the workspace's first comments. */
const OWN_CHECKPOINT_MIGRATION = 1700000001250;

/**
 * A deployment from before the split: one `post_views` checkpoint for both
 * projections, and the own first comments known only to the events and to
 * post_views. Migrated, it carries on: both read models start where the shared
 * checkpoint stood, and comment_views knows every own first comment.
 */
describe('migration 1700000001250: comment_views gets its own checkpoint', () => {
  let db: TestDatabase;
  const ownComments = async () =>
    (await db.pool.query('SELECT post_id, platform_comment_id FROM comment_view_own_comments ORDER BY platform_comment_id')).rows;

  beforeAll(async () => {
    db = await createTestDatabase();
    await runner({ databaseUrl: db.url, dir: migrationsDir(), direction: 'down', count: OWN_CHECKPOINT_MIGRATION, timestamp: true, migrationsTable: 'pgmigrations', log: () => undefined });
  });
  afterAll(() => db?.drop());

  it('copies the shared checkpoint to comment_views and collects the own first comments from the events and from post_views', async () => {
    const streams = await appendSampleStreams(new PostgresEventStore(db.pool, { databaseUrl: db.url }));
    await db.pool.query(`INSERT INTO checkpoints (name, position) VALUES ('post_views', '1234:5678')`);
    // A post whose events live elsewhere (an EventStoreDB deployment): only its view knows its own comment.
    const viewOnly = randomUUID();
    await db.pool.query(
      `INSERT INTO post_views (id, workspace_id, content, content_preview, platforms, accounts, media_urls, first_comments, status, created_at, version, own_comment_ids)
       VALUES ($1, $2, 'elsewhere', 'elsewhere', '{x}', '[]', '[]', '["hi"]', 'published', now(), 6, '{view-own-comment}')`,
      [viewOnly, streams.workspaceId],
    );
    const fromEvents = streams.events.filter((e) => e.type === 'FirstCommentPosted').map((e) => e.data as { postId: string; platformCommentId: string });
    expect(fromEvents).toHaveLength(1);

    await migrate(db.url);

    const checkpoints = await db.pool.query('SELECT name, position FROM checkpoints ORDER BY name');
    expect(checkpoints.rows).toEqual([
      { name: 'comment_views', position: '1234:5678' },
      { name: 'post_views', position: '1234:5678' },
    ]);
    expect(await ownComments()).toEqual(
      [...fromEvents.map((o) => ({ post_id: o.postId, platform_comment_id: o.platformCommentId })), { post_id: viewOnly, platform_comment_id: 'view-own-comment' }].sort((a, b) =>
        a.platform_comment_id.localeCompare(b.platform_comment_id),
      ),
    );
  });
});
