import { MIB } from '../content/media-rules';
import { anonymousRequests, expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, postsOf, requestsOf } from './media.test-support';

/**
 * Pinterest's media paths against the platform sandbox, which plays API v5 as documented:
 * "Create Pin" (https://developers.pinterest.com/docs/api/v5/pins-create) with image_url,
 * multiple_image_urls and video_id sources, and the video upload of "Creating Pins"
 * (https://developers.pinterest.com/docs/content/update/): register, the storage form POST, the
 * media status; limits from "Pinterest product specs" (https://help.pinterest.com/en/business/article/pinterest-product-specs).
 */

const env = mediaSandbox();
const pinterest = () => env.connectors.get('pinterest');
const BOARD = { attributes: { boardId: 'board-42' } };

it('pins one image by url with its alt text; the description carries no url', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  const photo = mediaUrl(env, 'recipe.jpg', { width: 1000, height: 1500 });

  const outcome = await pinterest().publish(account, mediaPost('Best pancakes\nFluffy every time', [photo], ['a stack of pancakes with berries']));

  const [pin] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: pin.id, url: `https://www.pinterest.com/pin/${pin.id}/` });
  expect(pin).toMatchObject({ owner: 'board-42', text: 'Best pancakes\nFluffy every time', mediaUrls: [photo], extra: { title: 'Best pancakes', altText: 'a stack of pancakes with berries' } });
  expect(pin.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', width: 1000, height: 1500, altText: 'a stack of pancakes with berries' })]);
  expect(env.sandbox.media.requests('recipe.jpg')).toBeGreaterThanOrEqual(1);
});

it('pins a carousel of up to 5 images (multiple_image_urls), whose items have no alt text field', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  const photos = ['a.jpg', 'b.png', 'c.webp', 'd.jpg', 'e.jpg'].map((file) => mediaUrl(env, file));
  const outcome = await pinterest().publish(account, mediaPost('Five looks', photos, ['first look']));
  const [pin] = postsOf(env, account);
  expect(outcome.status).toBe('published');
  expect(pin.mediaUrls).toEqual(photos);
  expect(pin.media.map((image) => [image.contentType, image.altText])).toEqual([
    ['image/jpeg', null],
    ['image/png', null],
    ['image/webp', null],
    ['image/jpeg', null],
    ['image/jpeg', null],
  ]);
  expect(pin.extra.altText).toBeUndefined();
});

it('pins a video: registers it, uploads the file as a form to the upload_url, waits for processing, then pins its media_id', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  const uploadsBefore = anonymousRequests(env, 'pinterest', 'upload');
  const clip = mediaUrl(env, 'howto.mp4', { bytes: 3_000_000, width: 1080, height: 1920, seconds: 10 });

  const outcome = await pinterest().publish(account, mediaPost('How to fold', [clip], ['hands folding a napkin']));

  const [pin] = postsOf(env, account);
  expect(outcome).toEqual({ status: 'published', platformPostId: pin.id, url: `https://www.pinterest.com/pin/${pin.id}/` });
  expect(pin.mediaUrls).toEqual([]);
  expect(pin.media).toEqual([
    expect.objectContaining({ contentType: 'video/mp4', receivedBytes: 3_000_000, width: 1080, height: 1920, durationSeconds: 10, altText: 'hands folding a napkin', attachedTo: pin.id }),
  ]);
  expect(requestsOf(env, account, 'upload_session')).toBe(1);
  expect(anonymousRequests(env, 'pinterest', 'upload') - uploadsBefore).toBe(1);
  // Processing takes 150 ms for a 10 s clip: the first status read finds it still processing.
  expect(requestsOf(env, account, 'lookup')).toBeGreaterThanOrEqual(2);
  expect(requestsOf(env, account, 'publish')).toBe(1);
});

it('fails with media_processing_failed, without a pin, when Pinterest cannot process the video', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  const outcome = await pinterest().publish(account, mediaPost('Broken', [mediaUrl(env, 'clip-fail-processing.mp4')]));
  expect(outcome).toEqual({ status: 'failed', error: { code: 'media_processing_failed', message: expect.any(String), retryable: false } });
  expect(requestsOf(env, account, 'publish')).toBe(0);
  expect(postsOf(env, account)).toHaveLength(0);
});

it('gives up with a retryable media_processing_timeout, without a pin, when processing outlasts the bounded wait', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  // A 15-minute video takes the sandbox 13.5 s; the impatient clock reaches the 5-minute bound in a few polls.
  const outcome = await env.impatient.get('pinterest').publish(account, mediaPost('Slow', [mediaUrl(env, 'slow.mp4', { seconds: 900 })]));
  expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
  expect(requestsOf(env, account, 'publish')).toBe(0);
});

it('cannot pin a video still processing: the sandbox refuses its media_id until it succeeded', async () => {
  const account = mediaAccount(env, 'pinterest', BOARD);
  const base = `${env.sandbox.url}/pinterest/v5`;
  const headers = { authorization: `Bearer ${account.credentials.accessToken}`, 'content-type': 'application/json' };
  const registered = (await (await fetch(`${base}/media`, { method: 'POST', headers, body: JSON.stringify({ media_type: 'video' }) })).json()) as {
    media_id: string;
    upload_url: string;
    upload_parameters: Record<string, string>;
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(registered.upload_parameters)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(1024)], { type: 'video/mp4' }), 'clip.mp4');
  expect((await fetch(registered.upload_url, { method: 'POST', body: form })).status).toBe(204);

  const pin = await fetch(`${base}/pins`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ board_id: 'board-42', media_source: { source_type: 'video_id', media_id: registered.media_id, cover_image_key_frame_time: 1 } }),
  });
  expect(pin.status).toBe(400);
  expect(await pin.json()).toEqual({ code: 1, message: expect.stringContaining('its status is processing') });
  expect(postsOf(env, account)).toHaveLength(0);
});

describe.each([
  ['6 images', () => ['1', '2', '3', '4', '5', '6'].map((n) => mediaUrl(env, `img-${n}.jpg`)), [], 'media_not_supported'],
  ['alt text over 500 characters', () => [mediaUrl(env, 'alt.jpg')], ['x'.repeat(501)], 'alt_text_too_long'],
  ['a video with an image', () => [mediaUrl(env, 'mix.mp4'), mediaUrl(env, 'mix.jpg')], [], 'media_not_supported'],
  ['a video under 4 seconds', () => [mediaUrl(env, 'blink.mp4', { seconds: 3 })], [], 'media_not_supported'],
  ['a video over 15 minutes', () => [mediaUrl(env, 'film.mp4', { seconds: 901 })], [], 'media_not_supported'],
  ['a video wider than 1.91:1', () => [mediaUrl(env, 'banner.mp4', { width: 1920, height: 600 })], [], 'media_not_supported'],
  ['a WebM video', () => [mediaUrl(env, 'clip.webm')], [], 'media_type_not_allowed'],
  ['an image over 20 MB', () => [mediaUrl(env, 'poster.png', { bytes: 20 * MIB + 1 })], [], 'media_too_large'],
])('refuses %s before any Pinterest request', (_label, urls, altTexts, code) => {
  it(`fails with ${code}`, () => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'pinterest', BOARD), mediaPost('refused', urls(), altTexts), code));
});

it('refuses a media url on a private address outside the allow-list without connecting to it', () => expectPrivateMediaRefused(env, mediaAccount(env, 'pinterest', BOARD), 'photo.jpg'));
