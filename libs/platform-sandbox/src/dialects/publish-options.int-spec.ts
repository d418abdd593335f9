import type { Platform } from '@app/contracts';
import { LINKEDIN_API_VERSION, THREADS_API_VERSION } from '@app/platforms';
import { provisionConnectorAccount } from '../sandbox-accounts';
import { RunningPlatformSandbox, startPlatformSandbox } from '../sandbox';

/**
 * The publishing options each platform documents, as the sandbox's create endpoints take them: a
 * documented value is accepted and kept on the item, anything else refused in the platform's own
 * error shape. Called directly with the account's token (what the connectors send is
 * test/e2e/platform-options.e2e-spec.ts's business).
 */

let sandbox: RunningPlatformSandbox;
let accounts = 0;

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

function accountOn(platform: Platform) {
  const key = `options-${++accounts}`;
  return provisionConnectorAccount(sandbox, { platform, handle: '@brand', key, platformAccountId: platform === 'linkedin' ? `urn:li:person:${key}` : undefined });
}

async function post(platform: Platform, path: (account: ReturnType<typeof accountOn>) => string, body: { json: unknown } | { form: Record<string, string> }, headers: Record<string, string> = {}) {
  const account = accountOn(platform);
  const response = await fetch(`${sandbox.url}/${platform}${path(account)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.credentials.accessToken}`, 'content-type': 'json' in body ? 'application/json' : 'application/x-www-form-urlencoded', ...headers },
    body: 'json' in body ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, items: sandbox.control.published({ account: account.accountId, kind: 'post' }) };
}

const linkedInHeaders = { 'LinkedIn-Version': LINKEDIN_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' };
const linkedInPost = (author: string, visibility: string) => ({
  json: { author, commentary: 'Hello', visibility, distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] }, lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false },
});

describe('X reply_settings ("Create or Edit Post", https://docs.x.com/x-api/posts/create-or-edit-post)', () => {
  it('keeps a documented value and refuses another as invalid-request', async () => {
    const ok = await post('x', () => '/2/tweets', { json: { text: 'Hello', reply_settings: 'following' } });
    expect(ok.status).toBe(201);
    expect(ok.items[0].extra).toMatchObject({ reply_settings: 'following' });
    const refused = await post('x', () => '/2/tweets', { json: { text: 'Hello', reply_settings: 'everyone' } });
    expect(refused).toMatchObject({ status: 400, body: { type: 'https://api.twitter.com/2/problems/invalid-request' }, items: [] });
  });
});

describe('Mastodon visibility, spoiler_text, language ("Post a new status", https://docs.joinmastodon.org/methods/statuses/#create)', () => {
  it('keeps documented values, counts the content warning toward the 500 characters, refuses others with 422', async () => {
    const ok = await post('mastodon', () => '/api/v1/statuses', { form: { status: 'Hello', visibility: 'private', spoiler_text: 'CW', language: 'de' } });
    expect(ok.status).toBe(200);
    expect(ok.items[0].extra).toEqual({ visibility: 'private', spoiler_text: 'CW', language: 'de' });
    expect((await post('mastodon', () => '/api/v1/statuses', { form: { status: 'Hello', visibility: 'friends' } })).status).toBe(422);
    expect((await post('mastodon', () => '/api/v1/statuses', { form: { status: 'a'.repeat(490), spoiler_text: 'b'.repeat(11) } })).status).toBe(422);
  });
});

describe('LinkedIn visibility (Posts API, https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api)', () => {
  it('keeps a MemberNetworkVisibility and refuses anything else with 422', async () => {
    // The post's author must be the acting member's URN.
    const account = accountOn('linkedin');
    const send = (visibility: string) =>
      fetch(`${sandbox.url}/linkedin/rest/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.credentials.accessToken}`, 'content-type': 'application/json', ...linkedInHeaders },
        body: JSON.stringify(linkedInPost(account.identity.platformAccountId, visibility).json),
      });
    expect((await send('CONNECTIONS')).status).toBe(201);
    expect(sandbox.control.published({ account: account.accountId, kind: 'post' })[0].extra).toMatchObject({ visibility: 'CONNECTIONS' });
    expect((await send('FRIENDS')).status).toBe(422);
  });
});

