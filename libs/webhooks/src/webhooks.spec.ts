import { Webhook } from 'standardwebhooks';
import { EventEnvelope } from '@app/contracts';
import { FIRST_RETRY_MS, MAX_RETRY_STEP_MS, nextAttemptAt, RETRY_WINDOW_MS, retryDelayMs } from './retry-schedule';
import { generateWebhookSecret, signWebhook, webhookDeliveryId } from './signing';
import { payloadOf, webhookEventOf } from './webhook-events';

describe('Standard Webhooks signing (https://www.standardwebhooks.com/, verified by the standardwebhooks library)', () => {
  const body = JSON.stringify({ type: 'post.published', data: { postId: 'p1' } });
  const now = Math.floor(Date.now() / 1000);

  it('signs so a receiver with the secret verifies, and one with another secret or a changed body does not', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': signWebhook([secret], 'msg_1', now, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow('No matching signature found');
    // The library computes the same v1 signature we send.
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(now * 1000), body));
  });

  it('carries one signature per secret while a rotated secret is valid: either verifies', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(now), 'webhook-signature': signWebhook([current, previous], 'msg_2', now, body) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it('gives one event one id per endpoint: stable across calls, different for another endpoint or event', () => {
    expect(webhookDeliveryId('whep_a', 'e1')).toBe(webhookDeliveryId('whep_a', 'e1'));
    expect(webhookDeliveryId('whep_a', 'e1')).not.toBe(webhookDeliveryId('whep_b', 'e1'));
    expect(webhookDeliveryId('whep_a', 'e1')).not.toBe(webhookDeliveryId('whep_a', 'e2'));
    expect(webhookDeliveryId('whep_a', 'e1')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
  });
});

describe('retry schedule: exponential backoff with jitter over about three days', () => {
  it('grows fourfold from five seconds up to twelve hours, each wait between half and all of its step', () => {
    expect(retryDelayMs(1, 0)).toBe(FIRST_RETRY_MS / 2);
    expect(retryDelayMs(1, 0.999999)).toBeCloseTo(FIRST_RETRY_MS, -1);
    expect(retryDelayMs(2, 0)).toBe(2 * FIRST_RETRY_MS);
    expect(retryDelayMs(20, 0.5)).toBe(MAX_RETRY_STEP_MS * 0.75);
  });

  it('keeps retrying for three days, then gives up', () => {
    const start = new Date('2026-11-23T00:00:00Z');
    const giveUp = new Date(start.getTime() + RETRY_WINDOW_MS);
    let at = start;
    let attempts = 0;
    for (let next = nextAttemptAt(1, at, giveUp, 0.5); next; next = nextAttemptAt(attempts + 1, at, giveUp, 0.5)) {
      attempts++;
      at = next;
    }
    expect(attempts).toBeGreaterThanOrEqual(9);
    expect(giveUp.getTime() - at.getTime()).toBeLessThan(MAX_RETRY_STEP_MS);
    expect(at.getTime() - start.getTime()).toBeGreaterThan(2 * 24 * 60 * 60_000);
  });
});

