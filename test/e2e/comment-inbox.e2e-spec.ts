import { CommentThreadEntry } from '@app/contracts';
import { TestAccount, useCommentsSuite } from './comments-fixture';

/**
 * The inbox beyond reading and replying, through HTTP on Facebook against the sandbox: threads
 * (parentCommentId, GET …/replies), hide / unhide, deleting the workspace's own reply, the
 * capability flags, and the refusals (nothing sent, nothing appended). Facebook's Comment
 * reference (https://developers.facebook.com/docs/graph-api/reference/comment/): hide with
 * `POST /{comment-id}` is_hidden, delete with `DELETE /{comment-id}`; `parent{id}` on a reply.
 */
describe('comment inbox: threads, hide / unhide, deleting a reply', () => {
  const suite = useCommentsSuite();
  let key: string;
  let workspaceId: string;
  let facebook: TestAccount;
  let commentId: string;

  beforeEach(async () => {
    ({ key, workspaceId, facebook, commentId } = await suite.world.facebookComment('Is there a dark mode?'));
  });

  const post = (path: string, body: Record<string, unknown>, asKey = key) => suite.stack.request('POST', `/api/v1/comments/${path}`, { key: asKey, body });
  const thread = (id: string, platform = 'facebook', asKey = key) =>
    suite.stack.request('GET', `/api/v1/comments/${platform}/${encodeURIComponent(id)}/replies`, { key: asKey }) as Promise<{ status: number; body: { replies: CommentThreadEntry[] } & Record<string, any> }>;
  const deleteReply = (replyId: string, id = commentId, platform = 'facebook') =>
    suite.stack.request('DELETE', `/api/v1/comments/${platform}/${encodeURIComponent(id)}/replies/${encodeURIComponent(replyId)}`, { key });
  const reply = async (message: string, id = commentId): Promise<string> => {
    const response = await post('reply', { platform: 'facebook', commentId: id, message });
    expect(response.status).toBe(200);
    return response.body.result.id;
  };
  const calls = (operation: string) => suite.stack.sandbox!.control.requestCount({ platform: 'facebook', operation: operation as never });

  /** A refusal: the status and code, and neither a platform call nor an event. */
  async function expectRefused(send: () => Promise<{ status: number; body: any }>, status: number, code: string) {
    const [events, platformCalls] = [await suite.stack.eventCount(), calls('hide_comment') + calls('delete_comment')];
    const response = await send();
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
    expect(calls('hide_comment') + calls('delete_comment')).toBe(platformCalls);
    expect(await suite.stack.eventCount()).toBe(events);
    return response.body.error;
  }

  describe('threads', () => {
    it('lists a reply with the comment it answers, and the thread shows it with the workspace’s own reply, oldest first', async () => {
      const answer = suite.world.comment('facebook', commentId, 'Yes please, dark mode!').id;
      const [listedAnswer] = await suite.world.untilListed(key, [answer]);
      expect(listedAnswer).toMatchObject({ parentCommentId: commentId });
      expect(await suite.world.listed(key, commentId)).toMatchObject({ parentCommentId: null });

      const ownReply = await reply('Dark mode ships next week.');
      const response = await thread(commentId);
      expect(response.status).toBe(200);
      expect(response.body.replies).toEqual([
        expect.objectContaining({ kind: 'comment', platformCommentId: answer, parentCommentId: commentId, text: 'Yes please, dark mode!', canReply: true }),
        { kind: 'reply', replyId: ownReply, platform: 'facebook', parentCommentId: commentId, accountId: facebook.id, repliedAs: facebook.handle, text: 'Dark mode ships next week.', createdAt: expect.any(String), canDelete: true },
      ]);
    });

    it('answers an empty thread for a comment nobody answered', async () => {
      expect(await thread(commentId)).toMatchObject({ status: 200, body: { replies: [] } });
    });

    it("refuses a comment that is not the workspace's (404 unknown_comment), and an unknown platform (400 unknown_platform)", async () => {
      expect(await thread('104729_88001234')).toMatchObject({ status: 404, body: { error: { code: 'unknown_comment' } } });
      const { key: otherKey } = await suite.stack.workspace(['read']);
      expect(await thread(commentId, 'facebook', otherKey)).toMatchObject({ status: 404, body: { error: { code: 'unknown_comment' } } });
      expect(await thread(commentId, 'myspace')).toMatchObject({ status: 400, body: { error: { code: 'unknown_platform' } } });
    });
  });

  describe('capability flags', () => {
    it('says what the platform lets the workspace do: everything on Facebook, no hiding on LinkedIn', async () => {
      expect(await suite.world.listed(key, commentId)).toMatchObject({ hidden: false, canReply: true, canHide: true, canDelete: true });
      const linkedin = await suite.world.account(workspaceId, 'linkedin');
      const onLinkedIn = suite.world.comment('linkedin', await suite.world.publish(key, linkedin), 'Great read').id;
      const [comment] = await suite.world.untilListed(key, [onLinkedIn]);
      expect(comment).toMatchObject({ platform: 'linkedin', canReply: true, canHide: false, canDelete: true });
    });
  });

  describe('hide / unhide', () => {
    it('hides the comment on the platform, answers once the list shows it, and publishes CommentHidden; unhide shows it again', async () => {
      const nextHidden = await suite.nextCommentEvent('CommentHidden');
      const hidden = await post('hide', { platform: 'facebook', commentId });
      expect(hidden).toMatchObject({ status: 200, body: { success: true, platformCommentId: commentId, hidden: true } });
      expect(suite.stack.sandbox!.control.commentState('facebook', commentId)).toMatchObject({ hidden: true, deleted: false });
      expect(await suite.world.listed(key, commentId)).toMatchObject({ hidden: true });
      expect(await nextHidden()).toMatchObject({ type: 'CommentHidden', workspaceId, data: { accountId: facebook.id, hiddenAt: expect.any(String) } });

      const shown = await post('unhide', { platform: 'facebook', commentId });
      expect(shown).toMatchObject({ status: 200, body: { success: true, hidden: false } });
      expect(suite.stack.sandbox!.control.commentState('facebook', commentId)).toMatchObject({ hidden: false });
      expect(await suite.world.listed(key, commentId)).toMatchObject({ hidden: false });
    });

    it('hiding a hidden comment is a success that calls nothing and appends nothing', async () => {
      expect((await post('hide', { platform: 'facebook', commentId })).status).toBe(200);
      const [events, hides] = [await suite.world.eventsOfType('CommentHidden'), calls('hide_comment')];
      expect(await post('hide', { platform: 'facebook', commentId })).toMatchObject({ status: 200, body: { hidden: true } });
      expect(await suite.world.eventsOfType('CommentHidden')).toBe(events);
      expect(calls('hide_comment')).toBe(hides);
    });

    it('reports a platform refusal and records nothing', async () => {
      suite.stack.sandbox!.control.addFault({ platform: 'facebook', account: facebook.token, operation: 'hide_comment', fault: { type: 'error', status: 400, code: '100', message: 'Invalid parameter' } });
      const events = await suite.stack.eventCount();
      const response = await post('hide', { platform: 'facebook', commentId });
      expect(response).toMatchObject({ status: 502, body: { error: { code: 'platform_rejected' } } });
      expect(await suite.stack.eventCount()).toBe(events);
      expect(await suite.world.listed(key, commentId)).toMatchObject({ hidden: false });
    });
  });

  describe('deleting the workspace’s reply', () => {
    it('deletes it on the platform; the thread no longer shows it and the comment is unreplied again', async () => {
      const ownReply = await reply('Not yet, soon!');
      expect(await suite.world.listed(key, commentId)).toMatchObject({ replied: true });
      const deleted = await deleteReply(ownReply);
      expect(deleted.status).toBe(204);
      expect(suite.stack.sandbox!.control.commentState('facebook', ownReply)).toMatchObject({ deleted: true });
      expect((await thread(commentId)).body.replies).toEqual([]);
      expect(await suite.world.listed(key, commentId)).toMatchObject({ replied: false });
      expect(await suite.world.eventsOfType('CommentReplyDeleted')).toBeGreaterThan(0);
    });

    it('keeps the comment replied while another reply is live; deleting again calls nothing and appends nothing', async () => {
      const first = await reply('First answer');
      const second = await reply('Second answer');
      expect((await deleteReply(first)).status).toBe(204);
      expect(await suite.world.listed(key, commentId)).toMatchObject({ replied: true });
      expect((await thread(commentId)).body.replies).toEqual([expect.objectContaining({ kind: 'reply', replyId: second })]);

      const [events, deletes] = [await suite.stack.eventCount(), calls('delete_comment')];
      expect((await deleteReply(first)).status).toBe(204);
      expect(await suite.stack.eventCount()).toBe(events);
      expect(calls('delete_comment')).toBe(deletes);
    });
  });

  describe('refusals: nothing sent, nothing appended', () => {
    it('hiding a comment on a platform that cannot hide comments (422 comment_action_not_supported)', async () => {
      const linkedin = await suite.world.account(workspaceId, 'linkedin');
      const onLinkedIn = suite.world.comment('linkedin', await suite.world.publish(key, linkedin), 'Great read').id;
      await suite.world.untilListed(key, [onLinkedIn]);
      const error = await expectRefused(() => post('hide', { platform: 'linkedin', commentId: onLinkedIn }), 422, 'comment_action_not_supported');
      expect(error.details).toEqual({ platform: 'linkedin', action: 'hide' });
      expect(suite.stack.sandbox!.control.requestCount({ platform: 'linkedin' as never, operation: 'hide_comment' as never })).toBe(0);
    });

    it('an unknown comment (404 unknown_comment), on hide, unhide and delete', async () => {
      await expectRefused(() => post('hide', { platform: 'facebook', commentId: '104729_88001234' }), 404, 'unknown_comment');
      await expectRefused(() => post('unhide', { platform: 'facebook', commentId: '104729_88001234' }), 404, 'unknown_comment');
      await expectRefused(() => deleteReply('r-1', '104729_88001234'), 404, 'unknown_comment');
    });

    it("a reply that is not one of the workspace's (404 unknown_reply)", async () => {
      const someoneElses = suite.world.comment('facebook', commentId, 'me too').id;
      await suite.world.untilListed(key, [someoneElses]);
      await expectRefused(() => deleteReply(someoneElses), 404, 'unknown_reply');
    });

    it('an account on another platform (400 account_platform_mismatch), an unknown platform (400 unknown_platform)', async () => {
      const x = await suite.world.account(workspaceId, 'x');
      await expectRefused(() => post('hide', { platform: 'facebook', commentId, accountId: x.id }), 400, 'account_platform_mismatch');
      await expectRefused(() => post('hide', { platform: 'myspace', commentId }), 400, 'unknown_platform');
    });

    it('a body without commentId (400 invalid_body), a key without engage (403 insufficient_scope)', async () => {
      await expectRefused(() => post('hide', { platform: 'facebook' }), 400, 'invalid_body');
      const { key: readOnly } = await suite.stack.workspace(['read', 'write', 'publish']);
      await expectRefused(() => post('hide', { platform: 'facebook', commentId }, readOnly), 403, 'insufficient_scope');
      await expectRefused(() => suite.stack.request('DELETE', `/api/v1/comments/facebook/${commentId}/replies/r-1`, { key: readOnly }), 403, 'insufficient_scope');
    });
  });
});