describe('Threads reply_control ("Reply Management", https://developers.facebook.com/docs/threads/reply-management)', () => {
  it('takes the five documented values on a container and refuses others', async () => {
    const path = (account: ReturnType<typeof accountOn>) => `/${THREADS_API_VERSION}/${account.identity.platformAccountId}/threads`;
    expect((await post('threads', path, { form: { media_type: 'TEXT', text: 'Hello', reply_control: 'mentioned_only' } })).status).toBe(200);
    expect(await post('threads', path, { form: { media_type: 'TEXT', text: 'Hello', reply_control: 'nobody' } })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });
});

describe('YouTube privacyStatus, tags, categoryId (https://developers.google.com/youtube/v3/docs/videos/insert#errors)', () => {
  const session = (snippet: object, status: object) => post('youtube', () => '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', { json: { snippet: { title: 'T', ...snippet }, status } });
  it.each([
    ['a privacy status', {}, { privacyStatus: 'friends' }, 'invalidVideoMetadata'],
    ['tags over 500 characters', { tags: ['a'.repeat(501)] }, {}, 'invalidTags'],
    ['a category that is no id', { categoryId: 'music' }, {}, 'invalidCategoryId'],
    ['a title with <', { title: 'a <b>' }, {}, 'invalidTitle'],
  ])('refuses %s with its documented reason', async (_name, snippet, status, reason) => {
    expect(await session(snippet, status)).toMatchObject({ status: 400, body: { error: { errors: [{ reason }] } } });
  });
  it('starts a session with documented values', async () => {
    expect((await session({ tags: ['a', 'b'], categoryId: '22' }, { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false })).status).toBe(200);
  });
});

describe('TikTok privacy_level (Direct Post and Query Creator Info, https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info)', () => {
  it("reports a public creator's levels and refuses another with privacy_level_option_mismatch", async () => {
    const info = await post('tiktok', () => '/v2/post/publish/creator_info/query/', { json: {} });
    expect(info.body.data.privacy_level_options).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    const photos = (privacy_level: string) => ({
      json: { post_info: { title: 'T', description: 'D', privacy_level, disable_comment: true }, source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: [`${sandbox.mediaUrl}/media/p.jpg`] }, post_mode: 'DIRECT_POST', media_type: 'PHOTO' },
    });
    const ok = await post('tiktok', () => '/v2/post/publish/content/init/', photos('SELF_ONLY'));
    expect(ok.status).toBe(200);
    expect(ok.items[0].extra).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: 'true' });
    expect(await post('tiktok', () => '/v2/post/publish/content/init/', photos('FOLLOWER_OF_CREATOR'))).toMatchObject({ status: 400, body: { error: { code: 'privacy_level_option_mismatch' } } });
  });
});

describe('Pinterest link and title ("Create Pin", https://developers.pinterest.com/docs/api/v5/pins-create)', () => {
  const pin = (extra: object) => post('pinterest', () => '/v5/pins', { json: { board_id: '42', media_source: { source_type: 'image_url', url: `${sandbox.mediaUrl}/media/p.jpg` }, ...extra } });
  it('keeps a link and a title, refuses a title over 100 characters or a link that is no URL', async () => {
    const ok = await pin({ link: 'https://acme.example', title: 'Hello' });
    expect(ok.status).toBe(201);
    expect(ok.items[0].extra).toMatchObject({ link: 'https://acme.example', title: 'Hello' });
    expect((await pin({ title: 'a'.repeat(101) })).status).toBe(400);
    expect((await pin({ link: 'acme' })).status).toBe(400);
  });
});
