import { Pool } from 'pg';
import {
  AccountAnalyticsView,
  AccountItemMetrics,
  FollowersPoint,
  ItemMetrics,
  ItemMetricsPoint,
  METRIC_NAMES,
  MetricName,
  MetricsCollectionError,
  PostMetricsView,
  TopPostItem,
  TopPostsView,
} from '@app/contracts';

export interface TopPostsFilter {
  from?: Date;
  to?: Date;
  platform?: string;
  accountId?: string;
  sort: MetricName;
  limit: number;
}

interface ItemRow {
  account_id: string;
  platform: string;
  platform_post_id: string;
  published_at: Date;
  metrics: ItemMetrics | null;
  collected_at: Date | null;
  error: MetricsCollectionError | null;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Null where no item gave the metric, else the sum of those that did. */
function sumOf(items: Array<ItemMetrics | null>, name: MetricName): number | null {
  const given = items.map((m) => m?.[name]).filter((v): v is number => typeof v === 'number');
  return given.length > 0 ? given.reduce((a, b) => a + b, 0) : null;
}

/**
 * Queries behind the analytics endpoints, over the post_metrics and account_metrics
 * read models; always scoped to one workspace (a foreign post or account is unknown).
 */
export class MetricsViewsReader {
  constructor(private readonly pool: Pool) {}

  /**
   * A post's numbers per account: every account it was published on (from post_views'
   * results), with its latest numbers once collected; the history when asked. Null when
   * the workspace has no such post.
   */
  async postMetrics(workspaceId: string, postId: string, withHistory: boolean): Promise<PostMetricsView | null> {
    const { rows: posts } = await this.pool.query<{ published_at: Date | null }>('SELECT published_at FROM post_views WHERE workspace_id = $1 AND id = $2', [workspaceId, postId]);
    if (!posts[0]) return null;
    const { rows } = await this.pool.query<ItemRow>(
      `SELECT r->>'accountId' AS account_id, r->>'platform' AS platform, r->>'postId' AS platform_post_id,
              COALESCE(i.published_at, p.published_at) AS published_at, i.metrics, i.collected_at, i.error
       FROM post_views p CROSS JOIN LATERAL jsonb_array_elements(p.results) r
       LEFT JOIN post_metric_items i ON i.post_id = p.id AND i.account_id = (r->>'accountId')::uuid
       WHERE p.workspace_id = $1 AND p.id = $2 AND r @> '{"success": true}'
       ORDER BY r->>'platform', r->>'accountId'`,
      [workspaceId, postId],
    );
    const history = withHistory ? await this.itemHistory(postId) : null;
    const accounts: AccountItemMetrics[] = rows.map((row) => ({
      accountId: row.account_id,
      platform: row.platform,
      platformPostId: row.platform_post_id,
      publishedAt: row.published_at.toISOString(),
      metrics: row.metrics,
      collectedAt: iso(row.collected_at),
      error: row.error,
      ...(history ? { history: history.get(row.account_id) ?? [] } : {}),
    }));
    const latest = accounts.map((a) => a.metrics);
    return {
      postId,
      summary: { likes: sumOf(latest, 'likes'), comments: sumOf(latest, 'comments'), shares: sumOf(latest, 'shares'), impressions: sumOf(latest, 'impressions') },
      accounts,
    };
  }

