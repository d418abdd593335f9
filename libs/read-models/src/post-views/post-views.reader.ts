import { Pool } from 'pg';
import { AltTexts, FirstCommentResult, PlatformOptions, PostDetail, PostListItem, PostOverrides, PostStatus, ThreadPart, ThreadPartResult } from '@app/contracts';
import { decodeListCursor, encodeListCursor, keyset, ListPage, toPage } from '../list-cursor';

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
  metrics: PostListItem['metrics'];
}

/** The post's analytics summary from the post_metrics read model (null before its first collection). */
const METRICS_COLUMN = `(SELECT jsonb_build_object('likes', m.likes, 'comments', m.comments, 'shares', m.shares, 'impressions', m.impressions)
   FROM post_metrics m WHERE m.id = post_views.id) AS metrics`;

const LIST_COLUMNS = `id, content_preview AS content, platforms, status, scheduled_at, published_at, results, error_message, created_at, ${METRICS_COLUMN}`;

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
    metrics: row.metrics ?? null,
  };
}

/** Queries behind GET /api/v1/posts and GET /api/v1/posts/:id; always scoped to one workspace. */
export class PostViewsReader {
  constructor(private readonly pool: Pool) {}

  /**
   * One page, newest first (created_at, then id: ids are time-ordered UUIDv7),
   * after the position a cursor names; created_at never changes, so the keyset
   * holds while posts are created. A cursor only continues the status it was issued for.
   */
  async list(workspaceId: string, filter: { status?: PostStatus; limit: number; cursor?: string }): Promise<ListPage<PostListItem>> {
    const params: unknown[] = [workspaceId, filter.limit + 1];
    const boundTo = { status: filter.status };
    const where = ['workspace_id = $1'];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.cursor !== undefined) where.push(keyset.after('created_at', params, decodeListCursor(filter.cursor, 'posts', boundTo)));
    const { rows } = await this.pool.query<PostViewRow & { sort_key_micros: string }>(
      `SELECT ${LIST_COLUMNS}, ${keyset.sortKeyMicros('created_at')} FROM post_views WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    return toPage(rows, filter.limit, toListItem, (position) => encodeListCursor('posts', boundTo, position));
  }

  async get(workspaceId: string, id: string): Promise<PostDetail | null> {
    const { rows } = await this.pool.query<
      PostViewRow & { accounts: PostDetail['accounts']; media_urls: string[]; alt_text: AltTexts; first_comments: string[]; thread: ThreadPart[]; auto_split: boolean; thread_results: Record<string, ThreadPartResult[]>; first_comment_results: Record<string, FirstCommentResult[]>; overrides: PostOverrides; platform_options: PlatformOptions; version: number }
    >(
      `SELECT id, content, platforms, status, scheduled_at, published_at, results, error_message, created_at, ${METRICS_COLUMN},
              accounts, media_urls, alt_text, first_comments, thread, auto_split, thread_results, first_comment_results, overrides, platform_options, version
       FROM post_views WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    const row = rows[0];
    if (!row) return null;
    // altText only when some item has one: [] is "none", and the spec's post shape stays as it was without.
    const altText = row.alt_text.length > 0 ? { altText: row.alt_text } : {};
    // thread, autoSplit and threadResults only when the post has them: a post without a thread keeps the spec's shape.
    const thread = row.thread.length > 0 ? { thread: row.thread.map(({ altText: partAlt, ...part }) => (partAlt.length > 0 ? { ...part, altText: partAlt } : part)) } : {};
    const autoSplit = row.auto_split ? { autoSplit: true } : {};
    const threadResults = Object.keys(row.thread_results).length > 0 ? { threadResults: row.thread_results } : {};
    const firstCommentResults = Object.keys(row.first_comment_results).length > 0 ? { firstCommentResults: row.first_comment_results } : {};
    // overrides and platformOptions as stored, only when the post has them (the spec's shape without).
    const overrides = Object.keys(row.overrides).length > 0 ? { overrides: row.overrides } : {};
    const platformOptions = Object.keys(row.platform_options).length > 0 ? { platformOptions: row.platform_options } : {};
    return { ...toListItem(row), accounts: row.accounts, mediaUrls: row.media_urls, ...altText, firstComments: row.first_comments, ...thread, ...autoSplit, ...threadResults, ...firstCommentResults, ...overrides, ...platformOptions, version: row.version };
  }
}
