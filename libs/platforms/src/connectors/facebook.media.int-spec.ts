import { MIB } from '../content/media-rules';
import { GRAPH_API_VERSION } from './meta-graph';
import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * Facebook Page media against the sandbox, which plays the Graph API as documented:
 * "Uploading Photos" (https://developers.facebook.com/docs/graph-api/photo-uploads) and the
 * Photo reference (https://developers.facebook.com/docs/graph-api/reference/photo/): one
 * photo by `POST /{page-id}/photos` (bytes as `source`, `caption`, `alt_text_custom`),
 * several as unpublished photos attached to `POST /{page-id}/feed` (`attached_media`); and
 * "Uploading Videos" (https://developers.facebook.com/docs/graph-api/video-uploads), the
 * resumable upload (start, transfer chunks, finish).
 */
const env = mediaSandbox();
const facebook = () => env.connectors.get('facebook');

describe('facebook connector, media', () => {
  it('publishes one photo, its bytes uploaded with its alt text and the text as caption (no link)', async () => {
    const who = mediaAccount(env, 'facebook');
    const photo = mediaUrl(env, 'bread.jpg', { width: 1200, height: 900 });
    const outcome = await facebook().publish(who, mediaPost('Fresh bread today', [photo], ['A loaf of sourdough on a board']));
    const [item] = postsOf(env, who);
    expect(outcome).toEqual({ status: 'published', platformPostId: item.id, url: `https://www.facebook.com/${item.id.replace('_', '/posts/')}` });
    expect(item.text).toBe('Fresh bread today');
    expect(item.mediaUrls).toEqual([]);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', receivedBytes: 4096, width: 1200, height: 900, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    expect([requestsOf(env, who, 'upload'), requestsOf(env, who, 'publish')]).toEqual([0, 1]);
  });

  it('publishes 10 photos as one post: unpublished photos, then a feed post attaching them in order', async () => {
    const who = mediaAccount(env, 'facebook');
    const urls = Array.from({ length: 10 }, (_, i) => mediaUrl(env, `photo-${i}.${i % 2 ? 'png' : 'jpg'}`));
    const altTexts = urls.map((_, i) => (i === 3 ? 'The fourth photo' : null));
    const outcome = await facebook().publish(who, mediaPost('Ten at once', urls, altTexts));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.text).toBe('Ten at once');
    expect(item.media.map((upload) => [upload.contentType, upload.altText])).toEqual(urls.map((_, i) => [i % 2 ? 'image/png' : 'image/jpeg', altTexts[i]]));
    expect([requestsOf(env, who, 'upload'), requestsOf(env, who, 'publish')]).toEqual([10, 1]);
  });

  it('publishes a video by the resumable upload: start, a transfer per range Graph asks for, finish with the description', async () => {
    const who = mediaAccount(env, 'facebook');
    const outcome = await facebook().publish(who, mediaPost('Behind the scenes', [mediaUrl(env, 'scenes.mp4', { bytes: 2_500_000, seconds: 20 })], ['dropped: videos take no alt text']));
    const [item] = postsOf(env, who);
    expect(outcome).toEqual({ status: 'published', platformPostId: item.id, url: `https://www.facebook.com/${who.identity.platformAccountId}/videos/${item.id}` });
    expect(item.text).toBe('Behind the scenes');
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', declaredBytes: 2_500_000, receivedBytes: 2_500_000, durationSeconds: 20, altText: null })]);
    // start and three 1 MiB-or-less transfers are uploads; finish is the publish.
    expect([requestsOf(env, who, 'upload'), requestsOf(env, who, 'publish')]).toEqual([4, 1]);
  });

  it('finds a photo post again by its text (reconciliation)', async () => {
    const who = mediaAccount(env, 'facebook');
    const attemptStartedAt = new Date().toISOString();
    const outcome = await facebook().publish(who, mediaPost('Find me', [mediaUrl(env, 'found.jpg')]));
    expect(await facebook().findPublished(who, { ...mediaPost('Find me', [mediaUrl(env, 'found.jpg')]), attemptStartedAt })).toEqual({ platformPostId: (outcome as { platformPostId: string }).platformPostId, url: expect.any(String) });
  });

  describe('refuses what Facebook does not take before any call to it', () => {
    it.each([
      ['11 items', () => Array.from({ length: 11 }, (_, i) => mediaUrl(env, `${i}.jpg`)), [], 'media_not_supported'],
      ['a video with a photo', () => [mediaUrl(env, 'clip.mp4'), mediaUrl(env, 'photo.jpg')], [], 'media_not_supported'],
      ['a photo of 10 MB', () => [mediaUrl(env, 'huge.jpg', { bytes: 10 * MIB })], [], 'media_too_large'],
      ['a WebP photo', () => [mediaUrl(env, 'photo.webp')], [], 'media_type_not_allowed'],
      ['a video over 45 minutes', () => [mediaUrl(env, 'long.mp4', { seconds: 2701 })], [], 'media_not_supported'],
      ['a 1:3 video (beyond 9x16)', () => [mediaUrl(env, 'tall.mp4', { width: 300, height: 900 })], [], 'media_not_supported'],
      ['a text file', () => [mediaUrl(env, 'notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [mediaUrl(env, 'photo.jpg')], ['a'.repeat(1_001)], 'alt_text_too_long'],
    ])('%s', (_label, urls, altTexts, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'facebook'), mediaPost('Refused', urls(), altTexts as string[]), code));
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', () => expectPrivateMediaRefused(env, mediaAccount(env, 'facebook')));

  it('retries a photo upload answered 503 (uploads are safe to repeat) and posts once', async () => {
    const who = mediaAccount(env, 'facebook');
    env.sandbox.control.addFault({ platform: 'facebook', account: who.accountId, operation: 'upload', fault: { type: 'error', status: 503, message: 'over capacity' }, times: 1 });
    expect((await facebook().publish(who, mediaPost('Two', [mediaUrl(env, 'one.jpg'), mediaUrl(env, 'two.jpg')]))).status).toBe('published');
    expect([requestsOf(env, who, 'upload'), requestsOf(env, who, 'publish')]).toEqual([3, 1]);
    expect(postsOf(env, who)[0].media).toHaveLength(2);
  });

  it('reports a lost answer to the photo post as unknown, sent once', async () => {
    const who = mediaAccount(env, 'facebook');
    env.sandbox.control.addFault({ platform: 'facebook', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await facebook().publish(who, mediaPost('Once', [mediaUrl(env, 'once.jpg')]));
    expect(outcome).toMatchObject({ status: 'unknown', error: { code: 'outcome_unknown' } });
    expect(requestsOf(env, who, 'publish')).toBe(1);
    expect(postsOf(env, who)).toHaveLength(1);
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
    const who = mediaAccount(env, 'facebook');
    const photo = await platformCall(env, who, 'POST', `${page(who)}/photos`, { multipart: photoForm({ published: 'false' }) });
    expect(photo).toMatchObject({ status: 200, body: { id: expect.any(String) } });
    const attach = { message: 'With a photo', 'attached_media[0]': JSON.stringify({ media_fbid: photo.body?.id }) };
    expect(await platformCall(env, who, 'POST', `${page(who)}/feed`, { form: attach })).toMatchObject({ status: 200 });
    expect(await platformCall(env, who, 'POST', `${page(who)}/feed`, { form: attach })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const started = await platformCall(env, who, 'POST', `${page(who)}/videos`, { form: { upload_phase: 'start', file_size: '5000' } });
    const withVideo = { 'attached_media[0]': JSON.stringify({ media_fbid: started.body?.video_id }) };
    expect(await platformCall(env, who, 'POST', `${page(who)}/feed`, { form: withVideo })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });

  it('refuses a source that is not an image (#324)', async () => {
    const who = mediaAccount(env, 'facebook');
    expect(await platformCall(env, who, 'POST', `${page(who)}/photos`, { multipart: photoForm({}, new Blob(['just text']), 'notes.txt') })).toMatchObject({ status: 400, body: { error: { code: 324 } } });
  });

  it('answers the resumable upload with the ranges to send, refuses a gap and a format it does not take (#352), and finishes only when complete', async () => {
    const who = mediaAccount(env, 'facebook');
    const clip = mp4(1_500_000);
    const started = await platformCall(env, who, 'POST', `${page(who)}/videos`, { form: { upload_phase: 'start', file_size: String(clip.size) } });
    expect(started).toMatchObject({ status: 200, body: { video_id: expect.any(String), upload_session_id: expect.any(String), start_offset: '0', end_offset: String(1024 * 1024) } });
    const session = String(started.body?.upload_session_id);
    const transfer = (start: number, end: number, blob = clip) => {
      const form = new FormData();
      for (const [key, value] of Object.entries({ upload_phase: 'transfer', upload_session_id: session, start_offset: String(start) })) form.append(key, value);
      form.append('video_file_chunk', blob.slice(start, end), 'clip.mp4');
      return platformCall(env, who, 'POST', `${page(who)}/videos`, { multipart: form });
    };
    expect(await platformCall(env, who, 'POST', `${page(who)}/videos`, { form: { upload_phase: 'finish', upload_session_id: session } })).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(await transfer(0, 1000, new Blob(['not a video at all']))).toMatchObject({ status: 400, body: { error: { code: 352 } } });
    expect(await transfer(2000, 3000)).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(await transfer(0, 1024 * 1024)).toMatchObject({ body: { start_offset: String(1024 * 1024), end_offset: String(clip.size) } });
    expect(await transfer(1024 * 1024, clip.size)).toMatchObject({ body: { start_offset: String(clip.size), end_offset: String(clip.size) } });
    expect(await platformCall(env, who, 'POST', `${page(who)}/videos`, { form: { upload_phase: 'finish', upload_session_id: session, description: 'Done' } })).toEqual({ status: 200, body: { success: true } });
    expect(postsOf(env, who)).toEqual([expect.objectContaining({ id: started.body?.video_id, text: 'Done' })]);
  });
});
