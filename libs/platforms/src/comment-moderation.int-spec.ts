import { COMMENT_CAPABILITIES, PLATFORMS, type Platform } from '@app/contracts';
import type { SandboxIdentity } from '@app/platform-sandbox';
import type { ConnectorAccount, PublishRequest } from './connector';
import { mediaAccount, mediaPost, mediaSandbox, mediaUrl } from './connectors/media.test-support';
import { PlatformCallFailed } from './http/platform-http';

/**
 * Hiding, showing again and deleting comments through every connector, against the sandbox,
 * which plays each platform's documented endpoint:
 * - Facebook: Comment reference, https://developers.facebook.com/docs/graph-api/reference/comment/
 * - Instagram: IG Comment reference, https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/
 * - Threads: Reply Management, https://developers.facebook.com/docs/threads/reply-management, and
 *   Delete Posts, https://developers.facebook.com/docs/threads/posts/delete-posts
 * - X: Hide replies, https://docs.x.com/x-api/posts/hide-replies/introduction, and
 *   https://developer.x.com/en/docs/x-api/tweets/manage-tweets/api-reference/delete-tweets-id
 * - YouTube: https://developers.google.com/youtube/v3/docs/comments/setModerationStatus and
 *   https://developers.google.com/youtube/v3/docs/comments/delete
 * - LinkedIn: Comments API, https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 * - Mastodon: https://docs.joinmastodon.org/methods/statuses/#delete
 * - Bluesky: https://docs.bsky.app/docs/api/com-atproto-repo-delete-record, hide through the threadgate
 *   (https://docs.bsky.app/docs/api/com-atproto-repo-put-record, lexicons/app/bsky/feed/threadgate.json)
 * Platforms without a capability (COMMENT_CAPABILITIES) refuse it without a request.
 */

interface ModerationCase {
  platform: Platform;
  platformAccountId?: string;
  kind?: SandboxIdentity['kind'];
  /** A post the platform accepts (its comments are what is moderated). */
  post: () => PublishRequest;
  /** Scopes a sign-in would grant, less the one the action needs: the platform refuses the action. */
  withoutHideScope?: string[];
  withoutDeleteScope?: string[];
  /** The code the connector gives the platform's refusal for a missing scope. */
  scopeRefusalCode?: string;
  /** Facebook and Instagram let the account delete anyone's comment under its own posts; elsewhere only its own. */
  deletesOthersUnderOwnPosts?: true;
  /** YouTube: a held comment leaves the default comment listing; elsewhere the hidden comment stays listed. */
  hiddenLeavesListing?: true;
  /** Mastodon answers someone else's status with the same 404 as a deleted one, which the connector takes as gone. */
  othersLookDeleted?: true;
}

const CASES: ModerationCase[] = [
  {
    platform: 'facebook', platformAccountId: '1040001', kind: 'page', post: () => mediaPost('Hello page'), deletesOthersUnderOwnPosts: true,
    // Replying and deleting take the same permission (pages_manage_engagement): no sign-in can do one and not the other.
    withoutHideScope: ['pages_manage_posts', 'pages_read_engagement'], scopeRefusalCode: 'permission_denied',
  },
  {
    platform: 'instagram', platformAccountId: '17841400000001', kind: 'instagram', post: () => mediaPost('Caption', [mediaUrl(env, 'photo.jpg')]), deletesOthersUnderOwnPosts: true,
    withoutHideScope: ['instagram_basic', 'instagram_content_publish', 'pages_read_engagement'], scopeRefusalCode: 'permission_denied',
  },
  {
    platform: 'threads', platformAccountId: '7001', post: () => mediaPost('Hello threads'),
    withoutHideScope: ['threads_basic', 'threads_content_publish', 'threads_delete'], withoutDeleteScope: ['threads_basic', 'threads_content_publish', 'threads_manage_replies'], scopeRefusalCode: 'permission_denied',
  },
  {
    platform: 'x', platformAccountId: '2244994945', post: () => mediaPost('Hello from the sandbox'),
    withoutHideScope: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'], scopeRefusalCode: 'forbidden',
  },
  {
    platform: 'youtube', post: () => mediaPost('Launch video\nAll the details', [mediaUrl(env, 'clip.mp4')]), hiddenLeavesListing: true,
    // Replying and deleting both take youtube.force-ssl: no sign-in can do one and not the other.
    withoutHideScope: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'], scopeRefusalCode: 'insufficient_permissions',
  },
  { platform: 'linkedin', platformAccountId: 'urn:li:organization:1001', kind: 'organization', post: () => mediaPost('Hello network') },
  // Posting a reply and deleting it both take write:statuses: no sign-in can do one and not the other.
  { platform: 'mastodon', post: () => mediaPost('Hello fediverse'), othersLookDeleted: true },
  { platform: 'bluesky', platformAccountId: 'did:plc:brand', post: () => mediaPost('Hello sky') },
];

