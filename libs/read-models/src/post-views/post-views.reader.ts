import { Pool } from 'pg';
import { ApprovalState, AltTexts, FirstCommentResult, PostApproval, PlatformOptions, PostDetail, PostListItem, PostOverrides, PostStatus, ThreadPart, ThreadPartResult } from '@app/contracts';
import { prepared, SameMomentReads } from '@app/database';
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
  approval: PostApproval | null;
  metrics: PostListItem['metrics'];
}

/** The post's analytics summary from the post_metrics read model (null before its first collection). */
const METRICS_COLUMN = `(SELECT jsonb_build_object('likes', m.likes, 'comments', m.comments, 'shares', m.shares, 'impressions', m.impressions)
   FROM post_metrics m WHERE m.id = post_views.id) AS metrics`;

const LIST_COLUMNS = `id, content_preview AS content, platforms, status, scheduled_at, published_at, results, error_message, created_at, approval, ${METRICS_COLUMN}`;

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
    // Only on a post held for review: the spec's shape otherwise.
    ...(row.approval ? { approval: row.approval } : {}),
    metrics: row.metrics ?? null,
  };
}

type PostDetailRow = PostViewRow & {
  workspace_id: string;
  accounts: PostDetail['accounts'];
  media_urls: string[];
  alt_text: AltTexts;
  first_comments: string[];
  thread: ThreadPart[];
  auto_split: boolean;
  thread_results: Record<string, ThreadPartResult[]>;
  first_comment_results: Record<string, FirstCommentResult[]>;
  overrides: PostOverrides;
  platform_options: PlatformOptions;
  version: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Queries behind GET /api/v1/posts and GET /api/v1/posts/:id; always scoped to one workspace. */
export class PostViewsReader {
  /**
   * The posts asked for in the same moment, read in one statement: the answers to the commands one
   * projection advance releases all read their post at once (the workspace is checked on each row).
   */
  private readonly detailRows = new SameMomentReads<string, PostDetailRow>(async (ids) => {
    const { rows } = await this.pool.query<PostDetailRow>(
      prepared(
        `SELECT id, workspace_id, content, platforms, status, scheduled_at, published_at, results, error_message, created_at, approval, ${METRICS_COLUMN},
                accounts, media_urls, alt_text, first_comments, thread, auto_split, thread_results, first_comment_results, overrides, platform_options, version
         FROM post_views WHERE id = ANY($1::uuid[])`,
        [ids],
      ),
    );
    return new Map(rows.map((row) => [row.id, row]));
  });

  constructor(private readonly pool: Pool) {}

  /**
   * One page, newest first (created_at, then id: ids are time-ordered UUIDv7),
   * after the position a cursor names; created_at never changes, so the keyset
   * holds while posts are created. A cursor only continues the filters (status, from, to, approval state) it was issued for.
   */
  async list(workspaceId: string, filter: { status?: PostStatus; approval?: ApprovalState; limit: number; cursor?: string; from?: string; to?: string }): Promise<ListPage<PostListItem>> {
    const params: unknown[] = [workspaceId, filter.limit + 1];
    // approval bound only when given, so a cursor issued before the approval filter existed still continues.
    const boundTo = { status: filter.status, from: filter.from, to: filter.to, ...(filter.approval ? { approval: filter.approval } : {}) };
    const where = ['workspace_id = $1'];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.approval) where.push(`approval IS NOT NULL AND approval->>'state' = $${params.push(filter.approval)}`);
    // from/to: a post whose scheduled time or published time falls in [from, to); a post with neither (a draft) is outside any range.
    if (filter.from !== undefined || filter.to !== undefined) {
      const from = params.push(filter.from === undefined ? null : new Date(filter.from));
      const to = params.push(filter.to === undefined ? null : new Date(filter.to));
      const within = (column: string) => `(${column} IS NOT NULL AND ($${from}::timestamptz IS NULL OR ${column} >= $${from}) AND ($${to}::timestamptz IS NULL OR ${column} < $${to}))`;
      where.push(`(${within('scheduled_at')} OR ${within('published_at')})`);
    }
    if (filter.cursor !== undefined) where.push(keyset.after('created_at', params, decodeListCursor(filter.cursor, 'posts', boundTo)));
    const { rows } = await this.pool.query<PostViewRow & { sort_key_micros: string }>(
      `SELECT ${LIST_COLUMNS}, ${keyset.sortKeyMicros('created_at')} FROM post_views WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    return toPage(rows, filter.limit, toListItem, (position) => encodeListCursor('posts', boundTo, position));
  }

  async get(workspaceId: string, id: string): Promise<PostDetail | null> {
    const row = UUID.test(id) ? await this.detailRows.get(id.toLowerCase()) : undefined;
    // A post of another workspace does not exist for the caller.
    if (!row || row.workspace_id !== workspaceId) return null;
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
