import { PostgresEventStore } from '@app/event-store';
import { until } from '@app/testing';
import { CommentCommandRunner } from '../../apps/comments/src/domain/comment-command-runner';
import { TestStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';
import { CommentsWorld, startCommentsStack } from './comments-fixture';

/**
 * The inbox's comment events reach client webhooks: comment.hidden, comment.unhidden,
 * comment.reply_deleted and comment.reclassified, each delivered signed to an endpoint
 * subscribed to it (and only to it), with the payload the OpenAPI `webhooks` section documents.
 */
describe('client webhooks for the comment inbox events', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let world: CommentsWorld;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await startCommentsStack({ webhookAllowedHosts: [receiver.host], webhookDispatchIntervalMs: 200, webhookTimeoutMs: 1_000 });
    world = new CommentsWorld(stack);
  });
  afterAll(async () => {
    await stack.stop();
    await receiver.close();
  });

  it('delivers each to the endpoint subscribed to it, signed, and nothing it did not subscribe to', async () => {
    const { key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'engage', 'webhooks']);
    const events = ['comment.hidden', 'comment.unhidden', 'comment.reply_deleted', 'comment.reclassified'];
    const subscribed = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events } });
    expect(subscribed.status).toBe(201);
    receiver.secrets = [subscribed.body.secret];

    const facebook = await world.account(workspaceId, 'facebook');
    const platformCommentId = world.comment('facebook', await world.publish(key, facebook), 'Where is my order?').id;
    await world.untilListed(key, [platformCommentId]);
    const target = { platform: 'facebook', commentId: platformCommentId };
    expect((await stack.request('POST', '/api/v1/comments/hide', { key, body: target })).status).toBe(200);
    expect((await stack.request('POST', '/api/v1/comments/unhide', { key, body: target })).status).toBe(200);
    const replied = await stack.request('POST', '/api/v1/comments/reply', { key, body: { ...target, message: 'Checking now.' } });
    const replyId = replied.body.result.id as string;
    expect((await stack.request('DELETE', `/api/v1/comments/facebook/${encodeURIComponent(platformCommentId)}/replies/${encodeURIComponent(replyId)}`, { key })).status).toBe(204);
    // What `npm run reclassify` decides for a comment the current classifier reads otherwise (apps/comments/src/reclassify).
    const { rows } = await stack.db.pool.query<{ id: string }>('SELECT id FROM comment_views WHERE platform_comment_id = $1', [platformCommentId]);
    const commentId = rows[0].id;
    const runner = new CommentCommandRunner(new PostgresEventStore(stack.db.pool, { databaseUrl: stack.db.url }), stack.config);
    await runner.run(commentId, workspaceId, (now) => ({ type: 'ReclassifyComment', classification: { sentiment: 'negative', tags: ['complaint', 'urgent'] }, classifierVersion: 'test-v2', now }), undefined);

    await until(() => receiver.delivered.length >= 4, 15_000);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const byType = Object.fromEntries(receiver.delivered.map((r) => [r.payload.type, r.payload]));
    expect(receiver.delivered.map((r) => r.payload.type)).toEqual(events);
    const common = { version: 1, workspaceId, eventId: expect.any(String), position: expect.stringMatching(/^\d+:\d+$/), timestamp: expect.any(String) };
    expect(byType['comment.hidden']).toMatchObject({ ...common, data: { commentId, accountId: facebook.id, hiddenAt: expect.any(String) } });
    expect(byType['comment.unhidden']).toMatchObject({ ...common, data: { commentId, accountId: facebook.id, unhiddenAt: expect.any(String) } });
    expect(byType['comment.reply_deleted']).toMatchObject({ ...common, data: { commentId, accountId: facebook.id, replyId, deletedAt: expect.any(String) } });
    expect(byType['comment.reclassified']).toMatchObject({ ...common, data: { commentId, sentiment: 'negative', tags: ['complaint', 'urgent'], classifierVersion: 'test-v2', reclassifiedAt: expect.any(String) } });
  });
});
