import { GRAPH_API_VERSION } from './meta-graph';
import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

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
const env = mediaSandbox();
const instagram = () => env.connectors.get('instagram');

describe('instagram connector, media', () => {
  it('publishes one image by url with its alt text; the caption is the text alone', async () => {
    const who = mediaAccount(env, 'instagram');
    const photo = mediaUrl(env, 'bread.jpg', { width: 1080, height: 1080 });
    const outcome = await instagram().publish(who, mediaPost('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(env, who);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: item.id });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([photo]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', width: 1080, height: 1080, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    // One container, its status read once (FINISHED), one publish.
    expect([requestsOf(env, who, 'container'), requestsOf(env, who, 'publish')]).toEqual([1, 1]);
    expect(env.sleeps).toEqual([]);
  });

  it('publishes a carousel of 10 (the most Instagram takes), images and a video, in order, waiting for the video', async () => {
    const who = mediaAccount(env, 'instagram');
    const urls = [...Array.from({ length: 9 }, (_, i) => mediaUrl(env, `photo-${i}.jpg`)), mediaUrl(env, 'clip.mp4', { width: 1080, height: 1350 })];
    const altTexts = urls.map((_, i) => (i === 0 ? 'The first photo' : null));
    const outcome = await instagram().publish(who, mediaPost('Ten at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.mediaUrls).toEqual(urls);
    expect(item.media.map((upload) => [upload.contentType, upload.altText])).toEqual([
      ['image/jpeg', 'The first photo'],
      ...Array.from({ length: 8 }, () => ['image/jpeg', null]),
      ['video/mp4', null],
    ]);
    // Ten children and the CAROUSEL container.
    expect(requestsOf(env, who, 'container')).toBe(11);
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('publishes a video as a reel once Instagram has processed it (IN_PROGRESS, then FINISHED); its alt text is dropped (reels take none)', async () => {
    const who = mediaAccount(env, 'instagram');
    const outcome = await instagram().publish(who, mediaPost('Behind the scenes', [mediaUrl(env, 'scenes.mp4', { width: 1080, height: 1920, seconds: 20 })], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', durationSeconds: 20, altText: null, state: 'ready' })]);
    expect(requestsOf(env, who, 'lookup')).toBeGreaterThanOrEqual(3); // at least two status reads and the permalink
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('fails with media_processing_failed, without publishing, when the container ends in ERROR', async () => {
    const who = mediaAccount(env, 'instagram');
    const outcome = await instagram().publish(who, mediaPost('Broken', [mediaUrl(env, 'fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout after five minutes of IN_PROGRESS (a 10-minute video processes for longer), without publishing', async () => {
    const who = mediaAccount(env, 'instagram');
    const outcome = await instagram().publish(who, mediaPost('Slow', [mediaUrl(env, 'slow.mp4', { seconds: 600 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  describe('refuses what Instagram does not take before any call to it', () => {
    it.each([
      ['11 items', () => Array.from({ length: 11 }, (_, i) => mediaUrl(env, `${i}.jpg`)), [], 'media_not_supported'],
      ['a PNG (JPEG only)', () => [mediaUrl(env, 'photo.png')], [], 'media_type_not_allowed'],
      ['a GIF', () => [mediaUrl(env, 'dance.gif')], [], 'media_type_not_allowed'],
      ['an image over 8 MB', () => [mediaUrl(env, 'huge.jpg', { bytes: 9_000_000 })], [], 'media_too_large'],
      ['a 2:1 image (beyond 1.91:1)', () => [mediaUrl(env, 'wide.jpg', { width: 2000, height: 1000 })], [], 'media_not_supported'],
      ['a 2-second video (3 s at least)', () => [mediaUrl(env, 'short.mp4', { seconds: 2 })], [], 'media_not_supported'],
      ['a text file', () => [mediaUrl(env, 'notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [mediaUrl(env, 'photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', (_label, urls, altTexts, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'instagram'), mediaPost('Refused', urls(), altTexts as string[]), code));
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', () => expectPrivateMediaRefused(env, mediaAccount(env, 'instagram')));

  it('reports a lost media_publish answer as unknown, sent once, after the containers (which are safe to redo)', async () => {
    const who = mediaAccount(env, 'instagram');
    env.sandbox.control.addFault({ platform: 'instagram', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await instagram().publish(who, mediaPost('Once', [mediaUrl(env, 'once.jpg'), mediaUrl(env, 'twice.jpg')]));
    expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown' } });
    expect(requestsOf(env, who, 'publish')).toBe(1);
    expect(postsOf(env, who)[0].media).toHaveLength(2);
  });
});

describe('the sandbox plays Instagram containers as documented', () => {
  const containers = (who: { identity: { platformAccountId: string } }) => `/${GRAPH_API_VERSION}/${who.identity.platformAccountId}/media`;
  const publishPath = (who: { identity: { platformAccountId: string } }) => `/${GRAPH_API_VERSION}/${who.identity.platformAccountId}/media_publish`;

  it('reads a reel container IN_PROGRESS, refuses to publish it then (9007 / 2207027), and publishes it once FINISHED', async () => {
    const who = mediaAccount(env, 'instagram');
    const made = await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'REELS', video_url: mediaUrl(env, 'reel.mp4', { seconds: 20 }), caption: 'Soon' } });
    const id = String(made.body?.id);
    expect(await platformCall(env, who, 'GET', `/${GRAPH_API_VERSION}/${id}?fields=status_code`)).toMatchObject({ status: 200, body: { status_code: 'IN_PROGRESS' } });
    expect(await platformCall(env, who, 'POST', publishPath(who), { form: { creation_id: id } })).toMatchObject({ status: 400, body: { error: { code: 9007, error_subcode: 2207027 } } });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await platformCall(env, who, 'GET', `/${GRAPH_API_VERSION}/${id}?fields=status_code`)).toMatchObject({ body: { status_code: 'FINISHED' } });
    expect(await platformCall(env, who, 'POST', publishPath(who), { form: { creation_id: id } })).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  });

  it.each([
    ['a url it cannot fetch', () => ({ image_url: mediaUrl(env, 'gone.jpg', { status: 404 }) }), 9004, 2207052],
    ['a PNG', () => ({ image_url: mediaUrl(env, 'photo.png') }), 36001, 2207005],
    ['an image over 8 MiB', () => ({ image_url: mediaUrl(env, 'huge.jpg', { bytes: 9_000_000 }) }), 36000, 2207004],
    ['a 2:1 image', () => ({ image_url: mediaUrl(env, 'wide.jpg', { width: 2000, height: 1000 }) }), 36003, 2207009],
  ])('refuses an image container for %s with its documented code', async (_label, fields, code, subcode) => {
    const who = mediaAccount(env, 'instagram');
    expect(await platformCall(env, who, 'POST', containers(who), { form: fields() })).toMatchObject({ status: 400, body: { error: { code, error_subcode: subcode } } });
  });

  it('fails a reel Instagram cannot take in processing: status_code ERROR with the reason', async () => {
    const who = mediaAccount(env, 'instagram');
    const made = await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'REELS', video_url: mediaUrl(env, 'long.mp4', { seconds: 901 }) } });
    expect(await platformCall(env, who, 'GET', `/${GRAPH_API_VERSION}/${String(made.body?.id)}?fields=status_code,status`)).toMatchObject({
      body: { status_code: 'ERROR', status: expect.stringContaining('2207026') },
    });
  });

  it('refuses a carousel of more than 10 children, and one whose video child is still processing', async () => {
    const who = mediaAccount(env, 'instagram');
    const child = async (fields: Record<string, string>) => String((await platformCall(env, who, 'POST', containers(who), { form: { ...fields, is_carousel_item: 'true' } })).body?.id);
    const photos = await Promise.all(Array.from({ length: 11 }, (_, i) => child({ image_url: mediaUrl(env, `c${i}.jpg`) })));
    expect(await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'CAROUSEL', children: photos.join(',') } })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const video = await child({ media_type: 'VIDEO', video_url: mediaUrl(env, 'child.mp4', { seconds: 300 }) });
    expect(await platformCall(env, who, 'POST', containers(who), { form: { media_type: 'CAROUSEL', children: `${photos[0]},${video}` } })).toMatchObject({
      status: 400,
      body: { error: { code: 9007, error_subcode: 2207027 } },
    });
  });
});
