import { COMMENT_CAPABILITIES, Platform, PLATFORMS } from '@app/contracts';
import { TestStack } from '../support/test-stack';
import { CommentsWorld, startCommentsStack, TestAccount } from './comments-fixture';

/**
 * Hiding, showing again and deleting the workspace's own replies through HTTP, on every platform
 * whose API offers it (COMMENT_CAPABILITIES), against the sandbox playing each platform's documented
 * endpoint (the pages are named in libs/platforms/src/comment-moderation.int-spec.ts and next to each
 * connector call): Facebook `POST /{comment-id}` is_hidden and `DELETE /{comment-id}`, Instagram
 * `POST /{ig-comment-id}` hide and `DELETE`, Threads `POST /{reply-id}/manage_reply` and
 * `DELETE /{threads-media-id}`, X `PUT /2/tweets/:id/hidden` and `DELETE /2/tweets/:id`, YouTube
 * `comments.setModerationStatus` and `comments.delete`, LinkedIn `DELETE /rest/socialActions/{urn}/comments/{id}`,
 * Mastodon `DELETE /api/v1/statuses/:id`, Bluesky `com.atproto.repo.deleteRecord` and the threadgate's
 * `hiddenReplies` (`com.atproto.repo.putRecord`, libs/platforms/src/connectors/bluesky.threadgate.int-spec.ts).
 * A platform without the capability answers comment_action_not_supported and records nothing.
 */

const hideable = PLATFORMS.filter((platform) => COMMENT_CAPABILITIES[platform].hide);
const deletable = PLATFORMS.filter((platform) => COMMENT_CAPABILITIES[platform].deleteOwnReply);
/** Platforms with comments to act on whose API cannot hide them. */
const notHideable = PLATFORMS.filter((platform) => COMMENT_CAPABILITIES[platform].reply && !COMMENT_CAPABILITIES[platform].hide);

/** Instagram and YouTube posts need media; the sandbox's media host serves these. */
const MEDIA: Partial<Record<Platform, string>> = { instagram: 'photo.jpg', youtube: 'clip.mp4' };

/** Each platform's comments, one per test, all left (and listed) before the tests start. */
interface PlatformSetup {
  account: TestAccount;
  toHide: string;
  toAnswer: string;
  toRefuse: string;
}

describe('comment moderation through HTTP', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  let workspaceId: string;
  const setups = new Map<Platform, PlatformSetup>();

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
    ({ key, workspaceId } = await stack.workspace());
    // Every platform at once: publishing and the first polls are what takes time.
    const platforms = [...new Set([...hideable, ...deletable, ...notHideable])];
    await Promise.all(platforms.map(async (platform) => setups.set(platform, await commentedPost(platform))));
    await world.untilListed(key, [...setups.values()].flatMap(({ toHide, toAnswer, toRefuse }) => [toHide, toAnswer, toRefuse]), 20_000);
  });
  afterAll(async () => {
    await stack.stop();
  });

  /** A connected account, one of its posts, and comments someone left under it. */
  async function commentedPost(platform: Platform): Promise<PlatformSetup> {
    const account = await world.account(workspaceId, platform);
    const media = MEDIA[platform];
    const post = await world.publish(key, account, `Launch day on ${platform}`, media ? { mediaUrls: [world.mediaUrl(media)] } : {});
    const comment = (text: string) => world.comment(platform, post, text).id;
    return { account, toHide: comment('this is spam, click my link'), toAnswer: comment('do you ship to Norway?'), toRefuse: comment('first!') };
  }

  const setup = (platform: Platform) => setups.get(platform)!;
  const moderate = (action: 'hide' | 'unhide', platform: Platform, commentId: string) => stack.request('POST', `/api/v1/comments/${action}`, { key, body: { platform, commentId } });

  it.each(hideable)('%s: hides a comment, then shows it again, on the platform and in the list', async (platform) => {
    const commentId = setup(platform).toHide;
    expect(await world.listed(key, commentId)).toMatchObject({ hidden: false, canHide: true });
    const [hiddenBefore, unhiddenBefore] = [await world.eventsOfType('CommentHidden'), await world.eventsOfType('CommentUnhidden')];

    const hidden = await moderate('hide', platform, commentId);
    expect(hidden).toMatchObject({ status: 200, body: { success: true, platformCommentId: commentId, hidden: true } });
    expect(world.sandbox.commentState(platform, commentId)).toMatchObject({ hidden: true, deleted: false });
    // Read-your-writes: the answer came once the list showed it.
    expect(await world.listed(key, commentId)).toMatchObject({ hidden: true });
    expect(await world.eventsOfType('CommentHidden')).toBe(hiddenBefore + 1);

    const shown = await moderate('unhide', platform, commentId);
    expect(shown).toMatchObject({ status: 200, body: { success: true, platformCommentId: commentId, hidden: false } });
    expect(world.sandbox.commentState(platform, commentId)).toMatchObject({ hidden: false, deleted: false });
    expect(await world.listed(key, commentId)).toMatchObject({ hidden: false });
    expect(await world.eventsOfType('CommentUnhidden')).toBe(unhiddenBefore + 1);
  });

  it.each(deletable)("%s: deletes the workspace's own reply from the platform and the thread", async (platform) => {
    const commentId = setup(platform).toAnswer;
    const replied = await stack.request('POST', '/api/v1/comments/reply', { key, body: { platform, commentId, message: 'Please do not post links here.' } });
    expect(replied.status).toBe(200);
    const replyId: string = replied.body.result.id;
    const threadPath = `/api/v1/comments/${platform}/${encodeURIComponent(commentId)}/replies`;
    expect((await stack.request('GET', threadPath, { key })).body.replies).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'reply', replyId, canDelete: true })]));
    const before = await world.eventsOfType('CommentReplyDeleted');

    const deleted = await stack.request('DELETE', `${threadPath}/${encodeURIComponent(replyId)}`, { key });
    expect(deleted.status).toBe(204);
    expect(world.sandbox.commentState(platform, replyId)).toMatchObject({ deleted: true });
    expect(world.sandbox.commentState(platform, commentId)).toMatchObject({ deleted: false });
    const thread = (await stack.request('GET', threadPath, { key })).body.replies as Array<{ kind: string; replyId?: string }>;
    expect(thread.filter((entry) => entry.kind === 'reply' && entry.replyId === replyId)).toEqual([]);
    expect(await world.eventsOfType('CommentReplyDeleted')).toBe(before + 1);
  });

  it.each(notHideable)('%s: hiding is refused with comment_action_not_supported; nothing is sent or recorded', async (platform) => {
    const { account, toRefuse: commentId } = setup(platform);
    expect(await world.listed(key, commentId)).toMatchObject({ canHide: false });
    const events = await stack.eventCount();

    const response = await moderate('hide', platform, commentId);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'comment_action_not_supported', message: expect.any(String) });
    expect(await stack.eventCount()).toBe(events);
    expect(world.sandbox.requestCount({ platform, account: account.token, operation: 'hide_comment' })).toBe(0);
    expect(world.sandbox.commentState(platform, commentId)).toMatchObject({ hidden: false, deleted: false });
  });
});
