import { ACCOUNT_METRICS_PROJECTION, POST_METRICS_PROJECTION } from '@app/read-models';
import { ReadModel } from '../read-model';
import { AccountMetricsTables, projectAccountMetricsEvents } from './account-metrics.projection';
import { PostMetricsTables, projectPostMetricsEvents } from './post-metrics.projection';

/** post_metrics (GET /api/v1/posts/:id/metrics, top posts, the list's summary), folded from the postmetric streams; checkpoint `post_metrics`. */
export const POST_METRICS: ReadModel<keyof PostMetricsTables> = {
  name: POST_METRICS_PROJECTION,
  tables: { postMetrics: 'post_metrics', items: 'post_metric_items', observations: 'post_metric_observations' },
  view: { role: 'postMetrics', streamPrefix: 'postmetric-' },
  project: projectPostMetricsEvents,
};

/** account_metrics (GET /api/v1/analytics/accounts/:id), folded from the accountmetric streams; checkpoint `account_metrics`. */
export const ACCOUNT_METRICS: ReadModel<keyof AccountMetricsTables> = {
  name: ACCOUNT_METRICS_PROJECTION,
  tables: { accountMetrics: 'account_metrics', observations: 'account_metric_observations' },
  view: { role: 'accountMetrics', streamPrefix: 'accountmetric-' },
  project: projectAccountMetricsEvents,
};
