import { PoolClient } from 'pg';
import { FirstCommentPostedData, ThreadPartPostedData } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { CommentViewsTables } from './comment-views.projection';

/**
 * The workspace's own first comments are no comments to answer: ingestion can
 * see one on the platform (a CommentReceived) before or after its post's
 * FirstCommentPosted reaches this projection. The projection keeps their ids
 * in its own table, from the FirstCommentPosted events of the post streams it
 * reads itself, and takes any row already received for one out of the list.
 * Idempotent: a replay records nothing new and finds nothing left to remove.
 */
export async function recordOwnFirstComments(client: PoolClient, tables: CommentViewsTables, events: RecordedEvent[]): Promise<void> {
  // A thread part (ThreadPartPosted) is the workspace's own reply as well.
  const own = events
    .filter((e) => (e.type === 'FirstCommentPosted' || e.type === 'ThreadPartPosted') && e.streamId.startsWith('post-'))
    .map((e) => (e.type === 'ThreadPartPosted' ? { postId: (e.data as ThreadPartPostedData).postId, id: (e.data as ThreadPartPostedData).platformPostId } : { postId: (e.data as FirstCommentPostedData).postId, id: (e.data as FirstCommentPostedData).platformCommentId }));
  if (own.length === 0) return;
  const params = [own.map((o) => o.postId), own.map((o) => o.id)];
  await client.query(
    `INSERT INTO ${tables.ownComments} (post_id, platform_comment_id) SELECT * FROM unnest($1::uuid[], $2::text[])
     ON CONFLICT DO NOTHING`,
    params,
  );
  await client.query(
    `DELETE FROM ${tables.commentViews} c USING unnest($1::uuid[], $2::text[]) AS own(post_id, platform_comment_id)
     WHERE c.post_id = own.post_id AND c.platform_comment_id = own.platform_comment_id`,
    params,
  );
}
