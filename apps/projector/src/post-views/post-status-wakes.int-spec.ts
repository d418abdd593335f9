import { inTransaction } from '@app/database';
import { PostgresEventStore } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { appendSampleStreams, SampleStreams } from '../../../../test/support/projection-streams';
import { POST_VIEWS } from './post-views.read-model';

/**
 * The posts a batch announces as "status may change" (what wakes a publishNow's answer) cover
 * every change of a post's status the projection makes, on the real server: the sample streams are
 * projected one event at a time, and each status that moved (or row that came or went) must have
 * been announced by that event.
 */
describe('post_views announces the posts whose status a batch may change', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let streams: SampleStreams;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, { databaseUrl: db.url });
    streams = await appendSampleStreams(store);
  });
  afterAll(() => db?.drop());

  const statuses = async () =>
    new Map((await db.pool.query<{ id: string; status: string }>(`SELECT id, status FROM ${POST_VIEWS.tables.postViews}`)).rows.map((row) => [row.id, row.status]));

  it('announces every post whose status the event moved, and not the ones an account outcome leaves publishing', async () => {
    const quiet: string[] = [];
    for (const event of streams.events) {
      const before = await statuses();
      await inTransaction(db.pool, (client) => POST_VIEWS.project(client, [event], POST_VIEWS.tables, (id) => store.readStream(id)));
      const after = await statuses();
      const announced = POST_VIEWS.viewsWhoseStatusMayChange!([event]);
      for (const id of new Set([...before.keys(), ...after.keys()])) {
        if (before.get(id) !== after.get(id)) expect({ event: event.type, announced: announced.has(id) }).toEqual({ event: event.type, announced: true });
      }
      if (event.streamId.startsWith('post-') && announced.size === 0) quiet.push(event.type);
    }
    // The wake is spared for the outcomes before the last and the follow-ups: they only fill in results.
    expect(new Set(quiet)).toEqual(new Set(['AccountPublished', 'AccountPublishFailed', 'FirstCommentPosted']));
  });
});
