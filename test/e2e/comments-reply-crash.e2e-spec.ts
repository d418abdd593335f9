import { COMMENT_CAPABILITIES, Platform, PLATFORMS } from '@app/contracts';
import { TestStack } from '../support/test-stack';
import { CommentsWorld, sleep, startCommentsStack, TestAccount } from './comments-fixture';

/**
 * A reply is started (CommentReplyStarted) before its one platform call and recorded
 * (CommentReplied) after it: a lost answer or a comments service stopped in between leaves
 * a started reply, and the client's retry of the same reply looks it up under the post instead
 * of posting it again: exactly one reply on the platform. The lookup knows the account's own
 * reply by the author each platform's comment listing names (the sandbox names authors as the
 * platforms document them): Facebook `from.id` (https://developers.facebook.com/docs/graph-api/reference/comment/),
 * Instagram `from.id` (https://developers.facebook.com/docs/graph-api/changelog/ooc-changes/oct-20-2021),
 * X `author_id` (https://docs.x.com/x-api/posts/search/quickstart/recent-search), YouTube
 * `authorChannelId.value` (https://developers.google.com/youtube/v3/docs/comments), LinkedIn `actor`
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api),
 * Mastodon `account.id` (https://docs.joinmastodon.org/entities/Status/), Bluesky `author.did`
 * (https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread) and Threads' `username`
 * (GET /{media-id}/conversation, with "replied_to":
 * https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations).
 */
