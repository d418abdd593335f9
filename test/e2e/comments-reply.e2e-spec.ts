import { randomUUID } from 'node:crypto';
import { XPool } from '@app/quotas';
import { sleep, TestAccount, useCommentsSuite } from './comments-fixture';

/** POST /api/v1/comments/reply: the reply goes out on the platform once; every refusal sends and records nothing. */
describe('POST /api/v1/comments/reply', () => {
  const suite = useCommentsSuite({ xPoolMonthlyPosts: 100 });
  let key: string;
  let workspaceId: string;
  let facebook: TestAccount;
  let commentId: string;

  beforeEach(async () => {
    ({ key, workspaceId, facebook, commentId } = await suite.world.facebookComment('Do you ship to Norway?'));
  });

  const reply = (body: Record<string, unknown>, replyKey = key) => suite.stack.request('POST', '/api/v1/comments/reply', { key: replyKey, body });
  const replies = (account: TestAccount) => suite.stack.sandbox!.control.published({ account: account.token, kind: 'comment' });
  const replyCalls = (platform: string) => suite.stack.sandbox!.control.requestCount({ platform: platform as never, operation: 'comment' });

  it('replies as the account the comment came to: 200 with the spec shape, the reply under the comment, replied at once', async () => {
    const response = await reply({ platform: 'facebook', commentId, message: 'Yes, we ship to Norway!' });
    expect(response.status).toBe(200);
    const [sent] = replies(facebook);
    expect(replies(facebook)).toHaveLength(1);
    expect(sent).toMatchObject({ parentId: commentId, text: 'Yes, we ship to Norway!' });
    expect(response.body).toEqual({ success: true, repliedAs: facebook.handle, result: { id: sent.id } });
    // Read-your-writes: the answer waited for the list.
    expect(await suite.world.listed(key, commentId)).toMatchObject({ replied: true });
    expect((await suite.world.list(key, '?unreplied=1')).body.comments.map((c) => c.platformCommentId)).not.toContain(commentId);
  });

  it('publishes CommentReplied on NATS with the events envelope', async () => {
    const nextReplied = await suite.nextCommentEvent('CommentReplied');
    const response = await reply({ platform: 'facebook', commentId, message: 'Thanks for asking!' });
    expect(response.status).toBe(200);
    const envelope = await nextReplied();
    expect(envelope).toEqual({
      eventId: expect.any(String),
      type: 'CommentReplied',
      version: 1,
      streamId: expect.stringMatching(/^comment-[0-9a-f-]{36}$/),
      // Revision 0 is CommentReceived, 1 the CommentReplyStarted recorded before the platform was called.
      revision: '2',
      position: expect.stringMatching(/^\d+:\d+$/),
      occurredAt: expect.any(String),
      workspaceId,
      data: {
        commentId: envelope.streamId.slice('comment-'.length),
        accountId: facebook.id,
        repliedAs: facebook.handle,
        replyPlatformId: response.body.result.id,
        message: 'Thanks for asking!',
        repliedAt: expect.any(String),
        replyKey: expect.any(String),
      },
    });
  });

  it('replies as another account of the same platform when accountId names one', async () => {
    const other = await suite.world.account(workspaceId, 'facebook');
    const response = await reply({ platform: 'facebook', commentId, message: 'Our team will DM you.', accountId: other.id });
    expect(response).toMatchObject({ status: 200, body: { repliedAs: other.handle } });
    expect(replies(other)).toHaveLength(1);
    expect(replies(facebook)).toHaveLength(0);
  });

  it('does not take its own reply for a new comment in later polls', async () => {
    expect((await reply({ platform: 'facebook', commentId, message: 'We do!' })).status).toBe(200);
    await sleep(300);
    const underItem = (await suite.world.list(key, '?limit=50')).body.comments;
    expect(underItem.map((c) => c.platformCommentId)).toEqual([commentId]);
  });

  describe('refusals: nothing sent, nothing recorded', () => {
    async function expectRefused(body: Record<string, unknown>, status: number, code: string, replyKey = key) {
      const [events, calls] = [await suite.stack.eventCount(), replyCalls('facebook') + replyCalls('x')];
      const response = await reply(body, replyKey);
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code, message: expect.any(String) });
      expect(replyCalls('facebook') + replyCalls('x')).toBe(calls);
      expect(await suite.stack.eventCount()).toBe(events);
      return response.body.error;
    }

    it('a commentId never stored: a raw platform id from elsewhere (404 unknown_comment)', async () => {
      await expectRefused({ platform: 'facebook', commentId: '104729_88001234', message: 'hi' }, 404, 'unknown_comment');
    });

    it("another workspace's comment (404 unknown_comment)", async () => {
      const { key: otherKey } = await suite.stack.workspace(['engage']);
      await expectRefused({ platform: 'facebook', commentId, message: 'hi' }, 404, 'unknown_comment', otherKey);
    });

    it('an accountId on another platform, with no fallback (400 account_platform_mismatch)', async () => {
      const x = await suite.world.account(workspaceId, 'x');
      const error = await expectRefused({ platform: 'facebook', commentId, message: 'hi', accountId: x.id }, 400, 'account_platform_mismatch');
      expect(error.details).toEqual({ accountId: x.id, accountPlatform: 'x', commentPlatform: 'facebook' });
    });

    it('an accountId unknown to the workspace (400 unknown_account)', async () => {
      await expectRefused({ platform: 'facebook', commentId, message: 'hi', accountId: randomUUID() }, 400, 'unknown_account');
      await expectRefused({ platform: 'facebook', commentId, message: 'hi', accountId: 'not-an-account-id' }, 400, 'unknown_account');
    });

    it('a disconnected account (400 account_disconnected)', async () => {
      const other = await suite.world.account(workspaceId, 'facebook');
      await suite.stack.disconnect(workspaceId, other.id);
      await expectRefused({ platform: 'facebook', commentId, message: 'hi', accountId: other.id }, 400, 'account_disconnected');
    });

    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['over 2,200 characters', 'a'.repeat(2_201)],
    ])('a message %s (400 reply_message_invalid)', async (_name, message) => {
      await expectRefused({ platform: 'facebook', commentId, message }, 400, 'reply_message_invalid');
    });

    it('an unknown platform (400 unknown_platform)', async () => {
      await expectRefused({ platform: 'myspace', commentId, message: 'hi' }, 400, 'unknown_platform');
    });

    it("a platform that is not the comment's (400 comment_platform_mismatch)", async () => {
      const error = await expectRefused({ platform: 'x', commentId, message: 'hi' }, 400, 'comment_platform_mismatch');
      expect(error.details).toEqual({ platform: 'facebook' });
    });

    it.each([
      ['no message', { platform: 'facebook' }],
      ['a message that is not a string', { platform: 'facebook', message: 42 }],
    ])('a body with %s (400 invalid_body)', async (_name, body) => {
      await expectRefused({ commentId, ...body }, 400, 'invalid_body');
    });

    it('a key without the engage scope (403)', async () => {
      const { key: readOnly } = await suite.stack.workspace(['read', 'write', 'publish']);
      await expectRefused({ platform: 'facebook', commentId, message: 'hi' }, 403, 'insufficient_scope', readOnly);
    });
  });

  it('reports a platform rejection with its error and records nothing', async () => {
    suite.stack.sandbox!.control.addFault({ platform: 'facebook', account: facebook.token, operation: 'comment', fault: { type: 'error', status: 400, code: '100', message: 'Invalid parameter' } });
    const before = await suite.world.eventsOfType('CommentReplied');
    const response = await reply({ platform: 'facebook', commentId, message: 'Hello' });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'platform_rejected', details: { code: 'invalid_parameter', message: expect.any(String), retryable: false } });
    expect(await suite.world.eventsOfType('CommentReplied')).toBe(before);
    expect(await suite.world.listed(key, commentId)).toMatchObject({ replied: false });
  });

  it('on X draws one unit of the X pool per reply, and refunds it when X rejects the reply', async () => {
    const x = await suite.world.account(workspaceId, 'x');
    const onX = await suite.world.publish(key, x);
    const question = suite.world.comment('x', onX, 'when does it launch in Europe?').id;
    await suite.world.untilListed(key, [question]);
    const pool = new XPool(suite.stack.db.pool, 100);
    const used = await pool.used(workspaceId);

    suite.stack.sandbox!.control.addFault({ platform: 'x', account: x.token, operation: 'comment', fault: { type: 'error', status: 403, message: 'You are not allowed to reply to this post.' } });
    const rejected = await reply({ platform: 'x', commentId: question, message: 'Next month!' });
    expect(rejected.status).toBe(502);
    expect(rejected.body.error).toMatchObject({ code: 'platform_rejected', details: { retryable: false } });
    expect(suite.stack.sandbox!.control.requestCount({ platform: 'x', account: x.token, operation: 'comment' })).toBe(1);
    expect(await pool.used(workspaceId)).toBe(used);

    const accepted = await reply({ platform: 'x', commentId: question, message: 'Next month!' });
    expect(accepted).toMatchObject({ status: 200, body: { success: true, repliedAs: x.handle } });
    expect(await pool.used(workspaceId)).toBe(used + 1);
  });
});
