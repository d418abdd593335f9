import { GRAPH_API_VERSION } from './meta-graph';
import { metaMediaWorld } from './meta-media.test-support';

/**
 * Instagram media against the sandbox, which plays Instagram's content publishing as
 * documented: containers on IG User Media
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media:
 * image_url + alt_text, media_type=REELS + video_url, is_carousel_item, CAROUSEL + children),
 * the IG Container's status_code (IN_PROGRESS → FINISHED / ERROR), media_publish, and the
 * refusals of the Error Codes page
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes).
 * Instagram pulls media by url: the connector still fetches each url through the media
 * pipeline first, so every rule is checked before any call.
 */
const world = metaMediaWorld('instagram', 'instagram');
const { media, post, requests, postsOf, waits } = world;
const instagram = () => world.connectors.get('instagram');

describe('instagram connector, media', () => {
  it('publishes one image by url with its alt text; the caption is the text alone', async () => {
    const who = world.account();
    const photo = media('bread.jpg', '?width=1080&height=1080');
    const outcome = await instagram().publish(who, post('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(who);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: item.id });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([photo]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', width: 1080, height: 1080, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    // One container, its status read once (FINISHED), one publish.
    expect([requests(who, 'container'), requests(who, 'publish')]).toEqual([1, 1]);
    expect(waits).toEqual([]);
  });

  it('publishes a carousel of 10 (the most Instagram takes), images and a video, in order, waiting for the video', async () => {
    const who = world.account();
    const urls = [...Array.from({ length: 9 }, (_, i) => media(`photo-${i}.jpg`)), media('clip.mp4', '?width=1080&height=1350')];
    const altTexts = urls.map((_, i) => (i === 0 ? 'The first photo' : null));
    const outcome = await instagram().publish(who, post('Ten at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.mediaUrls).toEqual(urls);
    expect(item.media.map((upload) => [upload.contentType, upload.altText])).toEqual([
      ['image/jpeg', 'The first photo'],
      ...Array.from({ length: 8 }, () => ['image/jpeg', null]),
      ['video/mp4', null],
    ]);
    // Ten children and the CAROUSEL container.
    expect(requests(who, 'container')).toBe(11);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes a video as a reel once Instagram has processed it (IN_PROGRESS, then FINISHED); its alt text is dropped (reels take none)', async () => {
    const who = world.account();
    const outcome = await instagram().publish(who, post('Behind the scenes', [media('scenes.mp4', '?width=1080&height=1920&seconds=20')], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', durationSeconds: 20, altText: null, state: 'ready' })]);
    expect(requests(who, 'lookup')).toBeGreaterThanOrEqual(3); // at least two status reads and the permalink
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('fails with media_processing_failed, without publishing, when the container ends in ERROR', async () => {
    const who = world.account();
    const outcome = await instagram().publish(who, post('Broken', [media('fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requests(who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout after five minutes of IN_PROGRESS (a 10-minute video processes for longer), without publishing', async () => {
    const who = world.account();
    const outcome = await instagram().publish(who, post('Slow', [media('slow.mp4', '?seconds=600')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requests(who, 'publish')).toBe(0);
  });

  describe('refuses what Instagram does not take before any call to it', () => {
    it.each([
      ['11 items', () => Array.from({ length: 11 }, (_, i) => media(`${i}.jpg`)), [], 'media_not_supported'],
      ['a PNG (JPEG only)', () => [media('photo.png')], [], 'media_type_not_allowed'],
      ['a GIF', () => [media('dance.gif')], [], 'media_type_not_allowed'],
      ['an image over 8 MB', () => [media('huge.jpg', '?bytes=9000000')], [], 'media_too_large'],
      ['a 2:1 image (beyond 1.91:1)', () => [media('wide.jpg', '?width=2000&height=1000')], [], 'media_not_supported'],
      ['a 2-second video (3 s at least)', () => [media('short.mp4', '?seconds=2')], [], 'media_not_supported'],
      ['a text file', () => [media('notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [media('photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', async (_label, urls, altTexts, code) => {
      const who = world.account();
      const outcome = await instagram().publish(who, post('Refused', urls(), altTexts as string[]));
      expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
      expect(requests(who)).toBe(0);
    });
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', async () => {
    const who = world.account();
    const connections = world.sandbox.media.connections();
    const outcome = await instagram().publish(who, post('Private', [`https://localhost:${world.sandbox.media.port}/media/private.jpg`]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(world.sandbox.media.requests('private.jpg')).toBe(0);
    expect(world.sandbox.media.connections()).toBe(connections);
    expect(requests(who)).toBe(0);
  });

  it('reports a lost media_publish answer as unknown, sent once, after the containers (which are safe to redo)', async () => {
    const who = world.account();
    world.sandbox.control.addFault({ platform: 'instagram', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await instagram().publish(who, post('Once', [media('once.jpg'), media('twice.jpg')]));
    expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown' } });
    expect(requests(who, 'publish')).toBe(1);
    expect(postsOf(who)[0].media).toHaveLength(2);
  });
});

describe('the sandbox plays Instagram containers as documented', () => {
  const containers = (who: { identity: { platformAccountId: string } }) => `/${GRAPH_API_VERSION}/${who.identity.platformAccountId}/media`;
  const publishPath = (who: { identity: { platformAccountId: string } }) => `/${GRAPH_API_VERSION}/${who.identity.platformAccountId}/media_publish`;

  it('reads a reel container IN_PROGRESS, refuses to publish it then (9007 / 2207027), and publishes it once FINISHED', async () => {
    const who = world.account();
    const made = await world.call(who, 'POST', containers(who), { media_type: 'REELS', video_url: media('reel.mp4', '?seconds=20'), caption: 'Soon' });
    const id = String(made.body?.id);
    expect(await world.call(who, 'GET', `/${GRAPH_API_VERSION}/${id}?fields=status_code`)).toMatchObject({ status: 200, body: { status_code: 'IN_PROGRESS' } });
    expect(await world.call(who, 'POST', publishPath(who), { creation_id: id })).toMatchObject({ status: 400, body: { error: { code: 9007, error_subcode: 2207027 } } });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await world.call(who, 'GET', `/${GRAPH_API_VERSION}/${id}?fields=status_code`)).toMatchObject({ body: { status_code: 'FINISHED' } });
    expect(await world.call(who, 'POST', publishPath(who), { creation_id: id })).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  });

  it.each([
    ['a url it cannot fetch', () => ({ image_url: media('gone.jpg', '?status=404') }), 9004, 2207052],
    ['a PNG', () => ({ image_url: media('photo.png') }), 36001, 2207005],
    ['an image over 8 MiB', () => ({ image_url: media('huge.jpg', '?bytes=9000000') }), 36000, 2207004],
    ['a 2:1 image', () => ({ image_url: media('wide.jpg', '?width=2000&height=1000') }), 36003, 2207009],
  ])('refuses an image container for %s with its documented code', async (_label, fields, code, subcode) => {
    const who = world.account();
    expect(await world.call(who, 'POST', containers(who), fields())).toMatchObject({ status: 400, body: { error: { code, error_subcode: subcode } } });
  });

  it('fails a reel Instagram cannot take in processing: status_code ERROR with the reason', async () => {
    const who = world.account();
    const made = await world.call(who, 'POST', containers(who), { media_type: 'REELS', video_url: media('long.mp4', '?seconds=901') });
    expect(await world.call(who, 'GET', `/${GRAPH_API_VERSION}/${String(made.body?.id)}?fields=status_code,status`)).toMatchObject({
      body: { status_code: 'ERROR', status: expect.stringContaining('2207026') },
    });
  });

  it('refuses a carousel of more than 10 children, and one whose video child is still processing', async () => {
    const who = world.account();
    const child = async (fields: Record<string, string>) => String((await world.call(who, 'POST', containers(who), { ...fields, is_carousel_item: 'true' })).body?.id);
    const photos = await Promise.all(Array.from({ length: 11 }, (_, i) => child({ image_url: media(`c${i}.jpg`) })));
    expect(await world.call(who, 'POST', containers(who), { media_type: 'CAROUSEL', children: photos.join(',') })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const video = await child({ media_type: 'VIDEO', video_url: media('child.mp4', '?seconds=300') });
    expect(await world.call(who, 'POST', containers(who), { media_type: 'CAROUSEL', children: `${photos[0]},${video}` })).toMatchObject({
      status: 400,
      body: { error: { code: 9007, error_subcode: 2207027 } },
    });
  });
});
