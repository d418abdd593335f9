import { Pool } from 'pg';
import { capabilitiesOf, COMMENT_CAPABILITIES, CommentListItem, CommentSentiment, CommentThreadEntry, OwnReplyItem, Platform } from '@app/contracts';
import { decodeListCursor, encodeListCursor, keyset, ListPage, toPage } from '../list-cursor';
import { StoredCommentReply } from './comment-views';

interface CommentViewRow {
  id: string;
  platform_comment_id: string;
  platform: string;
  post_id: string;
  account_id: string;
  author: string;
  text: string;
  sentiment: CommentSentiment;
  tags: string[];
  replied: boolean;
  post_title: string | null;
  url: string | null;
  commented_at: Date;
  parent_comment_id: string | null;
  hidden: boolean;
}

/** The list's columns, in the order of CommentViewRow. */
const LIST_COLUMNS = 'id, platform_comment_id, platform, post_id, account_id, author, text, sentiment, tags, replied, post_title, url, commented_at, parent_comment_id, hidden';

/** Comments a thread answers at most (a thread longer than this answers its oldest). */
export const THREAD_MAX_COMMENTS = 200;

export interface CommentListFilter {
  platform?: Platform;
  sentiment?: CommentSentiment;
  /** Only comments carrying this intent tag (e.g. question). */
  tag?: string;
  /** Only comments under this post of the service. */
  postId?: string;
  unreplied: boolean;
  limit: number;
  /** nextCursor of the previous page, read with the same filters. */
  cursor?: string;
}

function toListItem(row: CommentViewRow): CommentListItem {
  return {
    platformCommentId: row.platform_comment_id,
    platform: row.platform,
    postId: row.post_id,
    accountId: row.account_id,
    author: row.author,
    text: row.text,
    sentiment: row.sentiment,
    tags: row.tags,
    replied: row.replied,
    postTitle: row.post_title,
    url: row.url,
    createdAt: row.commented_at.toISOString(),
    parentCommentId: row.parent_comment_id,
    hidden: row.hidden,
    ...capabilityFlags(row.platform as Platform, row.parent_comment_id),
  };
}

/** What the platform lets the workspace do with this comment (capabilitiesOf: a nested reply on Threads cannot be hidden). */
function capabilityFlags(platform: Platform, parentCommentId: string | null): Pick<CommentListItem, 'canReply' | 'canHide' | 'canDelete'> {
  const can = capabilitiesOf({ platform, parentCommentId });
  return { canReply: can.reply, canHide: can.hide, canDelete: can.deleteOwnReply };
}

function toOwnReplyItem(platform: Platform, parentCommentId: string, reply: StoredCommentReply): OwnReplyItem {
  return { kind: 'reply', replyId: reply.replyId, platform, parentCommentId, accountId: reply.accountId, repliedAs: reply.repliedAs, text: reply.text, createdAt: reply.createdAt, canDelete: COMMENT_CAPABILITIES[platform].deleteOwnReply };
}

/** The query behind GET /api/v1/comments; always scoped to one workspace. */
export class CommentViewsReader {
  constructor(private readonly pool: Pool) {}

  /**
   * One page, newest first (when the comment was made, then id for a stable
   * order), after the position a cursor names; commented_at never changes, so
   * the keyset holds while comments arrive. A cursor only continues the filters it was issued for.
   */
  async list(workspaceId: string, filter: CommentListFilter): Promise<ListPage<CommentListItem>> {
    const params: unknown[] = [workspaceId, filter.limit + 1];
    const boundTo = { platform: filter.platform, sentiment: filter.sentiment, tag: filter.tag, postId: filter.postId, unreplied: filter.unreplied ? '1' : undefined };
    const where = ['workspace_id = $1'];
    if (filter.platform) where.push(`platform = $${params.push(filter.platform)}`);
    if (filter.sentiment) where.push(`sentiment = $${params.push(filter.sentiment)}`);
    if (filter.tag) where.push(`tags @> ARRAY[$${params.push(filter.tag)}]::text[]`);
    if (filter.postId) where.push(`post_id = $${params.push(filter.postId)}`);
    if (filter.unreplied) where.push('NOT replied');
    if (filter.cursor !== undefined) where.push(keyset.after('commented_at', params, decodeListCursor(filter.cursor, 'comments', boundTo)));
    const { rows } = await this.pool.query<CommentViewRow & { sort_key_micros: string }>(
      `SELECT ${LIST_COLUMNS}, ${keyset.sortKeyMicros('commented_at')}
       FROM comment_views WHERE ${where.join(' AND ')} ORDER BY commented_at DESC, id DESC LIMIT $2`,
      params,
    );
    return toPage(rows, filter.limit, toListItem, (position) => encodeListCursor('comments', boundTo, position));
  }

  /**
   * The thread under one stored comment, oldest first: the comments that reply
   * to it and the workspace's live replies to it. null when the workspace has
   * no such comment on that platform.
   */
  async thread(workspaceId: string, platform: Platform, platformCommentId: string): Promise<CommentThreadEntry[] | null> {
    const { rows: parents } = await this.pool.query<{ replies: StoredCommentReply[] }>(
      'SELECT replies FROM comment_views WHERE workspace_id = $1 AND platform = $2 AND platform_comment_id = $3',
      [workspaceId, platform, platformCommentId],
    );
    if (!parents[0]) return null;
    const { rows } = await this.pool.query<CommentViewRow>(
      `SELECT ${LIST_COLUMNS} FROM comment_views WHERE workspace_id = $1 AND platform = $2 AND parent_comment_id = $3 ORDER BY commented_at, id LIMIT $4`,
      [workspaceId, platform, platformCommentId, THREAD_MAX_COMMENTS],
    );
    const entries: CommentThreadEntry[] = [
      ...rows.map((row): CommentThreadEntry => ({ kind: 'comment', ...toListItem(row) })),
      ...parents[0].replies.map((reply) => toOwnReplyItem(platform, platformCommentId, reply)),
    ];
    return entries.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }
}
