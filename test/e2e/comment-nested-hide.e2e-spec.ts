import { TestStack } from '../support/test-stack';
import { CommentsWorld, startCommentsStack } from './comments-fixture';

/**
 * Per-comment canHide: Threads hides top-level replies only ("Replies nested deeper than the
 * top-level reply cannot be targeted in isolation", https://developers.facebook.com/docs/threads/reply-management),
 * so a nested reply lists canHide false and hiding it is refused before any call, appending nothing.
 */
describe('hiding a nested Threads reply', () => {
  let stack: TestStack;
  let world: CommentsWorld;

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
  });
  afterAll(() => stack.stop());

  it('lists canHide false for the nested reply only; hiding it is 422 comment_action_not_supported with no request and no event; its parent hides', async () => {
    const { key, workspaceId } = await stack.workspace();
    const threads = await world.account(workspaceId, 'threads');
    const item = await world.publish(key, threads);
    const topLevel = world.comment('threads', item, 'Does it work offline?').id;
    const nested = world.comment('threads', topLevel, 'Asking the same thing').id;
    const [listedTop, listedNested] = await Promise.all([topLevel, nested].map(async (id) => (await world.untilListed(key, [id]))[0]));
    expect(listedTop).toMatchObject({ parentCommentId: null, canReply: true, canHide: true, canDelete: true });
    expect(listedNested).toMatchObject({ parentCommentId: topLevel, canReply: true, canHide: false, canDelete: true });

    const hideCalls = () => world.sandbox.requestCount({ account: threads.token, operation: 'hide_comment' });
    const events = await stack.eventCount();
    const refused = await stack.request('POST', '/api/v1/comments/hide', { key, body: { platform: 'threads', commentId: nested } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'comment_action_not_supported', details: { platform: 'threads', action: 'hide' } });
    expect(hideCalls()).toBe(0);
    expect(await stack.eventCount()).toBe(events);

    const hidden = await stack.request('POST', '/api/v1/comments/hide', { key, body: { platform: 'threads', commentId: topLevel } });
    expect(hidden).toMatchObject({ status: 200, body: { hidden: true } });
    expect(hideCalls()).toBe(1);
  });
});
