import { COMMENT_CAPABILITIES, type Platform } from '@app/contracts';
import type { SandboxIdentity } from '@app/platform-sandbox';
import { PlatformAuthRegistry } from '../auth/auth-registry';
import type { PublishRequest } from '../connector';
import { mediaAccount, mediaPost, mediaSandbox, mediaUrl } from '../connectors/media.test-support';
import { DOCUMENTED_SCOPES, documentedEndpoint, grantsEndpoint } from '.';

/**
 * Every connector at work with a token holding exactly what its sign-in asks for (nothing the
 * platform's documentation lists beyond it): publishing with media, finding what it published,
 * and the comment actions its platform offers. The sandbox refuses a call whose token lacks the
 * documented scopes, and answers 500 to a route without a row in the documented table: so each
 * step passing proves the sign-in's scopes are enough for what the connector really calls, and
 * the requests it recorded name, for each call, the table's row it was (the table covers every
 * endpoint the connector calls).
 */
interface ConnectorCase {
  platform: Platform;
  kind?: SandboxIdentity['kind'];
  platformAccountId?: string;
  attributes?: Record<string, string>;
  post: () => PublishRequest;
  /** Rows the run must have gone through: the media upload (or the container made from a url) and the post. */
  calls: string[];
  /** TikTok lists a video once its processing ends: the lookup right after publishing finds nothing yet (it still calls the platform). */
  listedLater?: true;
}

const env = mediaSandbox();
const photo = () => mediaUrl(env, 'photo.jpg');
const clip = () => mediaUrl(env, 'clip.mp4');

const CASES: ConnectorCase[] = [
  { platform: 'x', platformAccountId: '2244994945', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /2/media/upload', 'POST /2/tweets'] },
  { platform: 'mastodon', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /api/v2/media', 'POST /api/v1/statuses'] },
  { platform: 'facebook', kind: 'page', platformAccountId: '1040001', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /{version}/{page-id}/photos'] },
  { platform: 'instagram', kind: 'instagram', platformAccountId: '17841400000001', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /{version}/{ig-user-id}/media', 'POST /{version}/{ig-user-id}/media_publish'] },
  { platform: 'threads', platformAccountId: '7001', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /{version}/{threads-user-id}/threads', 'POST /{version}/{threads-user-id}/threads_publish'] },
  { platform: 'linkedin', kind: 'organization', platformAccountId: 'urn:li:organization:1001', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /rest/images', 'POST /rest/posts'] },
  { platform: 'bluesky', platformAccountId: 'did:plc:brand', post: () => mediaPost('With a photo', [photo()]), calls: ['POST /xrpc/com.atproto.repo.uploadBlob', 'POST /xrpc/com.atproto.repo.createRecord'] },
  { platform: 'tiktok', post: () => mediaPost('Watch this', [clip()]), calls: ['POST /v2/post/publish/video/init/', 'POST /v2/post/publish/status/fetch/', 'POST /v2/video/list/'], listedLater: true },
  { platform: 'youtube', post: () => mediaPost('Launch video\nAll the details', [clip()]), calls: ['POST /upload/youtube/v3/videos', 'PUT /upload/youtube/v3/videos'] },
  { platform: 'pinterest', attributes: { boardId: 'board-42' }, post: () => mediaPost('Pin this', [photo()]), calls: ['POST /v5/pins'] },
];

const auth = new PlatformAuthRegistry();

describe.each(CASES)('$platform', (testCase) => {
  it('publishes with media, finds it, and acts on comments with only the scopes its sign-in asks for; every call is a documented row', async () => {
    const { platform } = testCase;
    const asked = [...auth.get(platform).scopes];
    const account = mediaAccount(env, platform, { kind: testCase.kind, platformAccountId: testCase.platformAccountId, attributes: testCase.attributes, scopes: asked });
    const connector = env.impatient.get(platform);
    const attemptStartedAt = new Date(Date.now() - 1000).toISOString();
    const request = testCase.post();

    const published = await connector.publish(account, request);
    expect(published).toMatchObject({ status: 'published' });
    if (published.status !== 'published') return;
    const found = await connector.findPublished(account, { ...request, attemptStartedAt });
    expect(found).toEqual(testCase.listedLater ? null : expect.objectContaining({ platformPostId: published.platformPostId }));

    const can = COMMENT_CAPABILITIES[platform];
    if (can.reply) {
      const theirs = env.sandbox.control.addComment({ platform, parentId: published.platformPostId, text: 'Nice!', author: 'fan' });
      expect((await connector.listComments(account, published.platformPostId)).map((comment) => comment.platformCommentId)).toContain(theirs.id);
      const reply = await connector.comment(account, { kind: 'comment', platformCommentId: theirs.id, platformPostId: published.platformPostId }, 'Thanks', `reply-${platform}`);
      expect(reply).toMatchObject({ status: 'published' });
      if (can.hide) await connector.setCommentHidden(account, { platformCommentId: theirs.id, platformPostId: published.platformPostId }, true);
      if (can.deleteOwnReply && reply.status === 'published') await connector.deleteComment(account, { platformCommentId: reply.platformPostId, platformPostId: published.platformPostId });
    }
    if (connector.listBoards) expect(await connector.listBoards(account)).toEqual(expect.any(Array));

    const table = DOCUMENTED_SCOPES[platform];
    const made = env.sandbox.control.requests({ platform, account: account.accountId });
    const rows = made.flatMap((call) => (call.documented ? [documentedEndpoint(table, call.method, call.documented)!] : []));
    // Each call with the account's token was a row of the table, granted by what the sign-in asked for.
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(grantsEndpoint(row, asked)).toBe(true);
    for (const call of testCase.calls) expect(rows.map((row) => `${row.method} ${row.path}`)).toContain(call);
  });
});
