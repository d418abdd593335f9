import { GRAPH_API_VERSION } from './meta-graph';
import { metaMediaWorld } from './meta-media.test-support';

/**
 * Facebook Page media against the sandbox, which plays the Graph API as documented:
 * "Uploading Photos" (https://developers.facebook.com/docs/graph-api/photo-uploads) and the
 * Photo reference (https://developers.facebook.com/docs/graph-api/reference/photo/): one
 * photo by `POST /{page-id}/photos` (bytes as `source`, `caption`, `alt_text_custom`),
 * several as unpublished photos attached to `POST /{page-id}/feed` (`attached_media`); and
 * "Uploading Videos" (https://developers.facebook.com/docs/graph-api/video-uploads), the
 * resumable upload (start, transfer chunks, finish).
 */
const world = metaMediaWorld('facebook', 'page');
const { media, post, requests, postsOf } = world;
const facebook = () => world.connectors.get('facebook');

describe('facebook connector, media', () => {
  it('publishes one photo, its bytes uploaded with its alt text and the text as caption (no link)', async () => {
    const who = world.account();
    const photo = media('bread.jpg', '?width=1200&height=900');
    const outcome = await facebook().publish(who, post('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(who);
    expect(outcome).toEqual({ status: 'published', platformPostId: item.id, url: `https://www.facebook.com/${item.id.replace('_', '/posts/')}` });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', receivedBytes: 4096, width: 1200, height: 900, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    expect([requests(who, 'upload'), requests(who, 'publish')]).toEqual([0, 1]);
  });

  it('publishes 10 photos as one post: unpublished photos, then a feed post attaching them in order', async () => {
    const who = world.account();
    const urls = Array.from({ length: 10 }, (_, i) => media(`photo-${i}.${i % 2 ? 'png' : 'jpg'}`));
    const altTexts = urls.map((_, i) => (i === 3 ? 'The fourth photo' : null));
    const outcome = await facebook().publish(who, post('Ten at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.text).toBe('Ten at once');
    expect(item.media.map((upload) => [upload.contentType, upload.altText])).toEqual(urls.map((_, i) => [i % 2 ? 'image/png' : 'image/jpeg', altTexts[i]]));
    expect([requests(who, 'upload'), requests(who, 'publish')]).toEqual([10, 1]);
  });

  it('publishes a video by the resumable upload: start, a transfer per range Graph asks for, finish with the description', async () => {
    const who = world.account();
    const outcome = await facebook().publish(who, post('Behind the scenes', [media('scenes.mp4', '?bytes=2500000&seconds=20')], ['dropped: videos take no alt text']));
    const [item] = postsOf(who);
    expect(outcome).toEqual({ status: 'published', platformPostId: item.id, url: `https://www.facebook.com/${who.identity.platformAccountId}/videos/${item.id}` });
    expect(item.text).toBe('Behind the scenes');
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', declaredBytes: 2_500_000, receivedBytes: 2_500_000, durationSeconds: 20, altText: null })]);
    // start and three 1 MiB-or-less transfers are uploads; finish is the publish.
    expect([requests(who, 'upload'), requests(who, 'publish')]).toEqual([4, 1]);
  });

  it('finds a photo post again by its text (reconciliation)', async () => {
    const who = world.account();
    const attemptStartedAt = new Date().toISOString();
    const outcome = await facebook().publish(who, post('Find me', [media('found.jpg')]));
    expect(await facebook().findPublished(who, { ...post('Find me', [media('found.jpg')]), attemptStartedAt })).toEqual({ platformPostId: (outcome as { platformPostId: string }).platformPostId, url: expect.any(String) });
  });

  describe('refuses what Facebook does not take before any call to it', () => {
    it.each([
      ['11 items', () => Array.from({ length: 11 }, (_, i) => media(`${i}.jpg`)), [], 'media_not_supported'],
      ['a video with a photo', () => [media('clip.mp4'), media('photo.jpg')], [], 'media_not_supported'],
      ['a photo of 10 MB', () => [media('huge.jpg', `?bytes=${10 * 1024 * 1024}`)], [], 'media_too_large'],
      ['a WebP photo', () => [media('photo.webp')], [], 'media_type_not_allowed'],
      ['a video over 45 minutes', () => [media('long.mp4', '?seconds=2701')], [], 'media_not_supported'],
      ['a 1:3 video (beyond 9x16)', () => [media('tall.mp4', '?width=300&height=900')], [], 'media_not_supported'],
      ['a text file', () => [media('notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [media('photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', async (_label, urls, altTexts, code) => {
      const who = world.account();
      const outcome = await facebook().publish(who, post('Refused', urls(), altTexts as string[]));
      expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
      expect(requests(who)).toBe(0);
    });
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', async () => {
    const who = world.account();
    const connections = world.sandbox.media.connections();
    const outcome = await facebook().publish(who, post('Private', [`https://localhost:${world.sandbox.media.port}/media/private.jpg`]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(world.sandbox.media.requests('private.jpg')).toBe(0);
    expect(world.sandbox.media.connections()).toBe(connections);
    expect(requests(who)).toBe(0);
  });

  it('retries a photo upload answered 503 (uploads are safe to repeat) and posts once', async () => {
    const who = world.account();
    world.sandbox.control.addFault({ platform: 'facebook', account: who.accountId, operation: 'upload', fault: { type: 'error', status: 503, message: 'over capacity' }, times: 1 });
    expect((await facebook().publish(who, post('Two', [media('one.jpg'), media('two.jpg')]))).status).toBe('published');
    expect([requests(who, 'upload'), requests(who, 'publish')]).toEqual([3, 1]);
    expect(postsOf(who)[0].media).toHaveLength(2);
  });

  it('reports a lost answer to the photo post as unknown, sent once', async () => {
    const who = world.account();
    world.sandbox.control.addFault({ platform: 'facebook', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await facebook().publish(who, post('Once', [media('once.jpg')]));
    expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown' } });
    expect(requests(who, 'publish')).toBe(1);
    expect(postsOf(who)).toHaveLength(1);
  });
});

describe('the sandbox plays Facebook photo and video uploads as documented', () => {
  const page = (who: { identity: { platformAccountId: string } }) => `/${GRAPH_API_VERSION}/${who.identity.platformAccountId}`;
  // A JPEG's SOI and quantisation-table markers, an mp4's ftyp box: what the platform sniffs, then padding.
  const jpeg = () => new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xdb]), Buffer.alloc(2_000)]);
  const mp4 = (bytes: number) => new Blob([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(bytes - 12)]);
  const photoForm = (fields: Record<string, string>, file = jpeg(), name = 'photo.jpg') => {
    const form = new FormData();
    form.append('source', file, name);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    return form;
  };

  it('attaches an unpublished photo once: a second post naming it, or a video id, is refused (#100)', async () => {
    const who = world.account();
    const photo = await world.call(who, 'POST', `${page(who)}/photos`, photoForm({ published: 'false' }));
    expect(photo).toMatchObject({ status: 200, body: { id: expect.any(String) } });
    const attach = { message: 'With a photo', 'attached_media[0]': JSON.stringify({ media_fbid: photo.body?.id }) };
    expect(await world.call(who, 'POST', `${page(who)}/feed`, attach)).toMatchObject({ status: 200 });
    expect(await world.call(who, 'POST', `${page(who)}/feed`, attach)).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const started = await world.call(who, 'POST', `${page(who)}/videos`, { upload_phase: 'start', file_size: '5000' });
    const withVideo = { 'attached_media[0]': JSON.stringify({ media_fbid: started.body?.video_id }) };
    expect(await world.call(who, 'POST', `${page(who)}/feed`, withVideo)).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });

  it('refuses a source that is not an image (#324)', async () => {
    const who = world.account();
    expect(await world.call(who, 'POST', `${page(who)}/photos`, photoForm({}, new Blob(['just text']), 'notes.txt'))).toMatchObject({ status: 400, body: { error: { code: 324 } } });
  });

  it('answers the resumable upload with the ranges to send, refuses a gap and a format it does not take (#352), and finishes only when complete', async () => {
    const who = world.account();
    const clip = mp4(1_500_000);
    const started = await world.call(who, 'POST', `${page(who)}/videos`, { upload_phase: 'start', file_size: String(clip.size) });
    expect(started).toMatchObject({ status: 200, body: { video_id: expect.any(String), upload_session_id: expect.any(String), start_offset: '0', end_offset: String(1024 * 1024) } });
    const session = String(started.body?.upload_session_id);
    const transfer = (start: number, end: number, blob = clip) => {
      const form = new FormData();
      for (const [key, value] of Object.entries({ upload_phase: 'transfer', upload_session_id: session, start_offset: String(start) })) form.append(key, value);
      form.append('video_file_chunk', blob.slice(start, end), 'clip.mp4');
      return world.call(who, 'POST', `${page(who)}/videos`, form);
    };
    expect(await world.call(who, 'POST', `${page(who)}/videos`, { upload_phase: 'finish', upload_session_id: session })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(await transfer(0, 1000, new Blob(['not a video at all']))).toMatchObject({ status: 400, body: { error: { code: 352 } } });
    expect(await transfer(2000, 3000)).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(await transfer(0, 1024 * 1024)).toMatchObject({ body: { start_offset: String(1024 * 1024), end_offset: String(clip.size) } });
    expect(await transfer(1024 * 1024, clip.size)).toMatchObject({ body: { start_offset: String(clip.size), end_offset: String(clip.size) } });
    expect(await world.call(who, 'POST', `${page(who)}/videos`, { upload_phase: 'finish', upload_session_id: session, description: 'Done' })).toEqual({ status: 200, body: { success: true } });
    expect(postsOf(who)).toEqual([expect.objectContaining({ id: started.body?.video_id, text: 'Done' })]);
  });
});
