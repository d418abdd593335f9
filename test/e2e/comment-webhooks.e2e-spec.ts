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

  it('comment.received carries the id a reply takes: a receiver replies with what it was sent, and the reply is on the platform', async () => {
    receiver.reset();
    const { key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'engage', 'webhooks']);
    const subscribed = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events: ['comment.received', 'comment.replied'] } });
    receiver.secrets = [subscribed.body.secret];
    const mastodon = await world.account(workspaceId, 'mastodon');
    const published = await world.publish(key, mastodon);
    const added = world.comment('mastodon', published, 'Does it work offline?');

    await until(() => receiver.delivered.some((r) => r.payload.type === 'comment.received'), 15_000);
    const received = receiver.delivered.find((r) => r.payload.type === 'comment.received')!;
    expect(received.verified).toBe(true);
    expect(received.payload.data).toMatchObject({
      platformCommentId: added.id,
      platform: 'mastodon',
      postId: published.postId,
      accountId: mastodon.id,
      parentCommentId: null,
      internalCommentId: expect.any(String),
      text: 'Does it work offline?',
      tags: expect.arrayContaining(['question']),
    });
    expect(received.payload.data.internalCommentId).not.toBe(added.id);

    // What a client's handler does with the delivery: reply to the comment it names, with the ids it names.
    const { platform, platformCommentId, accountId } = received.payload.data;
    const reply = await stack.request('POST', '/api/v1/comments/reply', { key, body: { platform, commentId: platformCommentId, accountId, message: 'Yes, fully offline.' } });
    expect(reply.status).toBe(200);
    const onSandbox = world.sandbox.published({ platform: 'mastodon', kind: 'comment' }).find((item) => item.id === reply.body.result.id);
    expect(onSandbox).toMatchObject({ parentId: added.id, text: 'Yes, fully offline.' });

    await until(() => receiver.delivered.some((r) => r.payload.type === 'comment.replied'), 15_000);
    const replied = receiver.delivered.find((r) => r.payload.type === 'comment.replied')!;
    expect(replied.payload.data).toMatchObject({ platformCommentId: added.id, platform: 'mastodon', postId: published.postId, accountId: mastodon.id, replyId: reply.body.result.id, message: 'Yes, fully offline.' });
  });

  it('delivers each to the endpoint subscribed to it, signed, and nothing it did not subscribe to', async () => {
    receiver.reset();
    const { key, workspaceId } = await stack.workspace(['read', 'write', 'publish', 'engage', 'webhooks']);
    const events = ['comment.hidden', 'comment.unhidden', 'comment.reply_deleted', 'comment.reclassified'];
    const subscribed = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events } });
    expect(subscribed.status).toBe(201);
    receiver.secrets = [subscribed.body.secret];

    const facebook = await world.account(workspaceId, 'facebook');
    const published = await world.publish(key, facebook);
    const postId = published.postId;
    const platformCommentId = world.comment('facebook', published, 'Where is my order?').id;
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
    // Every comment event names the comment as the API does (the id a reply, hide or unhide takes), its post and the service's own id apart.
    const comment = { platformCommentId, platform: 'facebook', postId, internalCommentId: commentId };
    expect(byType['comment.hidden']).toMatchObject({ ...common, data: { ...comment, accountId: facebook.id, hiddenAt: expect.any(String) } });
    expect(byType['comment.unhidden']).toMatchObject({ ...common, data: { ...comment, accountId: facebook.id, unhiddenAt: expect.any(String) } });
    expect(byType['comment.reply_deleted']).toMatchObject({ ...common, data: { ...comment, accountId: facebook.id, replyId, deletedAt: expect.any(String) } });
    expect(byType['comment.reclassified']).toMatchObject({ ...common, data: { ...comment, accountId: facebook.id, sentiment: 'negative', tags: ['complaint', 'urgent'], classifierVersion: 'test-v2', reclassifiedAt: expect.any(String) } });
    for (const delivery of receiver.delivered) expect(delivery.payload.data).not.toHaveProperty('commentId');
  });
});
