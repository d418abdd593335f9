import { THREADS_API_VERSION } from './meta-graph';
import { metaMediaWorld } from './meta-media.test-support';

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
const world = metaMediaWorld('threads', 'user');
const { media, post, requests, postsOf, waits } = world;
const threads = () => world.connectors.get('threads');

describe('threads connector, media', () => {
  it('publishes one image by url with its alt text; the text is the text alone', async () => {
    const who = world.account();
    const photo = media('bread.png');
    const outcome = await threads().publish(who, post('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(who);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: item.id });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([photo]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/png', altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    expect([requests(who, 'container'), requests(who, 'publish')]).toEqual([1, 1]);
  });

  it('publishes a carousel of 20 (the most Threads takes) in order, alt texts on images and a video', async () => {
    const who = world.account();
    const urls = [...Array.from({ length: 19 }, (_, i) => media(`photo-${i}.jpg`)), media('clip.mp4')];
    const altTexts = urls.map((_, i) => (i === 0 ? 'The first photo' : i === 19 ? 'The closing clip' : null));
    const outcome = await threads().publish(who, post('Twenty at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.mediaUrls).toEqual(urls);
    expect(item.media.map((upload) => upload.altText)).toEqual(altTexts);
    expect(item.media[19]).toMatchObject({ contentType: 'video/mp4', state: 'ready' });
    expect(requests(who, 'container')).toBe(21);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes a video, with its alt text, once Threads has processed it (IN_PROGRESS, then FINISHED)', async () => {
    const who = world.account();
    const outcome = await threads().publish(who, post('Behind the scenes', [media('scenes.mp4', '?seconds=20')], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', durationSeconds: 20, altText: 'The team at work', state: 'ready' })]);
    expect(requests(who, 'lookup')).toBeGreaterThanOrEqual(3); // at least two status reads and the permalink
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes media without text: the container carries no text', async () => {
    const who = world.account();
    expect((await threads().publish(who, post('', [media('quiet.jpg')]))).status).toBe('published');
    expect(postsOf(who)[0].text).toBe('');
  });

  it('fails with media_processing_failed and Threads\' error_message, without publishing, when the container ends in ERROR', async () => {
    const who = world.account();
    const outcome = await threads().publish(who, post('Broken', [media('fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', message: expect.stringContaining('FAILED_PROCESSING_VIDEO'), retryable: false } });
    expect(requests(who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout after five minutes of IN_PROGRESS, without publishing', async () => {
    const who = world.account();
    const outcome = await threads().publish(who, post('Slow', [media('slow.mp4', '?seconds=290')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requests(who, 'publish')).toBe(0);
  });

  describe('refuses what Threads does not take before any call to it', () => {
    it.each([
      ['21 items', () => Array.from({ length: 21 }, (_, i) => media(`${i}.jpg`)), [], 'media_not_supported'],
      ['a WebP image (JPEG or PNG only)', () => [media('photo.webp')], [], 'media_type_not_allowed'],
      ['an image over 8 MB', () => [media('huge.jpg', '?bytes=9000000')], [], 'media_too_large'],
      ['an 11:1 image (beyond 10:1)', () => [media('banner.jpg', '?width=1100&height=100')], [], 'media_not_supported'],
      ['a video over 5 minutes', () => [media('long.mp4', '?seconds=301')], [], 'media_not_supported'],
      ['a text file', () => [media('notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [media('photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', async (_label, urls, altTexts, code) => {
      const who = world.account();
      const outcome = await threads().publish(who, post('Refused', urls(), altTexts as string[]));
      expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
      expect(requests(who)).toBe(0);
    });
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', async () => {
    const who = world.account();
    const connections = world.sandbox.media.connections();
    const outcome = await threads().publish(who, post('Private', [`https://localhost:${world.sandbox.media.port}/media/private.jpg`]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(world.sandbox.media.requests('private.jpg')).toBe(0);
    expect(world.sandbox.media.connections()).toBe(connections);
    expect(requests(who)).toBe(0);
  });
});

describe('the sandbox plays Threads containers as documented', () => {
  const containers = (who: { identity: { platformAccountId: string } }) => `/${THREADS_API_VERSION}/${who.identity.platformAccountId}/threads`;
  const status = (id: string) => `/${THREADS_API_VERSION}/${id}?fields=status,error_message`;

  it('reads a video container IN_PROGRESS, refuses to publish it then, and publishes it once FINISHED', async () => {
    const who = world.account();
    const made = await world.call(who, 'POST', containers(who), { media_type: 'VIDEO', video_url: media('clip.mp4', '?seconds=20'), text: 'Soon' });
    const id = String(made.body?.id);
    expect(await world.call(who, 'GET', status(id))).toMatchObject({ status: 200, body: { status: 'IN_PROGRESS' } });
    const publishPath = `/${THREADS_API_VERSION}/${who.identity.platformAccountId}/threads_publish`;
    expect(await world.call(who, 'POST', publishPath, { creation_id: id })).toMatchObject({ status: 400, body: { error: { code: 9007 } } });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await world.call(who, 'GET', status(id))).toMatchObject({ body: { status: 'FINISHED' } });
    expect(await world.call(who, 'POST', publishPath, { creation_id: id })).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  });

  it.each([
    ['a video it cannot download', () => media('gone.mp4', '?status=404'), 'FAILED_DOWNLOADING_VIDEO'],
    ['a video over 5 minutes', () => media('long.mp4', '?seconds=301'), 'INVALID_DURATION'],
    ['a video beyond 10:1', () => media('strip.mp4', '?width=2200&height=200'), 'INVALID_ASPEC_RATIO'],
  ])('ends %s in ERROR with its documented error_message', async (_label, url, error) => {
    const who = world.account();
    const made = await world.call(who, 'POST', containers(who), { media_type: 'VIDEO', video_url: url() });
    expect(await world.call(who, 'GET', status(String(made.body?.id)))).toMatchObject({ body: { status: 'ERROR', error_message: error } });
  });

  it('refuses an image it cannot take when the container is made, and a carousel of more than 20 children', async () => {
    const who = world.account();
    expect(await world.call(who, 'POST', containers(who), { media_type: 'IMAGE', image_url: media('photo.gif') })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const child = async (i: number) => String((await world.call(who, 'POST', containers(who), { media_type: 'IMAGE', image_url: media(`c${i}.jpg`), is_carousel_item: 'true' })).body?.id);
    const children = await Promise.all(Array.from({ length: 21 }, (_, i) => child(i)));
    expect(await world.call(who, 'POST', containers(who), { media_type: 'CAROUSEL', children: children.join(',') })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });
});
