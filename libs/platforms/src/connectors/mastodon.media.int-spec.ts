import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * Mastodon native media against the sandbox, which plays the account's instance as
 * documented: "Upload media as an attachment (async)" and "Get media attachment"
 * (https://docs.joinmastodon.org/methods/media/), statuses with media_ids
 * (https://docs.joinmastodon.org/methods/statuses/#create) and the attachment limits of
 * "Posting to your profile" (https://docs.joinmastodon.org/user/posting/#media).
 */
const env = mediaSandbox();
const mastodon = () => env.connectors.get('mastodon');

describe('mastodon connector, native media', () => {
  it('uploads an image with its description (alt text) on the account instance, and the status carries it with the text alone', async () => {
    const who = mediaAccount(env, 'mastodon');
    expect(who.identity.instanceUrl).toBe(`${env.sandbox.url}/mastodon`);
    const outcome = await mastodon().publish(who, mediaPost('Fresh bread today', [mediaUrl(env, 'bread.jpg', { width: 1200, height: 1200 })], ['A loaf of sourdough on a board']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.text).toBe('Fresh bread today');
    expect(item.text).not.toContain(env.sandbox.mediaUrl);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', width: 1200, height: 1200, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    // An image is processed at once (200): one upload, no status read, no wait.
    expect(requestsOf(env, who, 'upload')).toBe(1);
    expect(requestsOf(env, who, 'upload_status')).toBe(0);
  });

  it('attaches four images (the most a status takes) in the order given', async () => {
    const who = mediaAccount(env, 'mastodon');
    const names = ['a.png', 'b.jpg', 'c.webp', 'd.png'];
    const outcome = await mastodon().publish(who, mediaPost('', names.map((name) => mediaUrl(env, name)), [null, 'second', null, 'fourth']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.media.map((upload) => [upload.extra.fileName, upload.altText])).toEqual([
      ['a.png', null],
      ['b.jpg', 'second'],
      ['c.webp', null],
      ['d.png', 'fourth'],
    ]);
  });

  it('env.sleeps while the instance processes a video (202, then 206 until processed) before posting the status', async () => {
    const who = mediaAccount(env, 'mastodon');
    const outcome = await mastodon().publish(who, mediaPost('Behind the scenes', [mediaUrl(env, 'scenes.mp4', { bytes: 3_000_000, seconds: 20 })], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', receivedBytes: 3_000_000, durationSeconds: 20, altText: 'The team at work', state: 'ready' })]);
    expect(requestsOf(env, who, 'upload_status')).toBeGreaterThanOrEqual(2);
    expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('lets an animated GIF share a status with images (it becomes a gifv, not a video)', async () => {
    const who = mediaAccount(env, 'mastodon');
    const outcome = await mastodon().publish(who, mediaPost('Mixed', [mediaUrl(env, 'dance.gif'), mediaUrl(env, 'still.png')]));
    expect(outcome.status).toBe('published');
    expect(postsOf(env, who)[0].media.map((upload) => upload.contentType)).toEqual(['image/gif', 'image/png']);
  });

  it('fails with media_processing_failed, without posting, when the instance cannot process the video', async () => {
    const who = mediaAccount(env, 'mastodon');
    const outcome = await mastodon().publish(who, mediaPost('Broken', [mediaUrl(env, 'fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout, without posting, when processing outlasts the bounded wait', async () => {
    const who = mediaAccount(env, 'mastodon');
    const outcome = await mastodon().publish(who, mediaPost('Long', [mediaUrl(env, 'long.mp4', { seconds: 600 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requestsOf(env, who, 'publish')).toBe(0);
  });

  describe('refuses what Mastodon does not take before any call to the instance', () => {
    it.each([
      ['five images', () => ['1', '2', '3', '4', '5'].map((n) => mediaUrl(env, `${n}.png`)), [], 'media_not_supported'],
      ['a video with an image', () => [mediaUrl(env, 'clip.mp4'), mediaUrl(env, 'photo.jpg')], [], 'media_not_supported'],
      ['an image over 16 MB', () => [mediaUrl(env, 'huge.jpg', { bytes: 17_000_000 })], [], 'media_too_large'],
      ['a text file', () => [mediaUrl(env, 'notes.txt')], [], 'media_type_not_allowed'],
      ['a description over 1,500 characters', () => [mediaUrl(env, 'photo.jpg')], ['a'.repeat(1_501)], 'alt_text_too_long'],
    ])('%s', (_label, urls, altTexts, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'mastodon'), mediaPost('Refused', urls(), altTexts as string[]), code));
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', () => expectPrivateMediaRefused(env, mediaAccount(env, 'mastodon')));

  it('resends a status whose answer was lost with the same Idempotency-Key: one status, carrying the media', async () => {
    const who = mediaAccount(env, 'mastodon');
    env.sandbox.control.addFault({ platform: 'mastodon', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await mastodon().publish(who, mediaPost('Once', [mediaUrl(env, 'once.png')]));
    const stored = postsOf(env, who);
    expect(stored).toHaveLength(1);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: stored[0].id });
    expect(stored[0].media).toHaveLength(1);
    expect(requestsOf(env, who, 'publish')).toBe(2);
  });
});

describe('the sandbox plays Mastodon media as documented', () => {
  // An mp4's ftyp box, then padding: what the instance's transcoding starts from.
  const video = () => new Blob([Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(2_000)])]);

  it('answers 202 with a null url, 206 while processing, and refuses a status naming it until processed', async () => {
    const who = mediaAccount(env, 'mastodon');
    const form = new FormData();
    form.append('file', video(), 'fresh.mp4');
    const uploaded = await platformCall(env, who, 'POST', '/api/v2/media', { multipart: form });
    expect(uploaded).toMatchObject({ status: 202, body: { type: 'video', url: null } });
    expect(await platformCall(env, who, 'GET', `/api/v1/media/${uploaded.body.id}`)).toEqual({ status: 206, body: null });
    const refused = await platformCall(env, who, 'POST', '/api/v1/statuses', { json: { status: 'too soon', media_ids: [uploaded.body.id] } });
    expect(refused).toEqual({ status: 422, body: { error: 'Cannot attach files that have not finished processing. Try again in a moment!' } });
    expect(postsOf(env, who)).toHaveLength(0);
  });

  it('refuses a file that is not media with 422 "File content type is invalid"', async () => {
    const who = mediaAccount(env, 'mastodon');
    const form = new FormData();
    form.append('file', new Blob(['just text']), 'notes.txt');
    expect(await platformCall(env, who, 'POST', '/api/v2/media', { multipart: form })).toEqual({ status: 422, body: { error: 'Validation failed: File content type is invalid, File is invalid' } });
  });
});
