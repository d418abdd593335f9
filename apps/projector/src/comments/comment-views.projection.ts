import { PoolClient } from 'pg';
import { CommentEvent } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';

/**
 * Applies one event to the comment_views table, inside the projector's batch
 * transaction. The row's version (events applied) makes it idempotent: a
 * replayed event changes nothing. Events of other streams are not its business.
 */
export async function projectCommentEvent(client: PoolClient, recorded: RecordedEvent): Promise<void> {
  if (!recorded.streamId.startsWith('comment-')) return;
  const event = { type: recorded.type, data: recorded.data } as CommentEvent;
  const version = Number(recorded.revision) + 1;
  switch (event.type) {
    case 'CommentReceived': {
      const d = event.data;
      await client.query(
        `INSERT INTO comment_views (id, workspace_id, platform, platform_comment_id, platform_post_id, post_id, account_id,
                                    author, text, sentiment, tags, post_title, url, commented_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (id) DO NOTHING`,
        [d.commentId, d.workspaceId, d.platform, d.platformCommentId, d.platformPostId, d.postId, d.accountId, d.author, d.text, d.sentiment, d.tags, d.postTitle, d.url, d.commentedAt, version],
      );
      return;
    }
    case 'CommentReplied':
      await client.query(
        'UPDATE comment_views SET replied = true, reply_ids = array_append(reply_ids, $3), version = $2 WHERE id = $1 AND version < $2',
        [event.data.commentId, version, event.data.replyPlatformId],
      );
      return;
    default: {
      const unknown: never = event;
      throw new Error(`unknown comment event ${JSON.stringify(unknown)}`);
    }
  }
}
