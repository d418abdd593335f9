/**
 * The one vocabulary of analytics across platforms. Every connector maps its platform's own
 * numbers onto these names; a number the platform does not give is null (never 0), so "not
 * measured" is never mistaken for "nobody did it". The platform's own fields travel beside
 * them in `raw`. Per platform, each metric's source field and documentation page: README,
 * "Analytics: the vocabulary".
 */
export const METRIC_NAMES = ['impressions', 'reach', 'likes', 'comments', 'shares', 'saves', 'clicks', 'videoViews'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type ItemMetrics = Record<MetricName, number | null>;

/** One reading of a published item's numbers, as the platform gave them at the time of the call. */
export interface ItemMetricsReading {
  metrics: ItemMetrics;
  raw: Record<string, unknown>;
}

/** One reading of an account's numbers (followers, subscribers on YouTube). */
export interface AccountMetricsReading {
  followers: number | null;
  raw: Record<string, unknown>;
}

/**
 * The code (a connector's PlatformError, not retryable) of a metrics call the account's token
 * lacks an analytics-only scope for: the account was connected before analytics asked for it.
 * The account stays connected (it still publishes); signing in again grants the scope.
 */
export const INSUFFICIENT_PLATFORM_SCOPE = 'insufficient_platform_scope';
