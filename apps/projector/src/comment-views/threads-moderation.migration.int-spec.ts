import { randomUUID } from 'node:crypto';
import { runner } from 'node-pg-migrate';
import { commentStreamId } from '@app/contracts';
import { migrate, migrationsDir } from '@app/database';
import { PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';

/** The migration that gives comment_views threads, the hidden flag and the workspace's live replies. */
const THREADS_MODERATION_MIGRATION = 1700000001300;

/**
 * A deployment from before threads and moderation: its replied comments carry
 * only reply_ids. Migrated, each gets its replies (text, author, time) from its
 * CommentReplied events, so the thread shows what was answered before.
 */
describe('migration 1700000001300: comment threads and moderation', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await runner({ databaseUrl: db.url, dir: migrationsDir(), direction: 'down', count: THREADS_MODERATION_MIGRATION, timestamp: true, migrationsTable: 'pgmigrations', log: () => undefined });
  });
  afterAll(() => db?.drop());

  it("fills each comment's replies from its CommentReplied events, oldest first; parents unknown, nothing hidden", async () => {
    const store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    const [workspaceId, replied, unanswered] = [randomUUID(), randomUUID(), randomUUID()];
    const meta = { workspaceId, version: 1 };
    const reply = (n: number) => ({
      eventId: randomUUID(),
      type: 'CommentReplied',
      data: { commentId: replied, accountId: 'a-1', repliedAs: '@acme', replyPlatformId: `r-${n}`, message: `Thanks ${n}`, repliedAt: `2026-11-20T10:0${n}:00.000Z` },
      metadata: meta,
    });
    await store.append(commentStreamId(replied), [{ eventId: randomUUID(), type: 'CommentReceived', data: { commentId: replied }, metadata: meta }, reply(1), reply(2)], 'no_stream');
    for (const id of [replied, unanswered]) {
      await db.pool.query(
        `INSERT INTO comment_views (id, workspace_id, platform, platform_comment_id, platform_post_id, post_id, account_id, author, text, sentiment, tags, replied, reply_ids, commented_at, version)
         VALUES ($1, $2, 'x', $3, 'item', $4, $4, 'fan', 'hi', 'neutral', '{}', $5, $6, now(), $7)`,
        [id, workspaceId, `c-${id}`, randomUUID(), id === replied, id === replied ? ['r-1', 'r-2'] : [], id === replied ? 3 : 1],
      );
    }

    await migrate(db.url);

    const { rows } = await db.pool.query('SELECT id, replies, hidden, parent_comment_id FROM comment_views ORDER BY replied DESC');
    expect(rows).toEqual([
      {
        id: replied,
        replies: [
          { replyId: 'r-1', accountId: 'a-1', repliedAs: '@acme', text: 'Thanks 1', createdAt: '2026-11-20T10:01:00.000Z' },
          { replyId: 'r-2', accountId: 'a-1', repliedAs: '@acme', text: 'Thanks 2', createdAt: '2026-11-20T10:02:00.000Z' },
        ],
        hidden: false,
        parent_comment_id: null,
      },
      { id: unanswered, replies: [], hidden: false, parent_comment_id: null },
    ]);
  });
});
