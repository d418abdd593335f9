import { MIB } from '../content/media-rules';
import { anonymousRequests, expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, postsOf, requestsOf } from './media.test-support';
import { TIKTOK_CHUNK_BYTES } from './tiktok.connector';

/**
 * TikTok's media paths against the platform sandbox, which plays the Content Posting API as
 * documented: "Direct Post" (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post),
 * the "Media Transfer Guide" chunk rules and restrictions
 * (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide) and "Get Post Status"
 * (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status).
 */

const env = mediaSandbox();
const tiktok = () => env.connectors.get('tiktok');

it('uploads a video in chunks from the spooled file, waits for processing, and answers the public video', async () => {
  const account = mediaAccount(env, 'tiktok');
  const size = 2 * TIKTOK_CHUNK_BYTES + MIB + 7;
  const clip = mediaUrl(env, 'launch.mp4', { bytes: size, width: 1080, height: 1920, seconds: 10 });
  const uploadsBefore = anonymousRequests(env, 'tiktok', 'upload');

  const outcome = await tiktok().publish(account, mediaPost('Launch day #new', [clip], ['a rocket lifting off']));

  const [post] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: post.id, url: `https://www.tiktok.com/@brand/video/${post.id}` });
  expect(post.text).toBe('Launch day #new');
  expect(post.mediaUrls).toEqual([]);
  // floor(size / chunk) = 2 chunks, the last taking the trailing MIB and 7 bytes.
  expect(anonymousRequests(env, 'tiktok', 'upload') - uploadsBefore).toBe(2);
  expect(post.media).toEqual([
    expect.objectContaining({ contentType: 'video/mp4', declaredBytes: size, receivedBytes: size, width: 1080, height: 1920, durationSeconds: 10, altText: null }),
  ]);
  expect(requestsOf(env, account, 'publish')).toBe(1);
  // The first status read comes while TikTok still processes (150 ms for a 10 s clip): it was polled again.
  expect(requestsOf(env, account, 'lookup')).toBeGreaterThanOrEqual(2);
  expect(env.sleeps.length).toBeGreaterThanOrEqual(1);
});

it('uploads a video under one chunk whole, in a single PUT', async () => {
  const account = mediaAccount(env, 'tiktok');
  const uploadsBefore = anonymousRequests(env, 'tiktok', 'upload');
  const outcome = await tiktok().publish(account, mediaPost('Short one', [mediaUrl(env, 'short.mov', { bytes: 300_000 })]));
  expect(outcome.status).toBe('published');
  expect(anonymousRequests(env, 'tiktok', 'upload') - uploadsBefore).toBe(1);
  expect(postsOf(env, account)[0].media[0]).toMatchObject({ contentType: 'video/quicktime', receivedBytes: 300_000 });
});

it('posts up to 35 photos, which TikTok pulls by url after the connector checked them; the text carries no url and alt text is dropped', async () => {
  const account = mediaAccount(env, 'tiktok');
  const photos = Array.from({ length: 35 }, (_, index) => mediaUrl(env, `photo-${index}.${index % 2 === 0 ? 'jpg' : 'webp'}`));

  const outcome = await tiktok().publish(account, mediaPost('Our trip', photos, ['the beach']));

  // Failing, it prints the whole outcome (why no post is there) rather than a TypeError on the missing post.
  expect(outcome).toEqual(expect.objectContaining({ status: 'published' }));
  const [post] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: post.id, url: `https://www.tiktok.com/@brand/video/${post.id}` });
  expect(post.text).toBe('Our trip');
  expect(post.mediaUrls).toEqual(photos);
  expect(post.media).toHaveLength(35);
  expect(post.media.every((photo) => photo.altText === null && ['image/jpeg', 'image/webp'].includes(photo.contentType))).toBe(true);
  expect(env.sandbox.media.requests('photo-33.webp')).toBe(1);
});

it('takes a photo post text up to 4,000 units, but a video title only up to 2,200 (known once the bytes are read)', async () => {
  const account = mediaAccount(env, 'tiktok');
  const long = 'a'.repeat(2_201);
  expect((await tiktok().publish(account, mediaPost(long, [mediaUrl(env, 'ok.jpg')]))).status).toBe('published');
  const video = await tiktok().publish(account, mediaPost(long, [mediaUrl(env, 'ok.mp4')]));
  expect(video).toMatchObject({ status: 'failed', error: { code: 'content_too_long' } });
  expect(requestsOf(env, account, 'publish')).toBe(1);
});

describe.each([
  ['36 photos', () => Array.from({ length: 36 }, (_, index) => mediaUrl(env, `many-${index}.jpg`)), 'media_not_supported'],
  ['a video with a photo', () => [mediaUrl(env, 'both.mp4'), mediaUrl(env, 'both.jpg')], 'media_not_supported'],
  ['two videos', () => [mediaUrl(env, 'one.mp4'), mediaUrl(env, 'two.mp4')], 'media_not_supported'],
  ['a PNG photo', () => [mediaUrl(env, 'shot.png')], 'media_type_not_allowed'],
  ['a GIF', () => [mediaUrl(env, 'loop.gif')], 'media_type_not_allowed'],
  ['a photo over 20 MB', () => [mediaUrl(env, 'huge.jpg', { bytes: 20 * MIB + 1 })], 'media_too_large'],
  ['a video over 10 minutes', () => [mediaUrl(env, 'long.mp4', { seconds: 601 })], 'media_not_supported'],
  ['a text file', () => [mediaUrl(env, 'notes.txt')], 'media_type_not_allowed'],
])('refuses %s before any TikTok request', (_label, urls, code) => {
  it(`fails with ${code}`, () => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'tiktok'), mediaPost('refused', urls()), code));
});

it('refuses a media url on a private address outside the allow-list without connecting to it', () => expectPrivateMediaRefused(env, mediaAccount(env, 'tiktok'), 'clip.mp4'));

it("fails the post with media_processing_failed when TikTok's processing refuses the video (picture under 360 px)", async () => {
  const account = mediaAccount(env, 'tiktok');
  const outcome = await tiktok().publish(account, mediaPost('tiny', [mediaUrl(env, 'tiny.mp4', { width: 200, height: 200 })]));
  expect(outcome).toEqual({ status: 'failed', error: { code: 'media_processing_failed', message: expect.stringContaining('picture_size_check_failed'), retryable: false } });
  expect(postsOf(env, account)[0].media[0].state).toBe('failed');
});

it('answers the accepted post by its publish_id when TikTok is still processing after the bounded wait', async () => {
  const account = mediaAccount(env, 'tiktok');
  // A 10-minute video takes the sandbox 9 s to process; the impatient clock reaches the 5-minute bound in a few polls.
  const outcome = await env.impatient.get('tiktok').publish(account, mediaPost('long one', [mediaUrl(env, 'ten-minutes.mp4', { seconds: 600 })]));
  const [post] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: post.extra.publishId, url: 'https://www.tiktok.com/@brand' });
  expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(5 * 60_000);
});

it('answers the accepted post by its publish_id when its status cannot be read', async () => {
  const account = mediaAccount(env, 'tiktok');
  env.sandbox.control.addFault({ platform: 'tiktok', account: account.accountId, operation: 'lookup', times: 1, fault: { type: 'error', status: 403, code: 'scope_not_authorized', message: 'no video.upload scope' } });
  const outcome = await tiktok().publish(account, mediaPost('status hidden', [mediaUrl(env, 'hidden.jpg')]));
  const [post] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: post.extra.publishId, url: 'https://www.tiktok.com/@brand' });
  expect(requestsOf(env, account, 'lookup')).toBe(1);
});
