import { randomUUID } from 'node:crypto';
import { inTransaction } from '@app/database';
import { CheckpointStore, PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../../test/support/projection-streams';
import { projectIntoEvery, READ_MODELS } from '../read-models';
import { describeReport, isHealthy, verifyProjections } from './verify-projections';

/** npm run verify-projections: passes on a healthy database, finds each kind of damage, and names the row and column. */
describe('verifyProjections', () => {
  let db: TestDatabase;
  let streams: SampleStreams;
  const verify = () => verifyProjections({ pool: db.pool, databaseUrl: db.url, pageSize: 4 });
  const viewOf = async (name: string) => (await verify()).views.find((v) => v.view === name)!;

  beforeAll(async () => {
    db = await createTestDatabase();
    const store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    streams = await appendSampleStreams(store);
    // Projected as the live projector does: batches with the checkpoint committed beside the rows.
    const checkpoints = new CheckpointStore(db.pool);
    for (let i = 0; i < streams.events.length; i += 5) {
      const batch = streams.events.slice(i, i + 5);
      await inTransaction(db.pool, async (client) => {
        await projectIntoEvery(client, batch, (streamId) => store.readStream(streamId));
        for (const model of READ_MODELS) await checkpoints.save(model.name, batch[batch.length - 1].position, client);
      });
    }
  });
  afterAll(() => db?.drop());

  it('passes on a healthy database', async () => {
    const report = await verify();
    expect(report).toMatchObject({ events: streams.events.length, streams: 4 });
    expect(report.views).toEqual([
      { view: 'post_views', rowsChecked: 1, differing: [], missing: [], withoutStream: [] },
      { view: 'comment_views', rowsChecked: 1, differing: [], missing: [], withoutStream: [] },
      { view: 'post_metrics', rowsChecked: 0, differing: [], missing: [], withoutStream: [] },
      { view: 'account_metrics', rowsChecked: 0, differing: [], missing: [], withoutStream: [] },
    ]);
    expect(isHealthy(report)).toBe(true);
    expect(describeReport(report).at(-1)).toBe('read models match their streams');
  });

  it('ignores events past the checkpoint: not projected yet is no difference', async () => {
    const store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    const later = await appendSampleStreams(store);
    try {
      expect(isHealthy(await verify())).toBe(true);
    } finally {
      await db.pool.query('DELETE FROM events WHERE metadata->>$1 = $2', ['workspaceId', later.workspaceId]);
    }
  });

  it('finds a row that lost an account result (the issue), naming the column', async () => {
    const [row] = (await db.pool.query('SELECT results FROM post_views WHERE id = $1', [streams.publishedPostId])).rows;
    await db.pool.query('UPDATE post_views SET results = $2 WHERE id = $1', [streams.publishedPostId, JSON.stringify(row.results.slice(0, 4))]);
    try {
      const report = await verify();
      expect(report.views[0].differing).toEqual([{ id: streams.publishedPostId, columns: ['results'] }]);
      expect(isHealthy(report)).toBe(false);
      expect(describeReport(report)).toContain(`  differs ${streams.publishedPostId}: results`);
    } finally {
      await db.pool.query('UPDATE post_views SET results = $2 WHERE id = $1', [streams.publishedPostId, JSON.stringify(row.results)]);
    }
  });

  it('finds a view missing for a stream, and a row without a stream', async () => {
    const [comment] = (await db.pool.query('SELECT * FROM comment_views WHERE id = $1', [streams.repliedCommentId])).rows;
    await db.pool.query('DELETE FROM comment_views WHERE id = $1', [streams.repliedCommentId]);
    const orphan = randomUUID();
    await db.pool.query(
      `INSERT INTO post_views (id, workspace_id, content, content_preview, platforms, accounts, media_urls, first_comments, status, created_at, version)
       VALUES ($1, $2, 'ghost', 'ghost', '{x}', '[]', '[]', '[]', 'draft', now(), 1)`,
      [orphan, streams.workspaceId],
    );
    try {
      expect((await viewOf('comment_views')).missing).toEqual([streams.repliedCommentId]);
      expect((await viewOf('post_views')).withoutStream).toEqual([orphan]);
    } finally {
      await db.pool.query('DELETE FROM post_views WHERE id = $1', [orphan]);
      await db.pool.query(`INSERT INTO comment_views SELECT * FROM jsonb_populate_record(NULL::comment_views, $1::jsonb)`, [JSON.stringify(comment)]);
    }
    expect(isHealthy(await verify())).toBe(true);
  });
});
