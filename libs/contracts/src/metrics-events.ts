import type { ItemMetrics, MetricName } from './metrics';
import type { Platform } from './platforms';

/**
 * Analytics observations: what a platform answered about a published item or an
 * account at one moment. Each is a fact in time, appended and never changed, so a
 * post's curve is the list of its observations. Item observations live on one
 * stream per post (`postmetric-<postId>`, NATS `social.v1.postmetrics.<Type>`),
 * account observations on one stream per account (`accountmetric-<accountId>`,
 * NATS `social.v1.accountmetrics.<Type>`). Version 1 of each.
 */
export function postMetricsStreamId(postId: string): string {
  return `postmetric-${postId}`;
}

export function accountMetricsStreamId(accountId: string): string {
  return `accountmetric-${accountId}`;
}

/** The numbers of one published item (one account's copy of a post) as its platform gave them. */
export interface ItemMetricsObservedData {
  postId: string;
  accountId: string;
  platform: Platform;
  platformPostId: string;
  /** When the item went live (the account's AccountPublished): the age the schedule and the top-posts range use. */
  publishedAt: string;
  metrics: ItemMetrics;
  /** The platform's own fields, as it named them. */
  raw: Record<string, unknown>;
  /** The metrics whose value differs from this item's previous observation (every non-null one on the first). */
  changed: MetricName[];
  observedAt: string;
}

/**
 * A collection of an item's numbers the platform refused for good (a missing scope,
 * an item it no longer has): recorded once per distinct refusal, so the API can say
 * why the numbers stopped. Rate limits and outages are not recorded: they are retried.
 */
export interface ItemMetricsCollectionFailedData {
  postId: string;
  accountId: string;
  platform: Platform;
  platformPostId: string;
  code: string;
  message: string;
  failedAt: string;
}

/** An account's follower (subscriber) count at one moment. */
export interface AccountMetricsObservedData {
  accountId: string;
  platform: Platform;
  followers: number | null;
  raw: Record<string, unknown>;
  observedAt: string;
}

export type PostMetricsEvent =
  | { type: 'ItemMetricsObserved'; data: ItemMetricsObservedData }
  | { type: 'ItemMetricsCollectionFailed'; data: ItemMetricsCollectionFailedData };

export type AccountMetricsEvent = { type: 'AccountMetricsObserved'; data: AccountMetricsObservedData };

export const METRICS_EVENT_VERSION = 1;
