import { PublishedItem } from './published-items';
import { incomingComment, ingestionOnTestDatabase, IngestionOnTestDatabase, publishedItem } from './ingestion.test-support';

/** Ingestion's appends without reading streams first, grouped across calls: still once per comment, classified each. */
describe('CommentIngestion (grouped appends on the PostgreSQL event store)', () => {
  let bench: IngestionOnTestDatabase;
  const storedTypes = async (on: PublishedItem, platformCommentId: string) => (await bench.streamOf(on, platformCommentId)).map((e) => e.type);

  beforeAll(async () => {
    bench = await ingestionOnTestDatabase();
  });
  afterAll(() => bench.db.drop());

  it('stores each comment of a large poll once, classified, and leaves out the workspace’s own words', async () => {
    const on = publishedItem();
    const comments = Array.from({ length: 250 }, (_, i) => incomingComment(`c${i}`, { text: i % 2 ? 'This broke everything, awful.' : 'Love it, thank you!' }));
    const stored = await bench.ingestion.ingest(on, [...comments, incomingComment('own-first-comment'), incomingComment('by-us', { text: 'Thanks all!', author: 'ACME' })]);
    expect(stored).toBe(250);
    const [positive] = await bench.streamOf(on, 'c0');
    const [negative] = await bench.streamOf(on, 'c1');
    expect(positive.data).toMatchObject({ platformCommentId: 'c0', postId: on.postId, sentiment: 'positive', commentedAt: '2026-11-23T10:00:00.000Z' });
    expect(negative.data).toMatchObject({ platformCommentId: 'c1', sentiment: 'negative' });
    expect(await storedTypes(on, 'own-first-comment')).toEqual([]);
    expect(await storedTypes(on, 'by-us')).toEqual([]);
  });

  it('stores a comment seen by a poll and two webhooks at once, and twice in one list, exactly once', async () => {
    const on = publishedItem();
    const poll = ['a', 'b', 'c', 'b'].map((id) => incomingComment(id));
    const counts = await Promise.all([bench.ingestion.ingest(on, poll), bench.ingestion.ingest(on, [incomingComment('b')]), bench.ingestion.ingest(on, [incomingComment('c'), incomingComment('d')])]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(4);
    for (const id of ['a', 'b', 'c', 'd']) expect(await storedTypes(on, id)).toEqual(['CommentReceived']);
    expect(await bench.ingestion.ingest(on, poll)).toBe(0);
  });
});
