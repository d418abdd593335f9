import { POST_VIEWS_PROJECTION } from '@app/read-models';
import { ReadModel } from '../read-model';
import { projectQueueEvents, QueueViewsTables } from '../queue-views/queue-views.projection';
import { PostRowsCache } from './post-rows-cache';
import { postEventWrites, postIdsWhoseStatusMayChange, PostRow, projectPostEvents, PostViewsTables } from './post-views.projection';

const LIVE_TABLES = { postViews: 'post_views', postDeletions: 'post_view_deletions', accountQueues: 'account_queues', queueClaims: 'queue_claims' };

/** The live post_views rows as last written (PostRowsCache): a rebuild's or a verification's copies go without. */
const liveRows = new PostRowsCache<PostRow>();
const rowsCacheOf = (tables: PostViewsTables): PostRowsCache<PostRow> | null => (tables.postViews === LIVE_TABLES.postViews ? liveRows : null);

/**
 * post_views (GET /api/v1/posts), folded from the post streams, and the posting queues
 * (account_queues, queue_claims) folded from the queue streams; its checkpoint is `post_views`.
 * One checkpoint for both on purpose: a queued post's answer waits for one position, and the
 * queue and the calendar it shows up in are then current too (read-your-writes).
 */
export const POST_VIEWS: ReadModel<keyof PostViewsTables | keyof QueueViewsTables> = {
  name: POST_VIEWS_PROJECTION,
  tables: LIVE_TABLES,
  view: { role: 'postViews', streamPrefix: 'post-' },
  project: async (client, events, tables, readStream) => {
    await projectPostEvents(client, events, tables, readStream, rowsCacheOf(tables));
    await projectQueueEvents(client, events, tables);
  },
  // A queue event's write depends on what the one before it changed (projectQueueEvents): such a batch goes through project.
  writesOf: async (pool, events, tables, readStream) =>
    events.some((event) => event.streamId.startsWith('queue-')) ? null : postEventWrites(pool, events, tables, readStream, rowsCacheOf(tables)),
  // The queue events change the queue tables, never a post's row.
  viewsWhoseStatusMayChange: postIdsWhoseStatusMayChange,
  restarting: () => liveRows.forgetAll(),
};
