import { EventEnvelope, ItemMetricsObservedData, SUBSCRIBABLE_WEBHOOK_EVENT_TYPES } from '@app/contracts';
import { webhookEventOf } from './webhook-events';

describe('post.metrics_updated (analytics): opt-in, and only when a number moved', () => {
  const observed = (changed: ItemMetricsObservedData['changed']): EventEnvelope<ItemMetricsObservedData> => ({
    eventId: 'ev-1',
    type: 'ItemMetricsObserved',
    version: 1,
    streamId: 'postmetric-p1',
    revision: '3',
    position: '10:3',
    occurredAt: '2026-11-23T10:00:00.000Z',
    workspaceId: 'w1',
    data: {
      postId: 'p1',
      accountId: 'a1',
      platform: 'mastodon',
      platformPostId: '110000000000000001',
      publishedAt: '2026-11-23T09:00:00.000Z',
      metrics: { impressions: null, reach: null, likes: 7, comments: 1, shares: 2, saves: null, clicks: null, videoViews: null },
      raw: { favourites_count: 7 },
      changed,
      observedAt: '2026-11-23T10:00:00.000Z',
    },
  });

  it('carries the latest numbers and which of them moved, never the raw fields', () => {
    expect(webhookEventOf(observed(['likes']))).toEqual({
      type: 'post.metrics_updated',
      data: {
        postId: 'p1',
        accountId: 'a1',
        platform: 'mastodon',
        platformPostId: '110000000000000001',
        metrics: { impressions: null, reach: null, likes: 7, comments: 1, shares: 2, saves: null, clicks: null, videoViews: null },
        changed: ['likes'],
        observedAt: '2026-11-23T10:00:00.000Z',
      },
    });
  });

  it('sends nothing for a collection where nothing moved', () => {
    expect(webhookEventOf(observed([]))).toBeNull();
  });

  it('is a type an endpoint names to get it (endpoints receive only the types they list)', () => {
    expect(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES).toContain('post.metrics_updated');
  });
});
