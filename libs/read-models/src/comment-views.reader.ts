import { Pool } from 'pg';
import { CommentListItem, CommentSentiment, Platform } from '@app/contracts';
import { decodeListCursor, encodeListCursor, keyset, ListPage, toPage } from './list-cursor';

interface CommentViewRow {
  id: string;
  platform_comment_id: string;
  platform: string;
  author: string;
  text: string;
  sentiment: CommentSentiment;
  tags: string[];
  replied: boolean;
  post_title: string | null;
  url: string | null;
  commented_at: Date;
}

export interface CommentListFilter {
  platform?: Platform;
  sentiment?: CommentSentiment;
  /** Only comments the workspace has not answered yet. */
  unreplied: boolean;
  limit: number;
  /** nextCursor of the previous page, read with the same filters. */
  cursor?: string;
}

function toListItem(row: CommentViewRow): CommentListItem {
  return {
    platformCommentId: row.platform_comment_id,
    platform: row.platform,
    author: row.author,
    text: row.text,
    sentiment: row.sentiment,
    tags: row.tags,
    replied: row.replied,
    postTitle: row.post_title,
    url: row.url,
    createdAt: row.commented_at.toISOString(),
  };
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
    const boundTo = { platform: filter.platform, sentiment: filter.sentiment, unreplied: filter.unreplied ? '1' : undefined };
    const where = ['workspace_id = $1'];
    if (filter.platform) where.push(`platform = $${params.push(filter.platform)}`);
    if (filter.sentiment) where.push(`sentiment = $${params.push(filter.sentiment)}`);
    if (filter.unreplied) where.push('NOT replied');
    if (filter.cursor !== undefined) where.push(keyset.after('commented_at', params, decodeListCursor(filter.cursor, 'comments', boundTo)));
    const { rows } = await this.pool.query<CommentViewRow & { sort_key_micros: string }>(
      `SELECT id, platform_comment_id, platform, author, text, sentiment, tags, replied, post_title, url, commented_at, ${keyset.sortKeyMicros('commented_at')}
       FROM comment_views WHERE ${where.join(' AND ')} ORDER BY commented_at DESC, id DESC LIMIT $2`,
      params,
    );
    return toPage(rows, filter.limit, toListItem, (position) => encodeListCursor('comments', boundTo, position));
  }
}