describe('webhook events derived from stored events', () => {
  const envelope = (type: string, data: unknown, revision = 0): EventEnvelope => ({
    eventId: `ev-${type}-${revision}`,
    type,
    version: 1,
    streamId: 'post-p1',
    revision: String(revision),
    position: `10:${revision}`,
    occurredAt: '2026-11-23T10:00:00.000Z',
    workspaceId: 'w1',
    data,
  });
  const accounts = [
    { accountId: 'a1', platform: 'x', handle: '@acme' },
    { accountId: 'a2', platform: 'bluesky', handle: '@acme.bsky.social' },
  ];
  const created = envelope('PostCreated', { postId: 'p1', accounts, scheduledAt: null }, 0);
  const published = envelope('AccountPublished', { postId: 'p1', accountId: 'a1', platform: 'x', attempt: 1, platformPostId: 'x-1', url: 'https://x.com/acme/status/1' }, 3);
  const failed = envelope('AccountPublishFailed', { postId: 'p1', accountId: 'a2', platform: 'bluesky', attempt: 1, error: { code: 'platform_error', message: 'down', retryable: true } }, 4);
  const completed = envelope('PublishCompleted', { postId: 'p1', attempt: 1, status: 'partial', publishedAt: '2026-11-23T10:00:01.000Z', errorMessage: '1 of 2 failed' }, 5);

  it('a draft is nothing; a scheduled create is post.scheduled with the accounts', () => {
    expect(webhookEventOf(created)).toBeNull();
    expect(webhookEventOf({ ...created, data: { ...(created.data as object), scheduledAt: '2026-12-01T09:00:00Z' } })).toEqual({
      type: 'post.scheduled',
      data: { postId: 'p1', scheduledAt: '2026-12-01T09:00:00Z', accounts: [{ accountId: 'a1', platform: 'x', account: '@acme' }, { accountId: 'a2', platform: 'bluesky', account: '@acme.bsky.social' }] },
    });
  });

  it('each account outcome is its own event with the result entry the API shows', () => {
    expect(webhookEventOf(published, [created, published])).toEqual({
      type: 'post.account.published',
      data: { postId: 'p1', attempt: 1, result: { platform: 'x', accountId: 'a1', accountLabel: '@acme', success: true, postId: 'x-1', url: 'https://x.com/acme/status/1' } },
    });
    expect(webhookEventOf(failed, [created, published, failed])?.data).toMatchObject({
      result: { accountId: 'a2', accountLabel: '@acme.bsky.social', success: false, error: { code: 'platform_error', message: 'down', retryable: true } },
    });
  });

  it('a completed publication is post.published, post.partial or post.failed with every result', () => {
    const event = webhookEventOf(completed, [created, published, failed, completed]);
    expect(event?.type).toBe('post.partial');
    expect(event?.data).toMatchObject({ postId: 'p1', status: 'partial', results: [{ accountId: 'a1', success: true }, { accountId: 'a2', success: false }] });
    expect(webhookEventOf({ ...completed, data: { ...(completed.data as object), status: 'failed' } })?.type).toBe('post.failed');
  });

  it('the approval events carry the post and its approval; a scheduled post failed unpublished says why (errorCode)', () => {
    const at = '2030-01-01T12:00:00.000Z';
    expect(webhookEventOf(envelope('PostApprovalRequested', { postId: 'p1', requestedBy: 'k1', requestedAt: at }))).toEqual({
      type: 'post.approval_requested',
      data: { postId: 'p1', approval: { state: 'pending', by: 'k1', at, note: null } },
    });
    expect(webhookEventOf(envelope('PostApproved', { postId: 'p1', approvedBy: 'k2', note: 'ok', approvedAt: at }))).toEqual({
      type: 'post.approved',
      data: { postId: 'p1', approval: { state: 'approved', by: 'k2', at, note: 'ok' } },
    });
    expect(webhookEventOf(envelope('PostRejected', { postId: 'p1', rejectedBy: 'k2', note: 'no', rejectedAt: at }))?.type).toBe('post.rejected');
    const missed = webhookEventOf(envelope('ScheduledPostExpired', { postId: 'p1', scheduledAt: at, error: { code: 'approval_missed', message: 'not approved', retryable: false }, expiredAt: at }));
    expect(missed).toEqual({ type: 'post.failed', data: expect.objectContaining({ postId: 'p1', status: 'failed', errorCode: 'approval_missed', errorMessage: 'not approved' }) });
  });

  it('internal steps are not webhook events', () => {
    for (const type of ['PublishRequested', 'AccountPublishStarted', 'FirstCommentPosted', 'FirstCommentFailed', 'CommentReplyStarted']) expect(webhookEventOf(envelope(type, {}))).toBeNull();
  });

  it("every comment event names the comment by the id a reply takes, from the comment's receipt, and never by the service's id alone", () => {
    const received = envelope('CommentReceived', {
      commentId: 'c-internal', workspaceId: 'w1', platform: 'mastodon', platformCommentId: '112000', platformPostId: '111000', postId: 'p1', accountId: 'a1',
      author: 'fan', text: 'Does it work offline?', url: null, postTitle: null, commentedAt: '2026-11-23T10:00:00.000Z', sentiment: 'neutral', tags: ['question'],
    });
    const reference = { platformCommentId: '112000', platform: 'mastodon', postId: 'p1', internalCommentId: 'c-internal' };
    expect(webhookEventOf(received)?.data).toMatchObject({ ...reference, accountId: 'a1', parentCommentId: null });
    const later = [
      envelope('CommentReplied', { commentId: 'c-internal', accountId: 'a2', repliedAs: '@acme', replyPlatformId: '113000', message: 'Yes', repliedAt: '2026-11-23T10:01:00.000Z' }),
      envelope('CommentHidden', { commentId: 'c-internal', accountId: 'a2', hiddenAt: '2026-11-23T10:02:00.000Z' }),
      envelope('CommentUnhidden', { commentId: 'c-internal', accountId: 'a2', unhiddenAt: '2026-11-23T10:03:00.000Z' }),
      envelope('CommentReplyDeleted', { commentId: 'c-internal', accountId: 'a2', replyPlatformId: '113000', deletedAt: '2026-11-23T10:04:00.000Z' }),
      envelope('CommentReclassified', { commentId: 'c-internal', sentiment: 'negative', tags: [], classifierVersion: 'v2', reclassifiedAt: '2026-11-23T10:05:00.000Z' }),
    ];
    for (const event of [received, ...later]) {
      const data = webhookEventOf(event, [received, event])?.data as Record<string, unknown>;
      expect(data).toMatchObject(reference);
      expect(data).not.toHaveProperty('commentId');
    }
    // The acting account stays the one that acted; a reclassification names the comment's own account.
    expect(webhookEventOf(later[1], [received, later[1]])?.data).toMatchObject({ accountId: 'a2' });
    expect(webhookEventOf(later[4], [received, later[4]])?.data).toMatchObject({ accountId: 'a1' });
  });

  it('the payload carries the type, version, the stored event id and position', () => {
    const event = webhookEventOf(published, [created, published])!;
    expect(payloadOf(published, event)).toEqual({
      type: 'post.account.published',
      timestamp: '2026-11-23T10:00:00.000Z',
      version: 1,
      eventId: published.eventId,
      position: '10:3',
      workspaceId: 'w1',
      data: event.data,
    });
  });
});
