import { AccountAnalyticsView, MetricName, PostMetricsView } from '@app/contracts';
import { renderLineChart } from './line-chart.svg';

/** A post's curve of one metric: one line per account it was published on. */
export function postMetricChart(view: PostMetricsView, metric: MetricName): string {
  return renderLineChart({
    title: `${metric} of post ${view.postId}`,
    xLabel: 'collected at (UTC)',
    yLabel: metric,
    series: view.accounts.map((account) => ({
      name: `${account.platform} ${account.platformPostId}`,
      points: (account.history ?? []).map((point) => ({ at: new Date(point.observedAt), value: point.metrics[metric] })),
    })),
  });
}

/** An account's follower curve. */
export function followersChart(view: AccountAnalyticsView): string {
  return renderLineChart({
    title: `followers of ${view.platform} account ${view.accountId}`,
    xLabel: 'collected at (UTC)',
    yLabel: 'followers',
    series: [{ name: `${view.platform} followers`, points: view.history.map((point) => ({ at: new Date(point.observedAt), value: point.followers })) }],
  });
}
