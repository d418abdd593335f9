import type { Platform } from '@app/contracts';
import type { PublishRequest } from '../connector';
import { publishLimitRefusal } from '../content/publish-limits';
import { expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, postsOf } from './media.test-support';

/**
 * One declaration of what a platform refuses before any request (each connector's *_LIMITS):
 * the posts service checks a post by it when written (publishLimitRefusal), the connector checks
 * the publication by it when sent, so the two answers agree. Placements as Meta documents them:
 * a story shows no caption (IG User Media, media_type=STORIES,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media;
 * "Page Stories API", https://developers.facebook.com/docs/page-stories-api), so its text is not counted.
 */
const env = mediaSandbox();

function publishing(platform: Platform, request: PublishRequest) {
  const who = mediaAccount(env, platform);
  return { who, written: publishLimitRefusal(platform, request), sent: env.connectors.get(platform).publish(who, request) };
}

describe('publish limits: what is accepted when written is what the connector sends', () => {
  it('an Instagram story with a caption over 2,200 characters is accepted when written and published without its caption', async () => {
    const request = { ...mediaPost('x'.repeat(2_300), [mediaUrl(env, 'story.jpg', { width: 1080, height: 1920 })]), options: { placement: 'story' } };
    const { who, written, sent } = publishing('instagram', request);
    expect(written).toBeNull();
    expect(await sent).toMatchObject({ status: 'published' });
    expect(postsOf(env, who)).toEqual([expect.objectContaining({ text: '' })]);
  });

  it('an Instagram reel of two media items is refused the same way when written and when sent, before any call', async () => {
    const request = { ...mediaPost('Two', [mediaUrl(env, 'a.mp4'), mediaUrl(env, 'b.mp4')]), options: { placement: 'reel' } };
    expect(publishLimitRefusal('instagram', request)).toMatchObject({ code: 'media_not_supported' });
    await expectRefusedBeforeAnyCall(env, mediaAccount(env, 'instagram'), request, 'media_not_supported');
  });

  it('a Mastodon status whose content warning takes it over 500 characters is refused the same way when written and when sent', async () => {
    const request = { ...mediaPost('y'.repeat(450)), options: { spoiler_text: 'z'.repeat(60) } };
    expect(publishLimitRefusal('mastodon', request)).toMatchObject({ code: 'content_too_long' });
    await expectRefusedBeforeAnyCall(env, mediaAccount(env, 'mastodon'), request, 'content_too_long');
  });
});
