import { Platform } from '@app/contracts';
import { usePostsStack } from './posts-fixture';

/**
 * Platform options (issue 15): `platformOptions.<platform>` through HTTP, the posts service's check
 * against each platform's documented values, the events, the publisher and the connector, to the
 * sandbox, which checks and keeps each one as the platform's documentation names it:
 * - X reply_settings ("Create or Edit Post", https://docs.x.com/x-api/posts/create-or-edit-post);
 * - Mastodon visibility, spoiler_text, language ("Post a new status", https://docs.joinmastodon.org/methods/statuses/#create);
 * - LinkedIn visibility (Posts API, https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api);
 * - Threads reply_control ("Reply Management", https://developers.facebook.com/docs/threads/reply-management);
 * - YouTube snippet.title/tags/categoryId, status.privacyStatus/selfDeclaredMadeForKids (https://developers.google.com/youtube/v3/docs/videos);
 * - TikTok post_info.privacy_level and disable_* (Direct Post, https://developers.tiktok.com/doc/content-posting-api-reference-direct-post),
 *   the level checked against Query Creator Info (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info);
 * - Pinterest board_id, link, title ("Create Pin", https://developers.pinterest.com/docs/api/v5/pins-create).
 */
describe('platformOptions on POST and PATCH /api/v1/posts', () => {
  const posts = usePostsStack('po');
  const { create, itemOf, mediaUrl, photo, sandbox } = posts;
  // Pinterest pins go on a board: the account is connected with one.
  const account = (platform: Platform) => posts.account(platform, platform === 'pinterest' ? { boardId: '1000001' } : undefined);
  let seq = 0;

  it('sends each text platform its options as its API names them', async () => {
    const [x, mastodon, linkedin, threads] = [await account('x'), await account('mastodon'), await account('linkedin'), await account('threads')];
    const response = await create({
      content: 'Launch day',
      accounts: [x.ref, mastodon.ref, linkedin.ref, threads.ref],
      publishNow: true,
      platformOptions: {
        x: { reply_settings: 'mentionedUsers' },
        mastodon: { visibility: 'unlisted', spoiler_text: 'Product news', language: 'en' },
        linkedin: { visibility: 'CONNECTIONS' },
        threads: { reply_control: 'accounts_you_follow' },
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('published');
    expect(itemOf(x.token).extra).toMatchObject({ reply_settings: 'mentionedUsers' });
    expect(itemOf(mastodon.token).extra).toMatchObject({ visibility: 'unlisted', spoiler_text: 'Product news', language: 'en' });
    expect(itemOf(linkedin.token).extra).toMatchObject({ visibility: 'CONNECTIONS' });
    expect(itemOf(threads.token).extra).toMatchObject({ reply_control: 'accounts_you_follow' });
  });

  it('sends the defaults as before without options', async () => {
    const [mastodon, linkedin] = [await account('mastodon'), await account('linkedin')];
    expect((await create({ content: 'Plain', accounts: [mastodon.ref, linkedin.ref], publishNow: true })).body.post.status).toBe('published');
    expect(itemOf(mastodon.token).extra).toEqual({ visibility: 'public' });
    expect(itemOf(linkedin.token).extra).toMatchObject({ visibility: 'PUBLIC' });
  });

  it('YouTube: title, privacy, tags, category and made-for-kids on the uploaded video', async () => {
    const youtube = await account('youtube');
    const response = await create({
      content: 'The launch video\nEverything about it',
      accounts: [youtube.ref],
      mediaUrls: [mediaUrl(`launch${++seq}.mp4?seconds=5`)],
      publishNow: true,
      platformOptions: { youtube: { title: 'Launch day', privacyStatus: 'unlisted', tags: ['launch', 'acme'], categoryId: '28', madeForKids: false } },
    });
    expect(response.body.results).toEqual([expect.objectContaining({ success: true })]);
    expect(itemOf(youtube.token).extra).toMatchObject({ title: 'Launch day', privacyStatus: 'unlisted', tags: 'launch,acme', categoryId: '28', selfDeclaredMadeForKids: 'false' });
  });

  it('TikTok: a privacy level the creator may use and the comment switch; one it may not fails that account before any post', async () => {
    const [allowed, refused] = [await account('tiktok'), await account('tiktok')];
    const ok = await create({ content: 'Photos', accounts: [allowed.ref], mediaUrls: [photo()], publishNow: true, platformOptions: { tiktok: { privacy_level: 'SELF_ONLY', disable_comment: true } } });
    expect(ok.body.results).toEqual([expect.objectContaining({ success: true })]);
    expect(itemOf(allowed.token).extra).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: 'true' });

    // FOLLOWER_OF_CREATOR is documented, but only a private creator has it (the sandbox's creators are public).
    const no = await create({ content: 'Photos', accounts: [refused.ref], mediaUrls: [photo()], publishNow: true, platformOptions: { tiktok: { privacy_level: 'FOLLOWER_OF_CREATOR' } } });
    expect(no.status).toBe(201);
    expect(no.body.results).toEqual([expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'privacy_level_not_allowed', retryable: false }) })]);
    expect(sandbox().requestCount({ platform: 'tiktok', account: refused.token, operation: 'creator_info' })).toBe(1);
    expect(sandbox().requestCount({ platform: 'tiktok', account: refused.token, operation: 'publish' })).toBe(0);
  });

  it('Pinterest: the board, link and title the post names', async () => {
    const pinterest = await account('pinterest');
    const response = await create({
      content: 'A pin',
      accounts: [pinterest.ref],
      mediaUrls: [photo()],
      publishNow: true,
      platformOptions: { pinterest: { boardId: '2000002', link: 'https://acme.example/launch', title: 'Launch' } },
    });
    expect(response.body.results).toEqual([expect.objectContaining({ success: true })]);
    const pin = itemOf(pinterest.token);
    expect(pin.owner).toBe('2000002');
    expect(pin.extra).toMatchObject({ link: 'https://acme.example/launch', title: 'Launch' });
  });

  it('edits replace the options whole and are checked like a create', async () => {
    const x = await account('x');
    const id = (await create({ content: 'Draft', accounts: [x.ref], platformOptions: { x: { reply_settings: 'following' } } })).body.post.id;
    const before = await posts.stack.eventCount();
    const refused = await posts.stack.request('PATCH', `/api/v1/posts/${id}`, { key: posts.key, body: { platformOptions: { x: { reply_settings: 'nobody' } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'platform_option_invalid', details: { platform: 'x', option: 'reply_settings', value: 'nobody' } });
    expect(await posts.stack.eventCount()).toBe(before);
    expect((await posts.stack.request('PATCH', `/api/v1/posts/${id}`, { key: posts.key, body: { platformOptions: { x: { reply_settings: 'verified' } } } })).status).toBe(200);
    expect((await posts.stack.request('POST', `/api/v1/posts/${id}/publish`, { key: posts.key })).status).toBe(201);
    expect(itemOf(x.token).extra).toMatchObject({ reply_settings: 'verified' });
  });

  describe('refusals append nothing', () => {
    it.each<[string, string, Record<string, unknown>, Record<string, unknown> | null]>([
      ['an unknown option', 'platform_option_invalid', { x: { who_can_reply: 'everyone' } }, { platform: 'x', option: 'who_can_reply' }],
      ['an undocumented value', 'platform_option_invalid', { mastodon: { visibility: 'friends' } }, { platform: 'mastodon', option: 'visibility', value: 'friends' }],
      ['a platform the post does not target', 'platform_option_invalid', { linkedin: { visibility: 'PUBLIC' } }, { platform: 'linkedin' }],
      ['options for a platform that takes none', 'platform_option_invalid', { bluesky: { langs: ['en'] } }, { platform: 'bluesky', option: 'langs' }],
      ['options that are not an object', 'invalid_body', { x: 'following' }, null],
    ])('%s: %s', async (_name, code, platformOptions, details) => {
      const [x, mastodon, bluesky] = [await account('x'), await account('mastodon'), await account('bluesky')];
      const before = await posts.stack.eventCount();
      const response = await create({ content: 'Hello', accounts: [x.ref, mastodon.ref, bluesky.ref], platformOptions });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code, message: expect.any(String), ...(details ? { details } : {}) });
      expect(await posts.stack.eventCount()).toBe(before);
    });
  });
});
