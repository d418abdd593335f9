import { Pool } from 'pg';
import { CommentListItem, CommentSentiment, Platform } from '@app/contracts';

interface CommentViewRow {
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

  /** Newest first (when the comment was made, then id for a stable order). */
  async list(workspaceId: string, filter: CommentListFilter): Promise<CommentListItem[]> {
    const params: unknown[] = [workspaceId, filter.limit];
    const where = ['workspace_id = $1'];
    if (filter.platform) where.push(`platform = $${params.push(filter.platform)}`);
    if (filter.sentiment) where.push(`sentiment = $${params.push(filter.sentiment)}`);
    if (filter.unreplied) where.push('NOT replied');
    const { rows } = await this.pool.query<CommentViewRow>(
      `SELECT platform_comment_id, platform, author, text, sentiment, tags, replied, post_title, url, commented_at
       FROM comment_views WHERE ${where.join(' AND ')} ORDER BY commented_at DESC, id DESC LIMIT $2`,
      params,
    );
    return rows.map(toListItem);
  }
}
