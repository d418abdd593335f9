import fc from 'fast-check';
import { inTransaction } from '@app/database';
import { PostgresEventStore, RecordedEvent } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../test/support/projection-streams';
import { ReadStream, StreamGapError } from './in-revision-order';
import { COMMENT_VIEWS } from './comment-views/comment-views.read-model';
import { POST_VIEWS } from './post-views/post-views.read-model';
import { ReadModel, renamedTables, Tables } from './read-model';
import { projectIntoEvery, READ_MODELS } from './read-models';

/**
 * Issue 16, part 3: a projection applies a stream's events strictly in revision order. The
 * feed is made to deliver events late, out of order, twice or not at all, in batches of any
 * size; the views must always end exactly as the in-order fold of the same streams.
 */
describe('read models apply each stream in revision order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let streams: SampleStreams;
  /** Where each model's tables are: the live ones (the reference), or copies the deliveries under test write. */
  type Target = (model: ReadModel) => Tables<string>;
  const live: Target = (model) => model.tables;
  const shuffled: Target = (model) => renamedTables(model.tables, (table) => `${table}_shuffled`);
  const tablePairs = READ_MODELS.flatMap((model) => Object.keys(model.tables).map((role) => [live(model)[role], shuffled(model)[role]]));
  const readStream: ReadStream = (streamId) => store.readStream(streamId);

  const deliver = (batches: RecordedEvent[][], target: Target, read: ReadStream = readStream) =>
    batches.reduce<Promise<void>>((previous, batch) => previous.then(() => inTransaction(db.pool, (client) => projectIntoEvery(client, batch, read, target))), Promise.resolve());
  const rows = async (table: string) => (await db.pool.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
  const postRows = (target: Target) => rows(target(POST_VIEWS).postViews);
  const views = async (target: Target) => ({ posts: await postRows(target), comments: await rows(target(COMMENT_VIEWS).commentViews) });
  const resetShuffled = () => db.pool.query(`TRUNCATE ${tablePairs.map(([, copy]) => copy).join(', ')}`);

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    streams = await appendSampleStreams(store);
    for (const [live, copy] of tablePairs) await db.pool.query(`CREATE TABLE ${copy} (LIKE ${live} INCLUDING ALL)`);
    // The reference: every event once, in the feed's order, one batch per event.
    await deliver(streams.events.map((event) => [event]), live);
  });
  afterAll(() => db?.drop());
  beforeEach(resetShuffled);

  it('the in-order fold is the expected view (the reference the other tests compare with)', async () => {
    const { posts, comments } = await views(live);
    expect(posts).toHaveLength(1); // the deleted post is gone
    expect(posts[0]).toMatchObject({ id: streams.publishedPostId, version: 10, status: 'partial', content: 'Launch day: the app is here', own_comment_ids: ['x-own-comment'] });
    expect(posts[0].results.map((r: { success: boolean }) => r.success)).toEqual([true, true, true, false, true]);
    expect(comments).toHaveLength(1); // the post's own first comment is not a comment to answer
    // Two replies, one of them deleted since; hidden; read anew by the classifier.
    expect(comments[0]).toMatchObject({
      id: streams.repliedCommentId,
      version: 6,
      replied: true,
      reply_ids: ['x-reply-1', 'x-reply-2'],
      replies: [expect.objectContaining({ replyId: 'x-reply-2' })],
      hidden: true,
      sentiment: 'neutral',
      tags: ['question'],
    });
  });

  it('ends as the in-order fold when an account result is never delivered and later events are (the issue: 4 of 5 results at a later version)', async () => {
    const published = streams.events.filter((e) => e.streamId === `post-${streams.publishedPostId}`);
    const skipped = published.find((e) => e.revision === 4n)!;
    expect(skipped.type).toBe('AccountPublished');
    await deliver([streams.events.filter((e) => e !== skipped)], shuffled);
    expect(await views(shuffled)).toEqual(await views(live));
  });

  it('ends as the in-order fold whatever the order, batching and repetition of the deliveries', async () => {
    const n = streams.events.length;
    const deliveries = fc.record({
      // A sort key per event gives any permutation; each event may come twice; any event may end a batch.
      order: fc.array(fc.integer(), { minLength: n, maxLength: n }),
      twice: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      cuts: fc.array(fc.boolean(), { minLength: 2 * n, maxLength: 2 * n }),
    });
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ order, twice, cuts }) => {
        await resetShuffled();
        const permuted = streams.events.map((event, i) => ({ event, key: order[i], i })).sort((a, b) => a.key - b.key || a.i - b.i);
        const sequence = permuted.flatMap(({ event, i }) => (twice[i] ? [event, event] : [event]));
        const batches: RecordedEvent[][] = [[]];
        sequence.forEach((event, i) => {
          batches[batches.length - 1].push(event);
          if (cuts[i] && i < sequence.length - 1) batches.push([]);
        });
        await deliver(batches, shuffled);
        expect(await views(shuffled)).toEqual(await views(live));
      }),
      { numRuns: 40 },
    );
  });

  it('waits rather than skip when the store itself lacks the missing event: the batch is not applied, and is once the event is there', async () => {
    const published = streams.events.filter((e) => e.streamId === `post-${streams.publishedPostId}`);
    await deliver([published.slice(0, 5)], shuffled);
    const before = await postRows(shuffled);
    expect(before[0].version).toBe(5);
    const missing = published[6];
    const withoutIt: ReadStream = async (streamId) => (await store.readStream(streamId)).filter((e) => e.eventId !== missing.eventId);
    await expect(deliver([published.slice(7)], shuffled, withoutIt)).rejects.toThrow(StreamGapError);
    expect(await postRows(shuffled)).toEqual(before);
    await deliver([published.slice(7)], shuffled);
    expect((await postRows(shuffled))[0]).toEqual((await postRows(live))[0]);
  });
});
