import { THREADS_API_VERSION } from './meta-graph';
import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * Threads media against the sandbox, which plays the Threads API as documented: IMAGE and
 * VIDEO containers by url with alt_text ("Threads Posts",
 * https://developers.facebook.com/documentation/threads/posts, and "Accessibility",
 * https://developers.facebook.com/documentation/threads/posts/accessibility), CAROUSEL of up
 * to 20 children, the container's status and error_message ("Threads API Troubleshooting",
 * https://developers.facebook.com/docs/threads/troubleshooting), threads_publish, and the
 * Media Specifications of https://developers.facebook.com/docs/threads/overview.
 * Threads pulls media by url: the connector still fetches each url through the media
 * pipeline first, so every rule is checked before any call.
 */
const env = mediaSandbox();
const threads = () => env.connectors.get('threads');

describe('threads connector, media', () => {
  it('publishes one image by url with its alt text; the text is the text alone', async () => {
    const who = mediaAccount(env, 'threads');
    const photo = mediaUrl(env, 'bread.png');
    const outcome = await threads().publish(who, mediaPost('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(env, who);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: item.id });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([photo]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/png', altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    expect([requestsOf(env, who, 'container'), requestsOf(env, who, 'publish')]).toEqual([1, 1]);
  });

  it('publishes a carousel of 20 (the most Threads takes) in order, alt texts on images and a video', async () => {
    const who = mediaAccount(env, 'threads');
    const urls = [...Array.from({ length: 19 }, (_, i) => mediaUrl(env, `photo-${i}.jpg`)), mediaUrl(env, 'clip.mp4')];
    const altTexts = urls.map((_, i) => (i === 0 ? 'The first photo' : i === 19 ? 'The closing clip' : null));
    const outcome = await threads().publish(who, mediaPost('Twenty at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.mediaUrls).toEqual(urls);
    expect(item.media.map((upload) => upload.altText)).toEqual(altTexts);
    expect(item.media[19]).toMatchObject({ contentType: 'video/mp4', state: 'ready' });
    expect(requestsOf(env, who, 'container')).toBe(21);
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes a video, with its alt text, once Threads has processed it (IN_PROGRESS, then FINISHED)', async () => {
    const who = mediaAccount(env, 'threads');
    const outcome = await threads().publish(who, mediaPost('Behind the scenes', [mediaUrl(env, 'scenes.mp4', { seconds: 20 })], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', durationSeconds: 20, altText: 'The team at work', state: 'ready' })]);
    expect(requestsOf(env, who, 'lookup')).toBeGreaterThanOrEqual(3); // at least two status reads and the permalink
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes media without text: the container carries no text', async () => {
    const who = mediaAccount(env, 'threads');
    expect((await threads().publish(who, mediaPost('', [mediaUrl(env, 'quiet.jpg')]))).status).toBe('published');
    expect(postsOf(env, who)[0].text).toBe('');
  });

  it('fails with media_processing_failed and Threads\' error_message, without publishing, when the container ends in ERROR', async () => {
    const who = mediaAccount(env, 'threads');
    const outcome = await threads().publish(who, mediaPost('Broken', [mediaUrl(env, 'fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', message: expect.stringContaining('FAILED_PROCESSING_VIDEO'), retryable: false } });
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout after five minutes of IN_PROGRESS, without publishing', async () => {
    const who = mediaAccount(env, 'threads');
    const outcome = await threads().publish(who, mediaPost('Slow', [mediaUrl(env, 'slow.mp4', { seconds: 290 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  describe('refuses what Threads does not take before any call to it', () => {
    it.each([
      ['21 items', () => Array.from({ length: 21 }, (_, i) => mediaUrl(env, `${i}.jpg`)), [], 'media_not_supported'],
      ['a WebP image (JPEG or PNG only)', () => [mediaUrl(env, 'photo.webp')], [], 'media_type_not_allowed'],
      ['an image over 8 MB', () => [mediaUrl(env, 'huge.jpg', { bytes: 9_000_000 })], [], 'media_too_large'],
      ['an 11:1 image (beyond 10:1)', () => [mediaUrl(env, 'banner.jpg', { width: 1100, height: 100 })], [], 'media_not_supported'],
      ['a video over 5 minutes', () => [mediaUrl(env, 'long.mp4', { seconds: 301 })], [], 'media_not_supported'],
      ['a text file', () => [mediaUrl(env, 'notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [mediaUrl(env, 'photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', (_label, urls, altTexts, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'threads'), mediaPost('Refused', urls(), altTexts as string[]), code));
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', () => expectPrivateMediaRefused(env, mediaAccount(env, 'threads')));
});

describe('the sandbox plays Threads containers as documented', () => {
  const containers = (who: { identity: { platformAccountId: string } }) => `/${THREADS_API_VERSION}/${who.identity.platformAccountId}/threads`;
  const status = (id: string) => `/${THREADS_API_VERSION}/${id}?fields=status,error_message`;

  it('reads a video container IN_PROGRESS, refuses to publish it then, and publishes it once FINISHED', async () => {
    const who = mediaAccount(env, 'threads');
    const made = await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'VIDEO', video_url: mediaUrl(env, 'clip.mp4', { seconds: 20 }), text: 'Soon' } });
    const id = String(made.body?.id);
    expect(await platformCall(env, who, 'GET', status(id))).toMatchObject({ status: 200, body: { status: 'IN_PROGRESS' } });
    const publishPath = `/${THREADS_API_VERSION}/${who.identity.platformAccountId}/threads_publish`;
    expect(await platformCall(env, who, 'POST', publishPath, { form: { creation_id: id } })).toMatchObject({ status: 400, body: { error: { code: 9007 } } });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await platformCall(env, who, 'GET', status(id))).toMatchObject({ body: { status: 'FINISHED' } });
    expect(await platformCall(env, who, 'POST', publishPath, { form: { creation_id: id } })).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  });

  it.each([
    ['a video it cannot download', () => mediaUrl(env, 'gone.mp4', { status: 404 }), 'FAILED_DOWNLOADING_VIDEO'],
    ['a video over 5 minutes', () => mediaUrl(env, 'long.mp4', { seconds: 301 }), 'INVALID_DURATION'],
    ['a video beyond 10:1', () => mediaUrl(env, 'strip.mp4', { width: 2200, height: 200 }), 'INVALID_ASPEC_RATIO'],
  ])('ends %s in ERROR with its documented error_message', async (_label, url, error) => {
    const who = mediaAccount(env, 'threads');
    const made = await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'VIDEO', video_url: url() } });
    expect(await platformCall(env, who, 'GET', status(String(made.body?.id)))).toMatchObject({ body: { status: 'ERROR', error_message: error } });
  });

  it('refuses an image it cannot take when the container is made, and a carousel of more than 20 children', async () => {
    const who = mediaAccount(env, 'threads');
    expect(await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'IMAGE', image_url: mediaUrl(env, 'photo.gif') } })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const child = async (i: number) => String((await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'IMAGE', image_url: mediaUrl(env, `c${i}.jpg`), is_carousel_item: 'true' } })).body?.id);
    const children = await Promise.all(Array.from({ length: 21 }, (_, i) => child(i)));
    expect(await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'CAROUSEL', children: children.join(',') } })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });
});
