import { CheckpointStore, formatPosition, PostgresEventStore } from '@app/event-store';
import { CommentsWorld, startCommentsStack, TestAccount } from '../../../../test/e2e/comments-fixture';
import { TestStack } from '../../../../test/support/test-stack';
import { READ_MODELS } from '../read-models';
import { rebuildProjections } from './rebuild-projections';

/** npm run rebuild-projections against the running service: the read models come back the same, nothing is lost, the live projector goes on. */
describe('rebuildProjections', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  let x: TestAccount;

  const rebuild = (only?: string[]) => rebuildProjections({ pool: stack.db.pool, databaseUrl: stack.db.url, batchSize: 7, only });
  const checkpointRow = async (name: string) => (await stack.db.pool.query('SELECT * FROM checkpoints WHERE name = $1', [name])).rows[0];
  const tableOid = async (table: string) => (await stack.db.pool.query<{ oid: number }>('SELECT $1::regclass::oid AS oid', [table])).rows[0].oid;
  const rows = async (table: string) => (await stack.db.pool.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
  const lists = async () => ({
    posts: (await stack.request('GET', '/api/v1/posts?limit=50', { key })).body,
    comments: (await stack.request('GET', '/api/v1/comments?limit=50', { key })).body,
  });
  const draft = async (content: string) => {
    const response = await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: [x.id] } });
    expect(response.status).toBe(201);
    return response.body.post.id as string;
  };
  /** Every live projection has handled every stored event. */
  const caughtUp = async () => {
    const store = new PostgresEventStore(stack.db.pool, { databaseUrl: stack.db.url });
    const checkpoints = new CheckpointStore(stack.db.pool);
    for (const model of READ_MODELS) {
      for (let i = 0; ; i++) {
        if ((await store.readAll(await checkpoints.load(model.name), 1)).length === 0) break;
        if (i === 200) throw new Error(`the live ${model.name} projection did not catch up`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  };
  const tablesNamed = async (pattern: string) =>
    (await stack.db.pool.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relname LIKE $1 ORDER BY relname`, [pattern])).rows.map((r) => r.relname);

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
    const workspace = await stack.workspace();
    key = workspace.key;
    x = await world.account(workspace.workspaceId, 'x');
    const mastodon = await world.account(workspace.workspaceId, 'mastodon');
    const [onX, onMastodon] = [await world.publish(key, x), await world.publish(key, mastodon)];
    await draft('a draft');
    const deleted = await draft('a draft deleted');
    expect((await stack.request('DELETE', `/api/v1/posts/${deleted}`, { key })).status).toBe(204);
    const scheduled = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'later', accounts: [x.id], scheduledAt: new Date(Date.now() + 86_400_000).toISOString() } });
    expect(scheduled.status).toBe(201);
    const comments = [world.comment('x', onX, 'Love it, thank you!'), world.comment('mastodon', onMastodon, 'This broke everything, awful.'), world.comment('x', onX, 'When?')];
    await world.untilListed(key, comments.map((c) => c.id));
    expect((await stack.request('POST', '/api/v1/comments/reply', { key, body: { platform: 'x', commentId: comments[2].id, message: 'Tomorrow!' } })).status).toBe(200);
    await caughtUp();
  });
  afterAll(() => stack?.stop());

  it('rebuilds lists identical to the ones before, after the live tables were damaged, under the migrations’ index names', async () => {
    const before = { lists: await lists(), posts: await rows('post_views'), comments: await rows('comment_views'), indexes: await tablesNamed('%views%') };
    expect(before.lists.posts.posts).toHaveLength(4);
    expect(before.lists.comments.comments).toHaveLength(3);
    await stack.db.pool.query(`DELETE FROM comment_views; DELETE FROM post_views WHERE status = 'published'; UPDATE post_views SET content_preview = 'damaged'`);
    expect(await lists()).not.toEqual(before.lists);

    const reports = await rebuild();

    expect(reports.map((r) => r.readModel)).toEqual(['post_views', 'comment_views', 'post_metrics', 'account_metrics']);
    for (const report of reports) {
      expect(report.replayed + report.caughtUp).toBe(await stack.eventCount());
      expect(report.leadersEnded).toBe(1);
      expect(formatPosition(await new CheckpointStore(stack.db.pool).load(report.readModel))).toBe(report.position);
    }
    expect(await lists()).toEqual(before.lists);
    expect(await rows('post_views')).toEqual(before.posts);
    expect(await rows('comment_views')).toEqual(before.comments);
    expect(await tablesNamed('%views%')).toEqual(before.indexes);
  });

  it('loses nothing written during the rebuild, and the live projector carries on afterwards', async () => {
    const during = Promise.all(Array.from({ length: 6 }, (_, i) => draft(`written during the rebuild ${i}`)));
    const [ids] = await Promise.all([during, rebuild()]);
    const after = await draft('written after the rebuild');

    const listed = (await lists()).posts.posts.map((p: { id: string }) => p.id);
    expect(listed).toEqual(expect.arrayContaining([...ids, after]));
    await caughtUp();
    const live = await rows('post_views');
    await rebuild();
    expect(await rows('post_views')).toEqual(live);
  });

  it('is idempotent: a second run changes nothing and leaves no table behind', async () => {
    await caughtUp();
    const before = { posts: await rows('post_views'), comments: await rows('comment_views') };
    await rebuild();
    await rebuild();
    expect({ posts: await rows('post_views'), comments: await rows('comment_views') }).toEqual(before);
    expect((await tablesNamed('%views%')).filter((name) => /_(rebuild|old)$/.test(name))).toEqual([]);
    const checkpoints = await stack.db.pool.query('SELECT name FROM checkpoints WHERE name LIKE $1', ['%rebuild%']);
    expect(checkpoints.rows).toEqual([]);
  });

  it('rebuilds one read model alone (--only): the other keeps its tables, rows and checkpoint untouched', async () => {
    await caughtUp();
    const [postRow] = await rows('post_views');
    const [commentRow] = await rows('comment_views');
    // Damage both: the rebuild repairs the one it rebuilds, and must not even see the other.
    await stack.db.pool.query(`UPDATE post_views SET content_preview = 'damaged' WHERE id = $1`, [postRow.id]);
    await stack.db.pool.query(`UPDATE comment_views SET text = 'damaged' WHERE id = $1`, [commentRow.id]);
    const comments = { oid: await tableOid('comment_views'), rows: await rows('comment_views'), checkpoint: await checkpointRow('comment_views') };

    const reports = await rebuild(['post_views']);

    expect(reports.map((r) => r.readModel)).toEqual(['post_views']);
    expect((await rows('post_views')).find((r) => r.id === postRow.id)).toEqual(postRow);
    expect({ oid: await tableOid('comment_views'), rows: await rows('comment_views'), checkpoint: await checkpointRow('comment_views') }).toEqual(comments);

    await rebuild(['comment_views']);
    expect((await rows('comment_views')).find((r) => r.id === commentRow.id)).toEqual(commentRow);
  });

  it('refuses an unknown read model before rebuilding anything', async () => {
    const posts = await tableOid('post_views');
    await expect(rebuild(['post_views', 'no_such_view'])).rejects.toThrow('unknown read model no_such_view: one of post_views, comment_views, post_metrics, account_metrics');
    expect(await tableOid('post_views')).toBe(posts);
  });

  it('refuses to run beside another rebuild', async () => {
    // Either may take the lock first: exactly one finishes and the other is refused.
    const outcomes = await Promise.allSettled([rebuild(), rebuild()]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/already running/) }) },
    ]);
  });
});
