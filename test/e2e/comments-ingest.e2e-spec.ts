import { until } from '@app/testing';
import { TestStack } from '../support/test-stack';
import { metaSignature } from '../../apps/gateway/src/comments/meta-webhook';
import { CommentsWorld, META_APP_SECRET, META_VERIFY_TOKEN, PublishedItem, sleep, startCommentsStack, TestAccount } from './comments-fixture';

/** Comments arriving by polling and by Meta's webhook: stored once, classified, in the list. */
describe('comment ingestion (poll and Meta webhook)', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
  });
  afterAll(() => stack.stop());
  beforeEach(async () => {
    ({ key, workspaceId } = await stack.workspace());
  });

  const storedTimes = async (platformCommentId: string) => {
    const { rows } = await stack.db.pool.query<{ count: string }>(
      `SELECT count(*) FROM events WHERE type = 'CommentReceived' AND data->>'platformCommentId' = $1`,
      [platformCommentId],
    );
    return Number(rows[0].count);
  };

  function facebookWebhook(item: PublishedItem, comment: { id: string; text: string; author: string }) {
    return {
      object: 'page',
      entry: [
        {
          id: item.platformPostId.split('_')[0],
          time: 1_700_000_000,
          changes: [
            {
              field: 'feed',
              value: {
                item: 'comment', verb: 'add', comment_id: comment.id, post_id: item.platformPostId, parent_id: item.platformPostId,
                message: comment.text, from: { id: '42', name: comment.author }, created_time: 1_700_000_000,
              },
            },
          ],
        },
      ],
    };
  }

  const postWebhook = (payload: unknown, signature?: string | null, secret = META_APP_SECRET) => {
    const raw = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== null) headers['x-hub-signature-256'] = signature ?? metaSignature(raw, secret);
    return stack.request('POST', '/webhooks/meta', { body: raw, headers });
  };

  it('polls the comments under published items on every platform, classifies them and lists them with the spec fields', async () => {
    const [facebook, x]: TestAccount[] = [await world.account(workspaceId, 'facebook'), await world.account(workspaceId, 'x')];
    const onFacebook = await world.publish(key, facebook, 'Spring collection is live\nShop now at our store');
    const onX = await world.publish(key, x);
    const praise = world.comment('facebook', onFacebook, 'Love it, great job! 😍', 'Jane Doe');
    const question = world.comment('x', onX, 'how much does shipping to Canada cost?', 'maple_fan');
    const complaint = world.comment('facebook', onFacebook, 'My order never arrived and nobody answers. Terrible service.', 'Angry Al');

    const listed = await world.untilListed(key, [praise.id, question.id, complaint.id]);
    const byId = new Map(listed.map((c) => [c.platformCommentId, c]));
    expect(byId.get(praise.id)).toEqual({
      platformCommentId: praise.id,
      platform: 'facebook',
      postId: onFacebook.postId,
      accountId: facebook.id,
      author: 'Jane Doe',
      text: 'Love it, great job! 😍',
      sentiment: 'positive',
      tags: ['praise'],
      replied: false,
      postTitle: 'Spring collection is live',
      url: expect.stringMatching(/^https:\/\/www\.facebook\.com\/.*comment_id=/),
      // Facebook gives created_time to the second.
      createdAt: new Date(Math.floor(Date.parse(praise.createdAt) / 1000) * 1000).toISOString(),
      parentCommentId: null,
      hidden: false,
      canReply: true,
      canHide: true,
      canDelete: true,
    });
    expect(byId.get(question.id)).toMatchObject({ platform: 'x', author: 'maple_fan', tags: expect.arrayContaining(['question']), postTitle: onX.content });
    expect(byId.get(complaint.id)).toMatchObject({ sentiment: 'negative', tags: expect.arrayContaining(['complaint']) });
  });

  it("never ingests the workspace's own first comments, even when the platform names their author differently from the handle", async () => {
    const account = await world.account(workspaceId, 'facebook');
    const launch = await world.publish(key, account, 'Launch with a first comment', { firstComments: ['Link in the first comment: https://example.com'] });
    // First comments go out after the post's own outcome is recorded, so after the publish answer.
    const ownComment = () => world.sandbox.published({ platform: 'facebook', kind: 'comment' }).find((c) => c.text.startsWith('Link in the first comment'));
    await until(() => ownComment() !== undefined, 10_000);
    const own = ownComment();
    // A page comments under its display name, not its handle: only the recorded id tells it is ours.
    expect(own!.owner).not.toBe(account.handle.replace('@', ''));
    // The first comment was there before this one: the poll that lists this one has read it too.
    await world.untilListed(key, [world.comment('facebook', launch, 'Congrats on the launch!').id]);
    const listed = (await world.list(key, '?platform=facebook&limit=50')).body.comments;
    expect(listed.map((c) => c.text)).not.toContain('Link in the first comment: https://example.com');
  });

  it('ingests Instagram comments under a published photo (Instagram needs media)', async () => {
    const account = await world.account(workspaceId, 'instagram');
    const photo = await world.publish(key, account, 'New drop 📸', { mediaUrls: [world.mediaUrl('drop.jpg')] });
    await world.untilListed(key, [world.comment('instagram', photo, 'Is this available in size M?', 'shopper').id]);
    const listed = (await world.list(key, '?platform=instagram')).body.comments;
    expect(listed).toEqual([expect.objectContaining({ platform: 'instagram', text: 'Is this available in size M?', tags: expect.arrayContaining(['question']) })]);
  });

  it('stores a comment once however often it is seen: many polls, then the same comment by webhook', async () => {
    const facebook = await world.account(workspaceId, 'facebook');
    const item = await world.publish(key, facebook);
    const comment = world.comment('facebook', item, 'Is this available in blue?', 'Sam');
    await world.untilListed(key, [comment.id]);
    const polls = stack.sandbox!.control.requestCount({ platform: 'facebook', account: facebook.token, operation: 'list_comments' });
    await sleep(300);
    // Polled again several times meanwhile.
    expect(stack.sandbox!.control.requestCount({ platform: 'facebook', account: facebook.token, operation: 'list_comments' })).toBeGreaterThan(polls + 1);
    const response = await postWebhook(facebookWebhook(item, { id: comment.id, text: comment.text, author: 'Sam' }));
    expect(response).toMatchObject({ status: 200, body: { received: 0 } });
    expect(await storedTimes(comment.id)).toBe(1);
    expect((await world.list(key)).body.comments.filter((c) => c.platformCommentId === comment.id)).toHaveLength(1);
  });

  it('accepts a signed webhook: the comment is stored, classified and listed', async () => {
    const facebook = await world.account(workspaceId, 'facebook');
    const item = await world.publish(key, facebook);
    const id = `${item.platformPostId.split('_')[1]}_9${Date.now()}`;
    const response = await postWebhook(facebookWebhook(item, { id, text: 'Thank you so much, this is amazing!', author: 'Webhook Wendy' }));
    expect(response).toMatchObject({ status: 200, body: { received: 1 } });
    const [listed] = await world.untilListed(key, [id]);
    expect(listed).toMatchObject({ platform: 'facebook', author: 'Webhook Wendy', sentiment: 'positive', tags: ['praise'], createdAt: '2023-11-14T22:13:20.000Z' });
    expect(await storedTimes(id)).toBe(1);
  });

  it.each([
    ['without a signature', null, META_APP_SECRET],
    ['signed with another secret', undefined, 'not-the-app-secret'],
    ['with a malformed signature', 'sha256=zz', META_APP_SECRET],
    ['signed over another body', metaSignature('{"object":"page","entry":[]}', META_APP_SECRET), META_APP_SECRET],
  ])('refuses a webhook %s with 401 and stores nothing', async (_name, signature, secret) => {
    const facebook = await world.account(workspaceId, 'facebook');
    const item = await world.publish(key, facebook);
    const id = `${item.platformPostId.split('_')[1]}_8${Date.now()}`;
    const before = await stack.eventCount();
    const response = await postWebhook(facebookWebhook(item, { id, text: 'forged', author: 'Mallory' }), signature, secret);
    expect(response.status).toBe(401);
    expect(response.body.error).toEqual({ code: 'webhook_signature_invalid', message: expect.any(String) });
    await sleep(100);
    expect(await stack.eventCount()).toBe(before);
    expect(await storedTimes(id)).toBe(0);
  });

  it('ignores a signed webhook about an item no workspace published', async () => {
    const before = await world.eventsOfType('CommentReceived');
    const response = await postWebhook(facebookWebhook({ postId: 'p', platformPostId: '1_404', content: '' }, { id: '404_1', text: 'hello', author: 'Nobody' }));
    expect(response).toMatchObject({ status: 200, body: { received: 0 } });
    expect(await world.eventsOfType('CommentReceived')).toBe(before);
  });

  it("answers Meta's verification handshake only with the verify token", async () => {
    const handshake = (token: string, mode = 'subscribe') =>
      fetch(`${stack.baseUrl}/webhooks/meta?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
    const accepted = await handshake(META_VERIFY_TOKEN);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe('1158201444');
    for (const refused of [await handshake('guess'), await handshake(META_VERIFY_TOKEN, 'unsubscribe')]) {
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('webhook_verification_failed');
    }
  });

  it('keeps polling an account that was rate-limited, and still gets its comments', async () => {
    const facebook = await world.account(workspaceId, 'facebook');
    const item = await world.publish(key, facebook);
    stack.sandbox!.control.addFault({ platform: 'facebook', account: facebook.token, operation: 'list_comments', times: 6, fault: { type: 'rate_limit', resetAfterSeconds: 0 } });
    const comment = world.comment('facebook', item, 'Where can I buy this?');
    await world.untilListed(key, [comment.id]);
    expect(await storedTimes(comment.id)).toBe(1);
  });
});
