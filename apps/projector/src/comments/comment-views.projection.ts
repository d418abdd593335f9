import { PoolClient } from 'pg';
import { CommentEvent, CommentReceivedData } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { applyInRevisionOrder, ApplyOutcome, outcomeOfSkip, ReadStream } from '../in-revision-order';

/** The row a CommentReceived starts, in comment_views' column names. */
function receivedRow(recorded: RecordedEvent) {
  const d = recorded.data as CommentReceivedData;
  return {
    id: d.commentId,
    workspace_id: d.workspaceId,
    platform: d.platform,
    platform_comment_id: d.platformCommentId,
    platform_post_id: d.platformPostId,
    post_id: d.postId,
    account_id: d.accountId,
    author: d.author,
    text: d.text,
    sentiment: d.sentiment,
    tags: d.tags,
    post_title: d.postTitle,
    url: d.url,
    commented_at: d.commentedAt,
    version: Number(recorded.revision) + 1,
  };
}

/**
 * Inserts every received comment in one statement (a replay of a receipt
 * changes nothing), except the workspace's own first comments: ingestion can
 * see one on the platform before its FirstCommentPosted is projected, and the
 * post's view knows its own comment ids (see also ownCommentPosted).
 */
async function insertReceived(client: PoolClient, tables: ViewTables, received: RecordedEvent[]): Promise<void> {
  if (received.length === 0) return;
  await client.query(
    `INSERT INTO ${tables.commentViews} (id, workspace_id, platform, platform_comment_id, platform_post_id, post_id, account_id,
                           author, text, sentiment, tags, post_title, url, commented_at, version)
     SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, workspace_id uuid, platform text, platform_comment_id text, platform_post_id text,
       post_id uuid, account_id uuid, author text, text text, sentiment text, tags text[], post_title text, url text, commented_at timestamptz, version integer)
     WHERE NOT EXISTS (SELECT 1 FROM ${tables.postViews} p WHERE p.id = r.post_id AND r.platform_comment_id = ANY (p.own_comment_ids))
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(received.map(receivedRow))],
  );
}

/** The tables of one projection target (the live ones or a rebuild's). */
export interface ViewTables {
  postViews: string;
  commentViews: string;
  /** Ids of the deleted posts: a creation delivered after its deletion stays deleted. */
  postDeletions: string;
}

/** A first comment the workspace posted itself: if ingestion stored it first, it leaves the list. */
export async function ownCommentPosted(client: PoolClient, tables: ViewTables, postId: string, platformCommentId: string): Promise<void> {
  await client.query(`DELETE FROM ${tables.commentViews} WHERE post_id = $1 AND platform_comment_id = $2`, [postId, platformCommentId]);
}

/**
 * Applies a batch of the feed to a comment_views table (the live one or a
 * rebuild's), inside the caller's transaction. The row's version (events
 * applied) admits only the stream's next event: a replayed one changes
 * nothing, and one past a gap makes the row catch up from its stream
 * (applyInRevisionOrder). Events of other streams are not its business.
 */
export async function projectCommentEvents(client: PoolClient, events: RecordedEvent[], tables: ViewTables, readStream: ReadStream): Promise<void> {
  const table = tables.commentViews;
  const commentEvents = events.filter((e) => e.streamId.startsWith('comment-'));
  // CommentReceived is always its stream's first event: inserting the batch's receipts first keeps every comment's order.
  await insertReceived(client, tables, commentEvents.filter((e) => e.type === 'CommentReceived'));
  const apply = async (recorded: RecordedEvent): Promise<ApplyOutcome> => {
    const event = { type: recorded.type, data: recorded.data } as CommentEvent;
    switch (event.type) {
      case 'CommentReceived':
        // Only a catch-up gets here: the row, inserted now or before, carries the receipt (or it is the workspace's own comment).
        await insertReceived(client, tables, [recorded]);
        return outcomeOfSkip(client, table, event.data.commentId, recorded.revision);
      case 'CommentReplied': {
        const updated = await client.query(
          `UPDATE ${table} SET replied = true, reply_ids = array_append(reply_ids, $3), version = $2 WHERE id = $1 AND version = $2 - 1`,
          [event.data.commentId, Number(recorded.revision) + 1, event.data.replyPlatformId],
        );
        return updated.rowCount === 1 ? 'applied' : outcomeOfSkip(client, table, event.data.commentId, recorded.revision);
      }
      default: {
        const unknown: never = event;
        throw new Error(`unknown comment event ${JSON.stringify(unknown)}`);
      }
    }
  };
  await applyInRevisionOrder(commentEvents.filter((e) => e.type !== 'CommentReceived'), apply, readStream);
}
