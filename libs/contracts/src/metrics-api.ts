import type { ItemMetrics, MetricName } from './metrics';

/** The four numbers GET /api/v1/posts shows per post: summed over its accounts, null when no account gave that number yet. */
export const POST_SUMMARY_METRICS = ['likes', 'comments', 'shares', 'impressions'] as const satisfies readonly MetricName[];
export type PostMetricsSummary = Record<(typeof POST_SUMMARY_METRICS)[number], number | null>;

/** One point of an item's curve. */
export interface ItemMetricsPoint {
  observedAt: string;
  metrics: ItemMetrics;
}

/** A refused collection the API reports beside the last numbers. */
export interface MetricsCollectionError {
  code: string;
  message: string;
  failedAt: string;
}

/** One account's copy of a post in GET /api/v1/posts/:id/metrics. */
export interface AccountItemMetrics {
  accountId: string;
  platform: string;
  platformPostId: string;
  publishedAt: string;
  /** The latest numbers; null before the first collection. */
  metrics: ItemMetrics | null;
  collectedAt: string | null;
  /** The last refusal since the last successful collection, if any. */
  error: MetricsCollectionError | null;
  /** Oldest first; only with ?history=1. */
  history?: ItemMetricsPoint[];
}

/** GET /api/v1/posts/:id/metrics. */
export interface PostMetricsView {
  postId: string;
  summary: PostMetricsSummary;
  accounts: AccountItemMetrics[];
}

/** One entry of GET /api/v1/analytics/posts (top posts): one account's copy of a post. */
export interface TopPostItem {
  postId: string;
  accountId: string;
  platform: string;
  platformPostId: string;
  publishedAt: string;
  metrics: ItemMetrics;
  collectedAt: string;
}

export interface TopPostsView {
  sort: MetricName;
  items: TopPostItem[];
}

/** One point of an account's follower curve. */
export interface FollowersPoint {
  observedAt: string;
  followers: number | null;
}

/** GET /api/v1/analytics/accounts/:id. */
export interface AccountAnalyticsView {
  accountId: string;
  platform: string;
  /** The latest count; null when never collected (or the platform does not give it). */
  followers: number | null;
  collectedAt: string | null;
  /** Followers gained over the range (last minus first point in it); null with fewer than two counts. */
  followersChange: number | null;
  /** The account's items published in the range, their latest numbers summed (null where none gave one). */
  totals: ItemMetrics & { posts: number };
  history: FollowersPoint[];
}
