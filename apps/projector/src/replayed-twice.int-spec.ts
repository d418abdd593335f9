import { inTransaction } from '@app/database';
import { PostgresEventStore, RecordedEvent } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../test/support/projection-streams';
import { COMMENT_VIEWS } from './comment-views/comment-views.read-model';
import { ReadStream } from './in-revision-order';
import { POST_VIEWS } from './post-views/post-views.read-model';
import { ReadModel } from './read-model';

/**
 * Issue 12, part 4: every projection is idempotent. The feed delivers at least once (a
 * redelivery, a restart from an older checkpoint), so the same events applied again must leave
 * every row of the read model's tables exactly as the first pass left them, however they are
 * batched. Each model is projected on its own, into its own database, from the realistic sample
 * streams (a post published to five accounts with one failure, an edit and a first comment; a
 * deleted post; a comment replied to twice; the post's own first comment).
 */
describe.each<[string, ReadModel, (streams: SampleStreams) => string]>([
  ['post_views', POST_VIEWS, (streams) => streams.publishedPostId],
  ['comment_views', COMMENT_VIEWS, (streams) => streams.repliedCommentId],
])('%s: the same events applied twice give the same rows', (_name, model, viewedId) => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let streams: SampleStreams;
  let firstPass: Record<string, unknown[]>;
  const readStream: ReadStream = (streamId) => store.readStream(streamId);

  const deliver = async (batches: RecordedEvent[][]) => {
    for (const batch of batches) await inTransaction(db.pool, (client) => model.project(client, batch, model.tables, readStream));
  };
  const oneByOne = (events: RecordedEvent[]) => events.map((event) => [event]);
  /** Every row of every table of the model, in an order that does not depend on how they were written. */
  const snapshot = async (): Promise<Record<string, unknown[]>> => {
    const tables: Record<string, unknown[]> = {};
    for (const [role, table] of Object.entries<string>(model.tables)) {
      const { rows } = await db.pool.query(`SELECT * FROM ${table}`);
      tables[role] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return tables;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    streams = await appendSampleStreams(store);
    // The first pass, as the feed delivers it live: one event per batch, in the feed's order.
    await deliver(oneByOne(streams.events));
    firstPass = await snapshot();
  });
  afterAll(() => db?.drop());

  it('the first pass built the view (a non-empty snapshot to compare with)', async () => {
    const { rows } = await db.pool.query(`SELECT id, version FROM ${model.tables[model.view.role]}`);
    expect(rows).toEqual([{ id: viewedId(streams), version: expect.any(Number) }]);
    expect(rows[0].version).toBeGreaterThan(1);
  });

  it('the whole feed again in one batch changes no row', async () => {
    await deliver([streams.events]);
    expect(await snapshot()).toEqual(firstPass);
  });

  it('the whole feed again one event per batch, newest first, changes no row', async () => {
    await deliver(oneByOne([...streams.events].reverse()));
    expect(await snapshot()).toEqual(firstPass);
  });
});
