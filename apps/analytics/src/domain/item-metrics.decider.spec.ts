import { ItemMetrics, MetricName, PostMetricsEvent } from '@app/contracts';
import { deciderSpec } from '@app/testing';
import { itemMetricsDecider } from './item-metrics.decider';
import { TrackedItem } from './tracked-item';

const spec = deciderSpec(itemMetricsDecider);
const item: TrackedItem = {
  workspaceId: '0199a000-0000-7000-8000-000000000001',
  postId: '0199a000-0000-7000-8000-000000000002',
  accountId: '0199a000-0000-7000-8000-000000000003',
  platform: 'mastodon',
  platformPostId: '110000000000000001',
  publishedAt: new Date('2026-05-04T09:30:00Z'),
};
const numbers = (likes: number | null, shares: number | null = 0): ItemMetrics => ({ impressions: null, reach: null, likes, comments: 0, shares, saves: null, clicks: null, videoViews: null });
const ids = { postId: item.postId, accountId: item.accountId, platform: item.platform, platformPostId: item.platformPostId };

const observed = (likes: number, at: string, changed: MetricName[]): PostMetricsEvent => ({
  type: 'ItemMetricsObserved',
  data: { ...ids, publishedAt: item.publishedAt.toISOString(), metrics: numbers(likes), raw: { favourites_count: likes }, changed, observedAt: at },
});

describe('recording an item reading', () => {
  it('records the first reading with every number the platform gave as changed', () => {
    spec
      .given([])
      .when({ type: 'RecordItemMetrics', item, reading: { metrics: numbers(3), raw: { favourites_count: 3 } }, observedAt: new Date('2026-05-04T09:35:00Z') })
      .then([observed(3, '2026-05-04T09:35:00.000Z', ['likes', 'comments', 'shares'])]);
  });

  it('names only the numbers that moved since the previous reading', () => {
    spec
      .given([observed(3, '2026-05-04T09:35:00.000Z', ['likes'])])
      .when({ type: 'RecordItemMetrics', item, reading: { metrics: numbers(7), raw: { favourites_count: 7 } }, observedAt: new Date('2026-05-04T09:50:00Z') })
      .then([observed(7, '2026-05-04T09:50:00.000Z', ['likes'])]);
  });

  it('records an unchanged reading too (the curve has flat stretches), with nothing changed', () => {
    const [event] = spec
      .given([observed(3, '2026-05-04T09:35:00.000Z', ['likes'])])
      .when({ type: 'RecordItemMetrics', item, reading: { metrics: numbers(3), raw: { favourites_count: 3 } }, observedAt: new Date('2026-05-04T09:50:00Z') })
      .events();
    expect(event).toMatchObject({ type: 'ItemMetricsObserved', data: { changed: [] } });
  });

  it('records nothing for a reading not newer than the last (history only moves forward)', () => {
    spec
      .given([observed(3, '2026-05-04T09:35:00.000Z', ['likes'])])
      .when({ type: 'RecordItemMetrics', item, reading: { metrics: numbers(9), raw: {} }, observedAt: new Date('2026-05-04T09:35:00Z') })
      .thenNothing();
  });
});

describe('recording a refused collection', () => {
  const refused = { type: 'RecordCollectionRefused' as const, item, code: 'insufficient_platform_scope', message: 'read:statuses missing', failedAt: new Date('2026-05-04T10:00:00Z') };
  const failed: PostMetricsEvent = { type: 'ItemMetricsCollectionFailed', data: { ...ids, code: refused.code, message: refused.message, failedAt: '2026-05-04T10:00:00.000Z' } };

  it('records the refusal once', () => {
    spec.given([]).when(refused).then([failed]);
    spec.given([failed]).when({ ...refused, failedAt: new Date('2026-05-04T10:15:00Z') }).thenNothing();
  });

  it('records it again after a successful reading, or for another code', () => {
    spec.given([failed, observed(3, '2026-05-04T10:30:00.000Z', ['likes'])]).when(refused).then([failed]);
    expect(spec.given([failed]).when({ ...refused, code: 'item_not_found' }).events()).toHaveLength(1);
  });
});
