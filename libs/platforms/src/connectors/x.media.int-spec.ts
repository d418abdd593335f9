import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * X native media against the sandbox, which plays X's media upload v2 as documented:
 * "Upload media" (https://docs.x.com/x-api/media/upload-media) for images, the chunked
 * initialize / append / finalize flow with STATUS polling for GIFs and videos
 * (https://docs.x.com/x-api/media/quickstart/media-upload-chunked), alt text through
 * "Create Media metadata" (https://docs.x.com/x-api/media/create-media-metadata), and the
 * limits of "Best practices" (https://docs.x.com/x-api/media/quickstart/best-practices).
 */
const env = mediaSandbox();
const x = () => env.connectors.get('x');

describe('x connector, native media', () => {
  it('uploads one image in one request with its alt text, and the Post carries it with the text alone', async () => {
    const who = mediaAccount(env, 'x');
    const url = mediaUrl(env, 'sunrise.png', { width: 1600, height: 900 });
    const outcome = await x().publish(who, mediaPost('Sunrise over the bay', [url], ['A red sun rising over calm water']));
    expect(outcome).toMatchObject({ status: 'published' });
    const [item] = postsOf(env, who);
    expect(item.text).toBe('Sunrise over the bay');
    expect(item.text).not.toContain(env.sandbox.mediaUrl);
    expect(item.media).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 1600, height: 900, altText: 'A red sun rising over calm water', state: 'ready', attachedTo: item.id }),
    ]);
    // One upload, one metadata call, no chunked session.
    expect(requestsOf(env, who, 'upload')).toBe(2);
    expect(requestsOf(env, who, 'upload_status')).toBe(0);
  });

  it('attaches four images (the most a Post takes) in the order given, each with its own alt text', async () => {
    const who = mediaAccount(env, 'x');
    const names = ['one.jpg', 'two.png', 'three.webp', 'four.jpg'];
    const outcome = await x().publish(who, mediaPost('', names.map((name) => mediaUrl(env, name)), ['first', null, 'third', 'fourth']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.text).toBe('');
    expect(item.media.map((upload) => [upload.extra.fileName, upload.altText])).toEqual([
      ['one.jpg', 'first'],
      ['two.png', null],
      ['three.webp', 'third'],
      ['four.jpg', 'fourth'],
    ]);
  });

  it('uploads a video in segments, env.sleeps while X processes it, then publishes it', async () => {
    const who = mediaAccount(env, 'x');
    const bytes = 9_000_000; // three segments of at most 4 MiB
    const outcome = await x().publish(who, mediaPost('Launch clip', [mediaUrl(env, 'launch.mp4', { bytes: bytes, seconds: 12, width: 1280, height: 720 })]));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', declaredBytes: bytes, receivedBytes: bytes, durationSeconds: 12, state: 'ready' })]);
    expect(JSON.parse(item.media[0].extra.segments)).toEqual({ 0: 4 * 1024 * 1024, 1: 4 * 1024 * 1024, 2: bytes - 8 * 1024 * 1024 });
    // The processing was waited for (STATUS read until succeeded), with pauses on the policy's clock.
    expect(requestsOf(env, who, 'upload_status')).toBeGreaterThanOrEqual(1);
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('uploads an animated GIF through the chunked flow as tweet_gif', async () => {
    const who = mediaAccount(env, 'x');
    const outcome = await x().publish(who, mediaPost('Looping', [mediaUrl(env, 'loop.gif')], ['A cat chasing its tail']));
    expect(outcome.status).toBe('published');
    expect(postsOf(env, who)[0].media).toEqual([expect.objectContaining({ contentType: 'image/gif', altText: 'A cat chasing its tail', extra: expect.objectContaining({ category: 'tweet_gif' }) })]);
  });

  it('fails with media_processing_failed, without publishing, when X cannot process the video', async () => {
    const who = mediaAccount(env, 'x');
    const outcome = await x().publish(who, mediaPost('Broken clip', [mediaUrl(env, 'fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout, without publishing, when processing outlasts the bounded wait, reading STATUS when X says', async () => {
    const who = mediaAccount(env, 'x');
    // The sandbox processes 15 ms per second of video: 10 minutes take 9 s, past the connector's 5 virtual minutes.
    const outcome = await x().publish(who, mediaPost('Long clip', [mediaUrl(env, 'long.mp4', { seconds: 600 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requestsOf(env, who, 'publish')).toBe(0);
    // Each STATUS read came after the check_after_secs X named ("Finalize Media upload"): 9 s for 9 s of
    // processing at finalize, so the first read came 9 s after it, not at once.
    expect(env.sleeps[0]).toBe(9_000);
    expect(requestsOf(env, who, 'upload_status')).toBe(env.sleeps.length);
  });

  describe('refuses what X does not take before any call to X', () => {
    const longAlt = 'a'.repeat(1_001);
    it.each([
      ['five images', () => ['1', '2', '3', '4', '5'].map((n) => mediaUrl(env, `${n}.jpg`)), [], 'media_not_supported'],
      ['a video with an image', () => [mediaUrl(env, 'clip.mp4'), mediaUrl(env, 'photo.jpg')], [], 'media_not_supported'],
      ['two GIFs', () => [mediaUrl(env, 'a.gif'), mediaUrl(env, 'b.gif')], [], 'media_not_supported'],
      ['an image over 5 MB', () => [mediaUrl(env, 'huge.png', { bytes: 6_000_000 })], [], 'media_too_large'],
      ['a GIF over 15 MB', () => [mediaUrl(env, 'huge.gif', { bytes: 16_000_000 })], [], 'media_too_large'],
      ['a video over 20 minutes', () => [mediaUrl(env, 'film.mp4', { seconds: 1300 })], [], 'media_not_supported'],
      ['a video shorter than half a second', () => [mediaUrl(env, 'blink.mp4', { seconds: 0 })], [], 'media_not_supported'],
      ['a video wider than 3:1', () => [mediaUrl(env, 'banner.mp4', { width: 4000, height: 1000 })], [], 'media_not_supported'],
      ['a WebM video', () => [mediaUrl(env, 'clip.webm')], [], 'media_type_not_allowed'],
      ['a text file', () => [mediaUrl(env, 'notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [mediaUrl(env, 'photo.jpg')], [longAlt], 'alt_text_too_long'],
    ])('%s', (_label, urls, altTexts, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'x'), mediaPost('Refused', urls(), altTexts as string[]), code));
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', () => expectPrivateMediaRefused(env, mediaAccount(env, 'x'), 'private.png'));
});

describe('the sandbox plays X media as documented', () => {
  it('refuses a Post naming a video X is still processing: "Your media IDs are invalid."', async () => {
    const who = mediaAccount(env, 'x');
    // An mp4's ftyp box, then padding: what X's processing starts from.
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(2_000)]);
    const init = await platformCall(env, who, 'POST', '/2/media/upload/initialize', { json: { media_type: 'video/mp4', total_bytes: bytes.length, media_category: 'tweet_video' } });
    const id = init.body.data.id;
    const segment = new FormData();
    segment.append('media', new Blob([bytes]), 'fresh.mp4');
    segment.append('segment_index', '0');
    expect((await platformCall(env, who, 'POST', `/2/media/upload/${id}/append`, { multipart: segment })).status).toBe(200);
    const finalized = await platformCall(env, who, 'POST', `/2/media/upload/${id}/finalize`);
    expect(finalized.body.data.processing_info).toMatchObject({ state: 'in_progress', check_after_secs: 1 });
    const refused = await platformCall(env, who, 'POST', '/2/tweets', { json: { text: 'too soon', media: { media_ids: [id] } } });
    expect(refused).toEqual({
      status: 400,
      body: expect.objectContaining({ errors: [{ parameters: { 'media.media_ids': [id] }, message: 'Your media IDs are invalid.' }], type: 'https://api.twitter.com/2/problems/invalid-request' }),
    });
    expect(postsOf(env, who)).toHaveLength(0);
  });

  it('refuses segments that do not add up to total_bytes at finalize', async () => {
    const who = mediaAccount(env, 'x');
    const init = await platformCall(env, who, 'POST', '/2/media/upload/initialize', { json: { media_type: 'video/mp4', total_bytes: 10_000, media_category: 'tweet_video' } });
    const finalized = await platformCall(env, who, 'POST', `/2/media/upload/${init.body.data.id}/finalize`);
    expect(finalized).toEqual({ status: 400, body: expect.objectContaining({ detail: 'Segments do not add up to provided total file size.' }) });
  });
});
