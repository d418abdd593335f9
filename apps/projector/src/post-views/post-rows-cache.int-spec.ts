import { inTransaction } from '@app/database';
import { CheckpointStore, formatPosition, PostgresEventStore } from '@app/event-store';
import { POST_VIEWS_PROJECTION } from '@app/read-models';
import { createTestDatabase, sqlOf, TestDatabase, until } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../../test/support/projection-streams';
import { ReadModelsFollower } from '../read-models-follower';
import { POST_VIEWS } from './post-views.read-model';

/**
 * The projector folds the posts it has just written from the rows it remembers (PostRowsCache)
 * instead of reading them back, on the real server: the rows it builds are the ones the table-read
 * path builds, and a batch whose write failed is written when the follower starts again.
 */
describe('post_views folded from the rows last written', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let streams: SampleStreams;
  let follower: ReadModelsFollower | null = null;

  /** The statement that reads a batch's rows and deletions back (PostViewsFold.load). */
  const ROW_READ = 'WITH current AS (SELECT';
  /** Every post_views row and deletion, in an order that does not depend on how they were written. */
  const snapshot = async () => ({
    rows: (await db.pool.query(`SELECT * FROM ${POST_VIEWS.tables.postViews} ORDER BY id`)).rows,
    deletions: (await db.pool.query(`SELECT * FROM ${POST_VIEWS.tables.postDeletions} ORDER BY id`)).rows,
  });
  /** The same feed projected one event per transaction by the path that reads every row from the table, into emptied tables. */
  const fromTheTable = async () => {
    await db.pool.query(`TRUNCATE ${POST_VIEWS.tables.postViews}, ${POST_VIEWS.tables.postDeletions}`);
    POST_VIEWS.restarting!();
    for (const event of streams.events) await inTransaction(db.pool, (client) => POST_VIEWS.project(client, [event], POST_VIEWS.tables, (id) => store.readStream(id)));
    return snapshot();
  };
  const followToTheEnd = async () => {
    follower = new ReadModelsFollower({ pool: db.pool, store, databaseUrl: db.url, models: [POST_VIEWS], batchSize: 1, retryDelayMs: 50 });
    follower.start();
    const last = formatPosition(streams.events[streams.events.length - 1].position);
    await until(async () => formatPosition(await new CheckpointStore(db.pool).load(POST_VIEWS_PROJECTION)) === last, 10_000);
    await follower.stop();
    follower = null;
  };

  beforeEach(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    streams = await appendSampleStreams(store);
  });
  afterEach(async () => {
    await follower?.stop();
    follower = null;
    jest.restoreAllMocks();
    await db.drop();
  });

  it('reads no row back for posts it created itself, and builds the rows the table-read path builds', async () => {
    const statements = jest.spyOn(db.pool, 'query');
    await followToTheEnd();
    expect(statements.mock.calls.filter((call) => sqlOf(call).text.includes(ROW_READ))).toEqual([]);
    const followed = await snapshot();
    expect(followed.rows).toHaveLength(1); // the published post; the other one is deleted
    expect(followed.rows[0].version).toBeGreaterThan(3);
    expect(await fromTheTable()).toEqual(followed);
  });

  it('a batch whose write failed is written when the follower starts again, not taken as already folded', async () => {
    const postStream = `post-${streams.publishedPostId}`;
    const writesOfPost = streams.events.filter((e) => e.streamId === postStream).length;
    const query = db.pool.query.bind(db.pool) as (...args: unknown[]) => Promise<unknown>;
    let seen = 0;
    // The write of the post's last event fails once: nothing after it would make up for the row it remembered.
    jest.spyOn(db.pool, 'query').mockImplementation(((...args: unknown[]) => {
      const { text, values } = sqlOf(args);
      if (text.includes('write_0') && JSON.stringify(values).includes(streams.publishedPostId) && ++seen === writesOfPost) {
        return Promise.reject(new Error('the connection dropped mid-write'));
      }
      return query(...args);
    }) as typeof db.pool.query);
    await followToTheEnd();
    expect(seen).toBeGreaterThan(writesOfPost); // failed once, then written
    const followed = await snapshot();
    expect(await fromTheTable()).toEqual(followed);
  });
});
