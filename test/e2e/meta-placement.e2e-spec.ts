import { Platform } from '@app/contracts';
import { usePostsStack } from './posts-fixture';

/**
 * Facebook and Instagram placement (issue 15): `platformOptions.<facebook|instagram>.placement`
 * feed (default), reel or story, through HTTP, the posts service's check, the publisher and the
 * connectors, to the sandbox playing Meta's documented endpoints:
 * - Facebook reels, `/{page-id}/video_reels` start / upload_url / finish
 *   ("Reels Publishing API", https://developers.facebook.com/docs/video-api/guides/reels-publishing);
 * - Facebook stories, `/{page-id}/photo_stories` and `/{page-id}/video_stories`
 *   ("Page Stories API", https://developers.facebook.com/docs/page-stories-api);
 * - Instagram `media_type=REELS` (share_to_feed=false) and `media_type=STORIES` containers
 *   (IG User Media, https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media).
 * And Mastodon's spoiler_text counted with the text when the post is written
 * ("Post a new status", https://docs.joinmastodon.org/methods/statuses/#create).
 */
describe('platformOptions placement (Facebook, Instagram) through HTTP', () => {
  const posts = usePostsStack('mp');
  const { account, create, itemOf, mediaUrl, photo, sandbox } = posts;
  let seq = 0;

  const video = (seconds: number) => mediaUrl(`clip${++seq}.mp4?seconds=${seconds}&width=1080&height=1920`);

  it('Facebook reel: the video through a video_reels session, its text as the description', async () => {
    const page = await account('facebook');
    const response = await create({ content: 'Our launch reel', accounts: [page.ref], mediaUrls: [video(20)], publishNow: true, platformOptions: { facebook: { placement: 'reel' } } });
    expect(response.status).toBe(201);
    expect(response.body.results).toEqual([expect.objectContaining({ success: true, url: expect.stringContaining('https://www.facebook.com/reel/') })]);
    expect(itemOf(page.token)).toMatchObject({ text: 'Our launch reel', extra: { kind: 'reel' } });
  });

  it('Facebook story: a photo by photo_stories and a video by video_stories, no text shown', async () => {
    const [photoPage, videoPage] = [await account('facebook'), await account('facebook')];
    const options = { facebook: { placement: 'story' } };
    expect((await create({ content: 'Behind the scenes', accounts: [photoPage.ref], mediaUrls: [photo()], publishNow: true, platformOptions: options })).body.post.status).toBe('published');
    expect((await create({ content: 'Behind the scenes', accounts: [videoPage.ref], mediaUrls: [video(15)], publishNow: true, platformOptions: options })).body.post.status).toBe('published');
    expect(itemOf(photoPage.token)).toMatchObject({ text: '', extra: { kind: 'story' } });
    expect(itemOf(videoPage.token)).toMatchObject({ text: '', extra: { kind: 'story' } });
  });

  it('Instagram reel (Reels tab only) and story (no caption)', async () => {
    const [reels, stories] = [await account('instagram'), await account('instagram')];
    expect((await create({ content: 'Reel #launch', accounts: [reels.ref], mediaUrls: [video(20)], publishNow: true, platformOptions: { instagram: { placement: 'reel' } } })).body.post.status).toBe('published');
    expect((await create({ content: 'Story', accounts: [stories.ref], mediaUrls: [photo()], publishNow: true, platformOptions: { instagram: { placement: 'story' } } })).body.post.status).toBe('published');
    expect(itemOf(reels.token)).toMatchObject({ text: 'Reel #launch', extra: { media_type: 'REELS', share_to_feed: 'false' } });
    expect(itemOf(stories.token)).toMatchObject({ text: '', extra: { media_type: 'STORIES' } });
  });

  it('feed stays the default: a single Instagram video is a reel shared to the feed', async () => {
    const feed = await account('instagram');
    expect((await create({ content: 'Feed video', accounts: [feed.ref], mediaUrls: [video(20)], publishNow: true })).body.post.status).toBe('published');
    expect(itemOf(feed.token)).toMatchObject({ text: 'Feed video', extra: { media_type: 'REELS', share_to_feed: 'true' } });
  });

  it('a reel of a photo fails on that platform at publication (the kind needs the bytes)', async () => {
    const page = await account('facebook');
    const response = await create({ content: 'Not a video', accounts: [page.ref], mediaUrls: [photo()], publishNow: true, platformOptions: { facebook: { placement: 'reel' } } });
    expect(response.body.results).toEqual([expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'media_type_not_allowed' }) })]);
    expect(sandbox().published({ account: page.token })).toHaveLength(0);
  });

  describe('refusals append nothing', () => {
    it.each<[string, Platform, (media: { photo: string; video: string }) => Record<string, unknown>, Record<string, unknown>]>([
      ['an undocumented placement', 'facebook', ({ video }) => ({ content: 'x', mediaUrls: [video], platformOptions: { facebook: { placement: 'carousel' } } }), { platform: 'facebook', option: 'placement', value: 'carousel' }],
      ['a reel of two media items', 'instagram', ({ video, photo }) => ({ content: 'x', mediaUrls: [video, photo], platformOptions: { instagram: { placement: 'reel' } } }), { platform: 'instagram', reason: 'media_not_supported' }],
      ['a story without media', 'facebook', () => ({ content: 'x', platformOptions: { facebook: { placement: 'story' } } }), { platform: 'facebook', reason: 'media_not_supported' }],
      [
        'a Mastodon spoiler_text that with the text passes 500 characters',
        'mastodon',
        () => ({ content: 'a'.repeat(480), platformOptions: { mastodon: { spoiler_text: 'Spoilers for the finale' } } }),
        { platform: 'mastodon', reason: 'content_too_long' },
      ],
    ])('%s', async (_name, platform, body, details) => {
      const target = await account(platform);
      const before = await posts.stack.eventCount();
      const response = await create({ accounts: [target.ref], ...body({ photo: photo(), video: video(20) }) });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'platform_option_invalid', message: expect.any(String), details });
      expect(await posts.stack.eventCount()).toBe(before);
    });
  });
});