const env = mediaSandbox();
let sequence = 0;

/** A fresh account signed in on the sandbox; `scopes` = what the user granted (none named = the documented ones). */
function accountFor(testCase: { platform: Platform; platformAccountId?: string; kind?: SandboxIdentity['kind'] }, scopes?: string[]): ConnectorAccount {
  return mediaAccount(env, testCase.platform, { kind: testCase.kind, platformAccountId: testCase.platformAccountId, scopes });
}

async function publishedPost(testCase: ModerationCase, account: ConnectorAccount): Promise<string> {
  const outcome = await env.impatient.get(testCase.platform).publish(account, testCase.post());
  if (outcome.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(outcome)}`);
  return outcome.platformPostId;
}

/** A comment "someone else" leaves under the post. */
function someoneComments(platform: Platform, parentId: string, text = 'first!'): string {
  return env.sandbox.control.addComment({ platform, parentId, text, author: `fan${++sequence}` }).id;
}

async function failureOf(call: Promise<unknown>): Promise<PlatformCallFailed['error']> {
  const error = await call.then(() => null, (thrown: unknown) => thrown);
  if (!(error instanceof PlatformCallFailed)) throw new Error(`expected PlatformCallFailed, got ${String(error)}`);
  return error.error;
}

describe.each(CASES.filter((testCase) => COMMENT_CAPABILITIES[testCase.platform].hide))('$platform hiding comments', (testCase) => {
  const connector = () => env.impatient.get(testCase.platform);

  it("hides a comment someone else left under the account's post, then shows it again", async () => {
    const account = accountFor(testCase);
    const platformPostId = await publishedPost(testCase, account);
    const platformCommentId = someoneComments(testCase.platform, platformPostId);
    const listed = async () => (await connector().listComments(account, platformPostId)).map((comment) => comment.platformCommentId);

    await connector().setCommentHidden(account, { platformCommentId, platformPostId }, true);
    expect(env.sandbox.control.commentState(testCase.platform, platformCommentId)).toMatchObject({ hidden: true, deleted: false });
    expect(await listed()).toEqual(testCase.hiddenLeavesListing ? [] : [platformCommentId]);
    await connector().setCommentHidden(account, { platformCommentId, platformPostId }, false);
    expect(env.sandbox.control.commentState(testCase.platform, platformCommentId)).toMatchObject({ hidden: false, deleted: false });
    expect(await listed()).toEqual([platformCommentId]);
    expect(env.sandbox.control.requestCount({ account: account.accountId, operation: 'hide_comment' })).toBe(2);
  });

  it("is refused hiding a comment under someone else's post, and the comment stays visible", async () => {
    const owner = accountFor(testCase);
    const platformPostId = await publishedPost(testCase, owner);
    const platformCommentId = someoneComments(testCase.platform, platformPostId);
    // Another account: its own platform id too (Bluesky's threadgate is written in the root author's repo, named by DID).
    const stranger = accountFor({ ...testCase, platformAccountId: undefined });

    const error = await failureOf(connector().setCommentHidden(stranger, { platformCommentId, platformPostId }, true));
    expect(error.retryable).toBe(false);
    expect(env.sandbox.control.commentState(testCase.platform, platformCommentId).hidden).toBe(false);
  });

  if (testCase.withoutHideScope) {
    it('is refused by the platform when the sign-in did not grant the moderation permission, and nothing changes', async () => {
      const account = accountFor(testCase, testCase.withoutHideScope);
      const platformPostId = await publishedPost(testCase, account);
      const platformCommentId = someoneComments(testCase.platform, platformPostId);

      const error = await failureOf(connector().setCommentHidden(account, { platformCommentId, platformPostId }, true));
      expect(error).toMatchObject({ code: testCase.scopeRefusalCode, retryable: false });
      expect(env.sandbox.control.commentState(testCase.platform, platformCommentId).hidden).toBe(false);
    });
  }
});

it('Threads hides top-level replies only: a nested reply "cannot be targeted in isolation" (Reply Management)', async () => {
  const threads = CASES.find((testCase) => testCase.platform === 'threads')!;
  const account = accountFor(threads);
  const platformPostId = await publishedPost(threads, account);
  const topLevel = someoneComments('threads', platformPostId);
  const nested = someoneComments('threads', topLevel, 'me too');

  const error = await failureOf(env.impatient.get('threads').setCommentHidden(account, { platformCommentId: nested, platformPostId }, true));
  expect(error).toMatchObject({ code: 'invalid_parameter', retryable: false });
  expect(env.sandbox.control.commentState('threads', nested).hidden).toBe(false);
});

describe.each(CASES.filter((testCase) => COMMENT_CAPABILITIES[testCase.platform].deleteOwnReply))('$platform deleting own replies', (testCase) => {
  const connector = () => env.impatient.get(testCase.platform);

  it("deletes the account's own reply, which leaves the platform's comment listing", async () => {
    const account = accountFor(testCase);
    const platformPostId = await publishedPost(testCase, account);
    const question = someoneComments(testCase.platform, platformPostId, 'when does it ship?');
    const reply = await connector().comment(account, { kind: 'comment', platformCommentId: question, platformPostId }, 'next week!', `reply-${Math.random()}`);
    if (reply.status !== 'published') throw new Error(`reply failed: ${JSON.stringify(reply)}`);

    const before = await connector().listComments(account, platformPostId);
    expect(before.find((comment) => comment.platformCommentId === reply.platformPostId)).toMatchObject({ inReplyToCommentId: question });
    expect(before.find((comment) => comment.platformCommentId === question)).toMatchObject({ inReplyToCommentId: null });

    await connector().deleteComment(account, { platformCommentId: reply.platformPostId, platformPostId });
    expect(env.sandbox.control.commentState(testCase.platform, reply.platformPostId)).toMatchObject({ deleted: true });
    const after = await connector().listComments(account, platformPostId);
    expect(after.map((comment) => comment.platformCommentId)).toEqual([question]);
  });

  it('deletes once when the answer is lost: the resend finds it gone, which counts as deleted', async () => {
    const account = accountFor(testCase);
    const platformPostId = await publishedPost(testCase, account);
    const reply = await connector().comment(account, { kind: 'post', platformPostId }, 'thanks all', `reply-${Math.random()}`);
    if (reply.status !== 'published') throw new Error(`reply failed: ${JSON.stringify(reply)}`);
    env.sandbox.control.addFault({ platform: testCase.platform, account: account.accountId, operation: 'delete_comment', times: 1, fault: { type: 'drop' } });

    await connector().deleteComment(account, { platformCommentId: reply.platformPostId, platformPostId });
    expect(env.sandbox.control.commentState(testCase.platform, reply.platformPostId)).toMatchObject({ deleted: true });
    expect(env.sandbox.control.requestCount({ account: account.accountId, operation: 'delete_comment' })).toBe(2);
  });

  if (!testCase.deletesOthersUnderOwnPosts) {
    it(testCase.othersLookDeleted ? "is not let delete someone else's comment, which stays" : "is refused deleting someone else's comment, which stays", async () => {
      const account = accountFor(testCase);
      const platformPostId = await publishedPost(testCase, account);
      const platformCommentId = someoneComments(testCase.platform, platformPostId);

      const deleting = connector().deleteComment(account, { platformCommentId, platformPostId });
      if (testCase.othersLookDeleted) await deleting;
      else expect((await failureOf(deleting)).retryable).toBe(false);
      expect(env.sandbox.control.commentState(testCase.platform, platformCommentId).deleted).toBe(false);
    });
  }

  if (testCase.withoutDeleteScope) {
    it('is refused deleting when the sign-in did not grant the permission, and the reply stays', async () => {
      const account = accountFor(testCase, testCase.withoutDeleteScope);
      const platformPostId = await publishedPost(testCase, account);
      const reply = await connector().comment(account, { kind: 'post', platformPostId }, 'thanks all', `reply-${Math.random()}`);
      if (reply.status !== 'published') throw new Error(`reply failed: ${JSON.stringify(reply)}`);

      const error = await failureOf(connector().deleteComment(account, { platformCommentId: reply.platformPostId, platformPostId }));
      expect(error).toMatchObject({ code: testCase.scopeRefusalCode, retryable: false });
      expect(env.sandbox.control.commentState(testCase.platform, reply.platformPostId).deleted).toBe(false);
    });
  }
});

describe('platforms without a capability', () => {
  const lacking = (capability: 'hide' | 'deleteOwnReply') => PLATFORMS.filter((platform) => !COMMENT_CAPABILITIES[platform][capability]);

  it.each(lacking('hide'))('%s refuses hiding with comment_action_not_supported and makes no request', async (platform) => {
    const account = accountFor({ platform });
    const error = await failureOf(env.impatient.get(platform).setCommentHidden(account, { platformCommentId: 'c1', platformPostId: 'p1' }, true));
    expect(error).toMatchObject({ code: 'comment_action_not_supported', retryable: false });
    expect(env.sandbox.control.requestCount({ account: account.accountId })).toBe(0);
  });

  it.each(lacking('deleteOwnReply'))('%s refuses deleting with comment_action_not_supported and makes no request', async (platform) => {
    const account = accountFor({ platform });
    const error = await failureOf(env.impatient.get(platform).deleteComment(account, { platformCommentId: 'c1', platformPostId: 'p1' }));
    expect(error).toMatchObject({ code: 'comment_action_not_supported', retryable: false });
    expect(env.sandbox.control.requestCount({ account: account.accountId })).toBe(0);
  });
});
