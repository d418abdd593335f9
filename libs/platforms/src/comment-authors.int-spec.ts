import { COMMENT_CAPABILITIES, type Platform } from '@app/contracts';
import type { SandboxIdentity } from '@app/platform-sandbox';
import { type ConnectorAccount, isWrittenBy } from './connector';
import { mediaAccount, mediaPost, mediaSandbox, mediaUrl } from './connectors/media.test-support';

/**
 * Comment authors as each platform's comment listing names them, read through the connectors from
 * the sandbox (which follows the documentation): the account's own reply is known by the platform's
 * id for its author, whatever name the listing shows.
 * - Facebook `from` {name, id}: https://developers.facebook.com/docs/graph-api/reference/comment/
 * - Instagram `username` and `from` {id, username}: https://developers.facebook.com/docs/graph-api/changelog/ooc-changes/oct-20-2021
 * - X `author_id`, with expansions=author_id the users' `username`: https://docs.x.com/x-api/posts/search/quickstart/recent-search
 * - YouTube `authorDisplayName`, `authorChannelId.value`: https://developers.google.com/youtube/v3/docs/comments
 * - LinkedIn `actor` (a URN): https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 * - Mastodon `account` {id, acct}: https://docs.joinmastodon.org/entities/Status/
 * - Bluesky `author` {did, handle}: https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread
 * - Threads `username` only: https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations
 */

interface AuthorCase {
  platform: Platform;
  platformAccountId?: string;
  kind?: SandboxIdentity['kind'];
  media?: string;
  /** The name the listing shows for the account's reply: its display name, handle or URN. */
  shownAs: (identity: ConnectorAccount['identity']) => string;
}

const handle = (identity: ConnectorAccount['identity']) => identity.handle.replace(/^@/, '');
const CASES: AuthorCase[] = [
  { platform: 'facebook', platformAccountId: '1040001', kind: 'page', shownAs: (identity) => identity.displayName },
  { platform: 'instagram', platformAccountId: '17841400000001', kind: 'instagram', media: 'photo.jpg', shownAs: handle },
  { platform: 'x', platformAccountId: '2244994945', shownAs: handle },
  { platform: 'youtube', media: 'clip.mp4', shownAs: (identity) => identity.displayName },
  { platform: 'linkedin', platformAccountId: 'urn:li:organization:1001', kind: 'organization', shownAs: (identity) => identity.platformAccountId },
  { platform: 'mastodon', shownAs: handle },
  { platform: 'bluesky', platformAccountId: 'did:plc:brand', shownAs: handle },
  { platform: 'threads', platformAccountId: '7001', shownAs: handle },
];

const env = mediaSandbox();
let sequence = 0;

it('covers every platform the workspace can reply on', () => {
  expect(CASES.map((testCase) => testCase.platform).sort()).toEqual(
    (Object.keys(COMMENT_CAPABILITIES) as Platform[]).filter((platform) => COMMENT_CAPABILITIES[platform].reply).sort(),
  );
});

describe.each(CASES)('$platform comment authors', (testCase) => {
  it("names the account's own reply by the platform's id for it, and a fan by the fan's name", async () => {
    const connector = env.impatient.get(testCase.platform);
    const account = mediaAccount(env, testCase.platform, { displayName: 'Brand Inc', kind: testCase.kind, platformAccountId: testCase.platformAccountId });
    const { identity } = account;
    const published = await connector.publish(account, mediaPost('Launch day\nAll the details', testCase.media ? [mediaUrl(env, testCase.media)] : []));
    if (published.status !== 'published') throw new Error(`publish failed: ${JSON.stringify(published)}`);
    const platformPostId = published.platformPostId;
    const fan = env.sandbox.control.addComment({ platform: testCase.platform, parentId: platformPostId, text: 'Do you ship to Norway?', author: 'brand_fan' });
    const reply = await connector.comment(account, { kind: 'comment', platformCommentId: fan.id, platformPostId }, 'We do!', `reply-${++sequence}`);
    if (reply.status !== 'published') throw new Error(`reply failed: ${JSON.stringify(reply)}`);

    const listed = await connector.listComments(account, platformPostId);
    const fanListed = listed.find((comment) => comment.platformCommentId === fan.id)!;
    const replyListed = listed.find((comment) => comment.platformCommentId === reply.platformPostId)!;
    expect(fanListed).toMatchObject({ author: 'brand_fan' });
    expect(isWrittenBy(fanListed, identity)).toBe(false);
    expect(replyListed).toMatchObject({
      author: testCase.shownAs(identity),
      authorPlatformId: testCase.platform === 'threads' ? null : identity.platformAccountId,
      inReplyToCommentId: fan.id,
    });
    expect(isWrittenBy(replyListed, identity)).toBe(true);
    // Renamed since: still known by its id (Threads, which lists handles only, excepted).
    if (testCase.platform !== 'threads') expect(isWrittenBy(replyListed, { ...identity, handle: '@renamed', displayName: 'Renamed' })).toBe(true);
  });
});
