import { PoolClient } from 'pg';
import { CommentEvent, CommentReceivedData } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { StoredCommentReply } from '@app/read-models';
import { applyInRevisionOrder, ApplyOutcome, ReadStream, skipReason } from '../in-revision-order';
import { Tables } from '../read-model';
import { recordOwnFirstComments } from './own-first-comments';

/** The comment_views read model's tables: its rows, and the workspace's own first comments, kept out of them (see own-first-comments.ts). */
export type CommentViewsTables = Tables<'commentViews' | 'ownComments'>;

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
    // Absent from receipts written before threads were stored.
    parent_comment_id: d.parentCommentId ?? null,
    version: Number(recorded.revision) + 1,
  };
}

/**
 * Inserts every received comment in one statement (a replay of a receipt
 * changes nothing), except the workspace's own first comments (recordOwnFirstComments).
 */
async function insertReceived(client: PoolClient, tables: CommentViewsTables, received: RecordedEvent[]): Promise<void> {
  if (received.length === 0) return;
  await client.query(
    `INSERT INTO ${tables.commentViews} (id, workspace_id, platform, platform_comment_id, platform_post_id, post_id, account_id,
                           author, text, sentiment, tags, post_title, url, commented_at, parent_comment_id, version)
     SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, workspace_id uuid, platform text, platform_comment_id text, platform_post_id text,
       post_id uuid, account_id uuid, author text, text text, sentiment text, tags text[], post_title text, url text, commented_at timestamptz,
       parent_comment_id text, version integer)
     WHERE NOT EXISTS (SELECT 1 FROM ${tables.ownComments} o WHERE o.post_id = r.post_id AND o.platform_comment_id = r.platform_comment_id)
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(received.map(receivedRow))],
  );
}

/** What the events after a comment's receipt change on its row. */
interface CommentRowState {
  id: string;
  replied: boolean;
  /** Every reply ever posted, deleted ones too: ingestion never takes one for a new comment. */
  reply_ids: string[];
  /** The live replies, oldest first. */
  replies: StoredCommentReply[];
  hidden: boolean;
  sentiment: string;
  tags: string[];
  version: number;
}

type LaterCommentEvent = Exclude<CommentEvent, { type: 'CommentReceived' }>;

/** One event after the receipt, on the row it changes. */
function applyToRow(row: CommentRowState, event: LaterCommentEvent): void {
  switch (event.type) {
    case 'CommentReplied': {
      const { replyPlatformId, accountId, repliedAs, message, repliedAt } = event.data;
      row.reply_ids = [...row.reply_ids, replyPlatformId];
      row.replies = [...row.replies, { replyId: replyPlatformId, accountId, repliedAs, text: message, createdAt: repliedAt }];
      break;
    }
    case 'CommentReplyStarted':
      // Not live yet: the list shows the reply once CommentReplied records it.
      break;
    case 'CommentReplyDeleted':
      row.replies = row.replies.filter((reply) => reply.replyId !== event.data.replyPlatformId);
      break;
    case 'CommentHidden':
      row.hidden = true;
      break;
    case 'CommentUnhidden':
      row.hidden = false;
      break;
    case 'CommentReclassified':
      row.sentiment = event.data.sentiment;
      row.tags = event.data.tags;
      break;
    default: {
      const unknown: never = event;
      throw new Error(`unknown comment event ${JSON.stringify(unknown)}`);
    }
  }
  // Replied while a reply of the workspace is live: deleting the last one makes the comment unanswered again.
  row.replied = row.replies.length > 0;
}

/**
 * A batch's comment rows folded in memory: the rows its replies touch are
 * read once (locked), every event is applied under the version rule, and each
 * changed row is written once.
 */
class CommentViewsFold {
  private readonly rows = new Map<string, CommentRowState>();
  private readonly changed = new Set<string>();

  private constructor(
    private readonly client: PoolClient,
    private readonly tables: CommentViewsTables,
  ) {}

  static async load(client: PoolClient, tables: CommentViewsTables, commentIds: string[]): Promise<CommentViewsFold> {
    const fold = new CommentViewsFold(client, tables);
    await fold.read(commentIds);
    return fold;
  }

  private async read(commentIds: string[]): Promise<void> {
    const { rows } = await this.client.query<CommentRowState>(
      `SELECT id, replied, reply_ids, replies, hidden, sentiment, tags, version FROM ${this.tables.commentViews} WHERE id = ANY($1::uuid[]) FOR UPDATE`,
      [commentIds],
    );
    for (const row of rows) this.rows.set(row.id, row);
  }

  async apply(recorded: RecordedEvent): Promise<ApplyOutcome> {
    const event = { type: recorded.type, data: recorded.data } as CommentEvent;
    switch (event.type) {
      case 'CommentReceived': {
        // Only a catch-up gets here: the row, inserted now or before, carries the receipt (or it is the workspace's own comment).
        const commentId = event.data.commentId;
        if (!this.rows.has(commentId)) {
          await insertReceived(this.client, this.tables, [recorded]);
          await this.read([commentId]);
        }
        return skipReason(this.rows.get(commentId)?.version, recorded.revision) ?? 'replayed';
      }
      default: {
        const row = this.rows.get(event.data.commentId);
        const skipped = skipReason(row?.version, recorded.revision);
        if (skipped || !row) return skipped ?? 'absent';
        applyToRow(row, event);
        row.version += 1;
        this.changed.add(row.id);
        return 'applied';
      }
    }
  }

  async write(): Promise<void> {
    if (this.changed.size === 0) return;
    await this.client.query(
      `UPDATE ${this.tables.commentViews} c
       SET replied = r.replied, reply_ids = r.reply_ids, replies = r.replies, hidden = r.hidden, sentiment = r.sentiment, tags = r.tags, version = r.version
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, replied boolean, reply_ids text[], replies jsonb, hidden boolean, sentiment text, tags text[], version integer)
       WHERE c.id = r.id`,
      [JSON.stringify([...this.changed].map((id) => this.rows.get(id)))],
    );
  }
}

/**
 * Applies a batch of the feed to a comment_views table (the live one or a
 * rebuild's), inside the caller's transaction. The row's version (events
 * applied) admits only the stream's next event: a replayed one changes
 * nothing, and one past a gap makes the row catch up from its stream
 * (applyInRevisionOrder). Of the other streams' events it reads only the
 * workspace's own first comments.
 */
export async function projectCommentEvents(client: PoolClient, events: RecordedEvent[], tables: CommentViewsTables, readStream: ReadStream): Promise<void> {
  await recordOwnFirstComments(client, tables, events);
  const commentEvents = events.filter((e) => e.streamId.startsWith('comment-'));
  // CommentReceived is always its stream's first event: inserting the batch's receipts first keeps every comment's order.
  await insertReceived(client, tables, commentEvents.filter((e) => e.type === 'CommentReceived'));
  const later = commentEvents.filter((e) => e.type !== 'CommentReceived');
  if (later.length === 0) return;
  const fold = await CommentViewsFold.load(client, tables, [...new Set(later.map((e) => (e.data as { commentId: string }).commentId))]);
  await applyInRevisionOrder(later, (event) => fold.apply(event), readStream);
  await fold.write();
}