  /** Each account's observations of the post, oldest first. */
  private async itemHistory(postId: string): Promise<Map<string, ItemMetricsPoint[]>> {
    const { rows } = await this.pool.query<{ account_id: string; observed_at: Date; metrics: ItemMetrics }>(
      'SELECT account_id, observed_at, metrics FROM post_metric_observations WHERE post_id = $1 ORDER BY account_id, observed_at',
      [postId],
    );
    const byAccount = new Map<string, ItemMetricsPoint[]>();
    for (const row of rows) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), { observedAt: row.observed_at.toISOString(), metrics: row.metrics }]);
    return byAccount;
  }

  /**
   * Top items (an account's copy of a post) by one metric, highest first, among those
   * published in [from, to); items without that number come last, then newest first.
   */
  async topPosts(workspaceId: string, filter: TopPostsFilter): Promise<TopPostsView> {
    // sort is one of METRIC_NAMES (checked by the caller's DTO and here): safe to name in the SQL as a literal key.
    if (!(METRIC_NAMES as readonly string[]).includes(filter.sort)) throw new Error(`unknown metric ${filter.sort}`);
    const params: unknown[] = [workspaceId, filter.limit];
    const where = ['workspace_id = $1', 'metrics IS NOT NULL'];
    if (filter.from) where.push(`published_at >= $${params.push(filter.from)}`);
    if (filter.to) where.push(`published_at < $${params.push(filter.to)}`);
    if (filter.platform) where.push(`platform = $${params.push(filter.platform)}`);
    if (filter.accountId) where.push(`account_id = $${params.push(filter.accountId)}`);
    const { rows } = await this.pool.query<ItemRow & { post_id: string }>(
      `SELECT post_id, account_id, platform, platform_post_id, published_at, metrics, collected_at FROM post_metric_items
       WHERE ${where.join(' AND ')}
       ORDER BY (metrics->>'${filter.sort}')::bigint DESC NULLS LAST, published_at DESC, post_id, account_id LIMIT $2`,
      params,
    );
    const items: TopPostItem[] = rows.map((row) => ({
      postId: row.post_id,
      accountId: row.account_id,
      platform: row.platform,
      platformPostId: row.platform_post_id,
      publishedAt: row.published_at.toISOString(),
      metrics: row.metrics!,
      collectedAt: row.collected_at!.toISOString(),
    }));
    return { sort: filter.sort, items };
  }

  /**
   * An account's follower curve over [from, to) and the totals of its items published
   * in that range. Null when the workspace has no such account.
   */
  async accountAnalytics(workspaceId: string, accountId: string, range: { from?: Date; to?: Date }): Promise<AccountAnalyticsView | null> {
    const { rows: accounts } = await this.pool.query<{ platform: string; followers: string | null; collected_at: Date | null }>(
      `SELECT a.platform, m.followers, m.collected_at FROM accounts a LEFT JOIN account_metrics m ON m.id = a.id WHERE a.workspace_id = $1 AND a.id = $2`,
      [workspaceId, accountId],
    );
    const account = accounts[0];
    if (!account) return null;
    const from = range.from ?? new Date(0);
    const to = range.to ?? new Date('9999-01-01T00:00:00Z');
    const { rows: points } = await this.pool.query<{ observed_at: Date; followers: string | null }>(
      'SELECT observed_at, followers FROM account_metric_observations WHERE account_id = $1 AND observed_at >= $2 AND observed_at < $3 ORDER BY observed_at',
      [accountId, from, to],
    );
    const history: FollowersPoint[] = points.map((p) => ({ observedAt: p.observed_at.toISOString(), followers: p.followers === null ? null : Number(p.followers) }));
    const counted = history.filter((p) => p.followers !== null);
    const { rows: items } = await this.pool.query<{ metrics: ItemMetrics | null }>(
      'SELECT metrics FROM post_metric_items WHERE workspace_id = $1 AND account_id = $2 AND published_at >= $3 AND published_at < $4',
      [workspaceId, accountId, from, to],
    );
    const latest = items.map((i) => i.metrics);
    const totals = Object.fromEntries(METRIC_NAMES.map((name) => [name, sumOf(latest, name)])) as ItemMetrics;
    return {
      accountId,
      platform: account.platform,
      followers: account.followers === null ? null : Number(account.followers),
      collectedAt: iso(account.collected_at),
      followersChange: counted.length >= 2 ? counted.at(-1)!.followers! - counted[0].followers! : null,
      totals: { ...totals, posts: items.length },
      history,
    };
  }
}
