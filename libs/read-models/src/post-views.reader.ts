import { Pool } from 'pg';
import { PostDetail, PostListItem, PostStatus } from '@app/contracts';

interface PostViewRow {
  id: string;
  content: string;
  platforms: string[];
  status: PostStatus;
  scheduled_at: Date | null;
  published_at: Date | null;
  results: PostListItem['results'];
  error_message: string | null;
  created_at: Date;
}

const LIST_COLUMNS = 'id, content_preview AS content, platforms, status, scheduled_at, published_at, results, error_message, created_at';

function toListItem(row: PostViewRow): PostListItem {
  return {
    id: row.id,
    content: row.content,
    platforms: row.platforms,
    status: row.status,
    scheduledAt: row.scheduled_at?.toISOString() ?? null,
    publishedAt: row.published_at?.toISOString() ?? null,
    results: row.results,
    errorMessage: row.error_message,
    createdAt: row.created_at.toISOString(),
  };
}

/** Queries behind GET /api/v1/posts and GET /api/v1/posts/:id; always scoped to one workspace. */
export class PostViewsReader {
  constructor(private readonly pool: Pool) {}

  /** Newest first (created_at, then id: ids are time-ordered UUIDv7). */
  async list(workspaceId: string, filter: { status?: PostStatus; limit: number }): Promise<PostListItem[]> {
    const params: unknown[] = [workspaceId, filter.limit];
    const byStatus = filter.status ? `AND status = $${params.push(filter.status)}` : '';
    const { rows } = await this.pool.query<PostViewRow>(
      `SELECT ${LIST_COLUMNS} FROM post_views WHERE workspace_id = $1 ${byStatus} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    return rows.map(toListItem);
  }

  async get(workspaceId: string, id: string): Promise<PostDetail | null> {
    const { rows } = await this.pool.query<PostViewRow & { accounts: PostDetail['accounts']; media_urls: string[]; first_comments: string[]; version: number }>(
      `SELECT id, content, platforms, status, scheduled_at, published_at, results, error_message, created_at,
              accounts, media_urls, first_comments, version
       FROM post_views WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    const row = rows[0];
    if (!row) return null;
    return { ...toListItem(row), accounts: row.accounts, mediaUrls: row.media_urls, firstComments: row.first_comments, version: row.version };
  }
}
