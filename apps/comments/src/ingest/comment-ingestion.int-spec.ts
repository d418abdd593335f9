import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { commentStreamId, IncomingComment } from '@app/contracts';
import { AppendBatcher, PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { commentIdOf } from '../domain/comment-id';
import { CommentIngestion } from './comment-ingestion';
import { PublishedItem } from './published-items';
import { RecentReplies } from './recent-replies';

/** Ingestion's appends without reading streams first, grouped across calls: still once per comment, classified each. */
describe('CommentIngestion (grouped appends on the PostgreSQL event store)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let ingestion: CommentIngestion;
  const item = (): PublishedItem => ({
    workspaceId: randomUUID(),
    postId: randomUUID(),
    accountId: randomUUID(),
    handle: '@acme',
    platform: 'facebook',
    platformPostId: `page_${randomUUID()}`,
    postTitle: 'Spring collection',
    ownCommentIds: ['own-first-comment'],
  });
  const comment = (id: string, text = 'Love it, thank you!', author = 'fan'): IncomingComment => ({ platformCommentId: id, author, text, createdAt: '2026-11-23T10:00:00Z', url: null });
  const storedTypes = async (on: PublishedItem, platformCommentId: string) =>
    (await store.readStream(commentStreamId(commentIdOf(on.workspaceId, on.platform, platformCommentId)))).map((e) => e.type);

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    ingestion = new CommentIngestion(db.pool, new AppendBatcher(store), new AppConfig(), new RecentReplies());
  });
  afterAll(() => db.drop());

  it('stores each comment of a large poll once, classified, and leaves out the workspace’s own words', async () => {
    const on = item();
    const comments = Array.from({ length: 250 }, (_, i) => comment(`c${i}`, i % 2 ? 'This broke everything, awful.' : 'Love it, thank you!'));
    const stored = await ingestion.ingest(on, [...comments, comment('own-first-comment'), comment('by-us', 'Thanks all!', 'ACME')]);
    expect(stored).toBe(250);
    const [positive] = await store.readStream(commentStreamId(commentIdOf(on.workspaceId, on.platform, 'c0')));
    const [negative] = await store.readStream(commentStreamId(commentIdOf(on.workspaceId, on.platform, 'c1')));
    expect(positive.data).toMatchObject({ platformCommentId: 'c0', postId: on.postId, sentiment: 'positive', commentedAt: '2026-11-23T10:00:00.000Z' });
    expect(negative.data).toMatchObject({ platformCommentId: 'c1', sentiment: 'negative' });
    expect(await storedTypes(on, 'own-first-comment')).toEqual([]);
    expect(await storedTypes(on, 'by-us')).toEqual([]);
  });

  it('stores a comment seen by a poll and two webhooks at once, and twice in one list, exactly once', async () => {
    const on = item();
    const poll = ['a', 'b', 'c', 'b'].map((id) => comment(id));
    const counts = await Promise.all([ingestion.ingest(on, poll), ingestion.ingest(on, [comment('b')]), ingestion.ingest(on, [comment('c'), comment('d')])]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(4);
    for (const id of ['a', 'b', 'c', 'd']) expect(await storedTypes(on, id)).toEqual(['CommentReceived']);
    expect(await ingestion.ingest(on, poll)).toBe(0);
  });
});
