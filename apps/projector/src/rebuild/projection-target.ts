import { PoolClient } from 'pg';
import { RecordedEvent } from '@app/event-store';
import { POST_VIEWS_PROJECTION } from '@app/read-models';
import { projectCommentEvents, ViewTables } from '../comments/comment-views.projection';
import { ReadStream } from '../in-revision-order';
import { projectPostEvents } from '../posts/post-views.projection';

/** Where the read-model projection writes: its tables and the checkpoint that says how far they go. */
export interface ProjectionTarget extends ViewTables {
  checkpoint: string;
}

/** The tables the readers query, kept by the live projector. */
export const LIVE_TARGET: ProjectionTarget = { postViews: 'post_views', commentViews: 'comment_views', postDeletions: 'post_view_deletions', checkpoint: POST_VIEWS_PROJECTION };

/** A rebuild's fresh tables beside the live ones (see rebuild-projections.ts). */
export const REBUILD_TARGET: ProjectionTarget = {
  postViews: `${LIVE_TARGET.postViews}_rebuild`,
  commentViews: `${LIVE_TARGET.commentViews}_rebuild`,
  postDeletions: `${LIVE_TARGET.postDeletions}_rebuild`,
  checkpoint: `${LIVE_TARGET.checkpoint}_rebuild`,
};

/**
 * Applies a batch of the feed to every table of the target, inside the
 * caller's transaction; a view that finds an event of its stream missing
 * catches up from the stream, which `readStream` reads from the store.
 */
export async function projectBatch(client: PoolClient, events: RecordedEvent[], target: ViewTables, readStream: ReadStream): Promise<void> {
  await projectPostEvents(client, events, target, readStream);
  await projectCommentEvents(client, events, target, readStream);
}