describe('POST /api/v1/comments/reply after a crash or a lost answer', () => {
  let stack: TestStack;
  let world: CommentsWorld;

  beforeAll(async () => {
    stack = await startCommentsStack({ commandTimeoutMs: 3_000 });
    world = new CommentsWorld(stack);
  });
  afterAll(() => stack.stop());
  beforeEach(() => world.sandbox.clearFaults());

  /** Every platform the workspace can reply on. */
  const REPLYABLE = PLATFORMS.filter((platform) => COMMENT_CAPABILITIES[platform].reply);
  /**
   * Mastodon keeps a status creation's Idempotency-Key (https://docs.joinmastodon.org/methods/statuses/#create),
   * so its connector resends a reply whose answer was lost and gets the one status back: only when
   * every answer is lost does the reply stay unrecorded until the retry.
   */
  const DROPPED: Partial<Record<Platform, 'always'>> = { mastodon: 'always' };
  /** Instagram and YouTube posts need media; the sandbox's media host serves these. */
  const MEDIA: Partial<Record<Platform, string>> = { instagram: 'photo.jpg', youtube: 'clip.mp4' };

  /** A new workspace, an account on the platform, one of its posts and a fan's comment under it, listed. */
  async function commentedPost(platform: Platform, text: string) {
    const { key, workspaceId } = await stack.workspace();
    const account = await world.account(workspaceId, platform);
    const media = MEDIA[platform];
    const item = await world.publish(key, account, undefined, media ? { mediaUrls: [world.mediaUrl(media)] } : {});
    const commentId = world.comment(platform, item, text).id;
    await world.untilListed(key, [commentId]);
    return { key, account, commentId };
  }

  const repliesOn = (account: TestAccount) => world.sandbox.published({ account: account.token, kind: 'comment' });
  const replyCallsOf = (account: TestAccount) => world.sandbox.requestCount({ account: account.token, operation: 'comment' });
  async function eventsOn(platformCommentId: string, type: string): Promise<Array<Record<string, unknown>>> {
    const { rows } = await stack.db.pool.query<{ data: Record<string, unknown> }>(
      "SELECT e.data FROM events e WHERE e.type = $1 AND e.data->>'commentId' = (SELECT id::text FROM comment_views WHERE platform_comment_id = $2)",
      [type, platformCommentId],
    );
    return rows.map((row) => row.data);
  }

  it.each(REPLYABLE)('%s: a lost answer leaves the reply live but unrecorded; the retry finds it (by its author) and records it, posting nothing', async (platform) => {
    const { key, account, commentId } = await commentedPost(platform, 'Is there a student discount?');
    const reply = (message: string) => stack.request('POST', '/api/v1/comments/reply', { key, body: { platform, commentId, message } });
    world.sandbox.addFault({ platform, account: account.token, operation: 'comment', fault: { type: 'drop' }, times: DROPPED[platform] });
    const lost = await reply('Yes: 20% off with a student email.');
    expect(lost.body.error).toMatchObject({ code: 'platform_outcome_unknown' });
    expect(repliesOn(account)).toHaveLength(1);
    world.sandbox.clearFaults();
    const callsBeforeRetry = replyCallsOf(account);
    const [started] = await eventsOn(commentId, 'CommentReplyStarted');
    expect(started).toMatchObject({ replyKey: expect.any(String), message: 'Yes: 20% off with a student email.' });
    expect(await eventsOn(commentId, 'CommentReplied')).toEqual([]);
    // Polls read the live, unrecorded reply meanwhile: its author, the account itself, keeps it out of the list.
    const polls = world.sandbox.requestCount({ account: account.token, operation: 'list_comments' });
    while (world.sandbox.requestCount({ account: account.token, operation: 'list_comments' }) < polls + 2) await sleep(10);
    expect((await world.list(key, '?limit=50')).body.comments.map((c) => c.platformCommentId)).toEqual([commentId]);

    const retried = await reply('Yes: 20% off with a student email.');
    const [live] = repliesOn(account);
    expect(retried).toMatchObject({ status: 200, body: { success: true, result: { id: live.id } } });
    expect(repliesOn(account)).toHaveLength(1);
    expect(replyCallsOf(account)).toBe(callsBeforeRetry);
    expect(await eventsOn(commentId, 'CommentReplyStarted')).toHaveLength(1);
    expect(await eventsOn(commentId, 'CommentReplied')).toEqual([expect.objectContaining({ replyKey: started.replyKey, reconciled: true, replyPlatformId: live.id })]);
    expect(await world.listed(key, commentId)).toMatchObject({ replied: true });
    // Its own reply, found by the retry, is never taken for a new comment.
    await sleep(200);
    expect((await world.list(key, '?limit=50')).body.comments.map((c) => c.platformCommentId)).toEqual([commentId]);
  });

  describe('on Threads', () => {
    let key: string;
    let threads: TestAccount;
    let commentId: string;

    beforeEach(async () => {
      ({ key, account: threads, commentId } = await commentedPost('threads', 'Is there a student discount?'));
    });

    const reply = (message: string) => stack.request('POST', '/api/v1/comments/reply', { key, body: { platform: 'threads', commentId, message } });
    const repliesOnPlatform = () => repliesOn(threads);
    const replyCalls = () => replyCallsOf(threads);
    const eventsOf = (type: string) => eventsOn(commentId, type);

    it('the comments service stopped while the platform holds the reply: after a restart, the retry records the one reply', async () => {
      world.sandbox.addFault({ platform: 'threads', account: threads.token, operation: 'comment', fault: { type: 'latency', ms: 1_500 } });
      const first = reply('We ship worldwide.');
      while (replyCalls() < 1) await sleep(10);
      await stack.stopApp('comments');
      world.sandbox.clearFaults();
      await stack.startApp('comments');
      expect((await first).status).toBeGreaterThanOrEqual(500);
      while (repliesOnPlatform().length < 1) await sleep(25);
      expect(await eventsOf('CommentReplied')).toEqual([]);

      const retried = await reply('We ship worldwide.');
      expect(retried).toMatchObject({ status: 200, body: { result: { id: repliesOnPlatform()[0].id } } });
      expect(repliesOnPlatform()).toHaveLength(1);
      expect(replyCalls()).toBe(1);
      expect(await eventsOf('CommentReplied')).toEqual([expect.objectContaining({ reconciled: true })]);
    });

    it('a started reply the platform never made (refused): the retry looks, finds nothing, and posts it once', async () => {
      world.sandbox.addFault({ platform: 'threads', account: threads.token, operation: 'comment', fault: { type: 'error', status: 400, code: '100', message: 'Invalid parameter' } });
      expect((await reply('Check your inbox.')).body.error).toMatchObject({ code: 'platform_rejected' });
      expect(repliesOnPlatform()).toHaveLength(0);

      const retried = await reply('Check your inbox.');
      expect(retried.status).toBe(200);
      expect(repliesOnPlatform()).toHaveLength(1);
      expect(world.sandbox.requestCount({ account: threads.token, operation: 'list_comments' })).toBeGreaterThan(0);
      expect(await eventsOf('CommentReplyStarted')).toHaveLength(1);
      expect(await eventsOf('CommentReplied')).toEqual([expect.not.objectContaining({ reconciled: true })]);
    });

    it('the same text again once the first is recorded is a second reply, posted (not a retry)', async () => {
      expect((await reply('Thank you!')).status).toBe(200);
      expect((await reply('Thank you!')).status).toBe(200);
      expect(repliesOnPlatform()).toHaveLength(2);
      expect(await eventsOf('CommentReplyStarted')).toHaveLength(2);
      expect(await eventsOf('CommentReplied')).toHaveLength(2);
    });
  });
});
