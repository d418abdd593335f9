import type { ConnectorAccount } from '../connector';
import { mediaAccount, mediaPost, mediaSandbox, platformCall } from './media.test-support';

/**
 * Bluesky hides replies through the thread's threadgate (app.bsky.feed.threadgate, `hiddenReplies`,
 * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/threadgate.json), read
 * with getRecord and written whole with putRecord (https://docs.bsky.app/docs/api/com-atproto-repo-put-record).
 */
describe('Bluesky hiding replies with the threadgate', () => {
  const env = mediaSandbox();
  let seq = 0;

  const bluesky = () => env.impatient.get('bluesky');
  const account = (): ConnectorAccount => mediaAccount(env, 'bluesky', { handle: `@gate${++seq}.bsky.social` });
  async function thread(owner: ConnectorAccount): Promise<string> {
    const outcome = await bluesky().publish(owner, mediaPost(`Thread ${seq}`));
    if (outcome.status !== 'published') throw new Error(JSON.stringify(outcome));
    return outcome.platformPostId;
  }
  const reply = (parentId: string, text: string) => env.sandbox.control.addComment({ platform: 'bluesky', parentId, text, author: `fan${++seq}.bsky.social` }).id;
  const threadgateOf = async (owner: ConnectorAccount, root: string) => {
    const rkey = root.split('/').pop()!;
    const { body } = await platformCall(env, owner, 'GET', `/xrpc/com.atproto.repo.getRecord?repo=${owner.identity.platformAccountId}&collection=app.bsky.feed.threadgate&rkey=${rkey}`);
    return body as { value?: { post: string; hiddenReplies: string[]; allow?: unknown[] } };
  };

  it('writes a threadgate naming the root on the first hide, with no allow rules (anyone may still reply)', async () => {
    const owner = account();
    const root = await thread(owner);
    const spam = reply(root, 'buy followers');
    await bluesky().setCommentHidden(owner, { platformCommentId: spam, platformPostId: root }, true);
    const gate = await threadgateOf(owner, root);
    expect(gate.value).toEqual({ $type: 'app.bsky.feed.threadgate', post: root, createdAt: expect.any(String), hiddenReplies: [spam] });
    expect(env.sandbox.control.commentState('bluesky', spam)).toMatchObject({ hidden: true });
  });

  it('keeps the other hidden replies and the allow rules already there; showing one again removes only it', async () => {
    const owner = account();
    const root = await thread(owner);
    const [first, second] = [reply(root, 'spam one'), reply(root, 'spam two')];
    const nestedReply = reply(first, 'nested spam');
    // A threadgate the author wrote before (only followers may reply), through the PDS directly.
    const allow = [{ $type: 'app.bsky.feed.threadgate#followerRule' }];
    const rkey = root.split('/').pop()!;
    await platformCall(env, owner, 'POST', '/xrpc/com.atproto.repo.putRecord', {
      json: { repo: owner.identity.platformAccountId, collection: 'app.bsky.feed.threadgate', rkey, record: { $type: 'app.bsky.feed.threadgate', post: root, createdAt: '2030-01-01T00:00:00.000Z', allow } },
    });

    for (const id of [first, second, nestedReply]) await bluesky().setCommentHidden(owner, { platformCommentId: id, platformPostId: root }, true);
    expect((await threadgateOf(owner, root)).value).toMatchObject({ allow, createdAt: '2030-01-01T00:00:00.000Z', hiddenReplies: [first, second, nestedReply] });
    await bluesky().setCommentHidden(owner, { platformCommentId: second, platformPostId: root }, false);
    expect((await threadgateOf(owner, root)).value).toMatchObject({ allow, hiddenReplies: [first, nestedReply] });
    expect([first, second, nestedReply].map((id) => env.sandbox.control.commentState('bluesky', id).hidden)).toEqual([true, false, true]);
    // Hiding twice lists it once.
    await bluesky().setCommentHidden(owner, { platformCommentId: first, platformPostId: root }, true);
    expect((await threadgateOf(owner, root)).value?.hiddenReplies).toEqual([nestedReply, first]);
  });

  it('refuses, without a request, to hide a reply in a thread another account started', async () => {
    const [owner, stranger] = [account(), account()];
    const root = await thread(owner);
    const spam = reply(root, 'spam');
    await expect(bluesky().setCommentHidden(stranger, { platformCommentId: spam, platformPostId: root }, true)).rejects.toMatchObject({ error: { code: 'not_thread_author', retryable: false } });
    expect(env.sandbox.control.requestCount({ account: stranger.accountId, operation: 'hide_comment' })).toBe(0);
    expect(env.sandbox.control.commentState('bluesky', spam).hidden).toBe(false);
  });
});
