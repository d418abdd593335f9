import type { ConnectorAccount } from '../connector';
import { expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * Bluesky's native media against the sandbox PDS, as documented:
 * - com.atproto.repo.uploadBlob (https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob,
 *   https://atproto.com/guides/images-and-video);
 * - app.bsky.embed.images (up to 4, alt, aspectRatio) and app.bsky.embed.video (one mp4, alt
 *   up to 1,000 graphemes), lexicons/app/bsky/embed/images.json and video.json in bluesky-social/atproto;
 * - video through uploadBlob, the "simple method" of https://docs.bsky.app/docs/tutorials/video.
 */
const env = mediaSandbox();
const bluesky = () => env.connectors.get('bluesky');

function onlyPost(owner: ConnectorAccount) {
  const posts = postsOf(env, owner);
  expect(posts).toHaveLength(1);
  return { ...posts[0], record: JSON.parse(posts[0].extra.record) as { text: string; embed: Record<string, unknown> } };
}


describe('Bluesky native media', () => {
  it('uploads an image as a blob and embeds it with its alt text and aspect ratio; the text carries no url', async () => {
    const owner = mediaAccount(env, 'bluesky');
    const url = mediaUrl(env, 'kite.jpg', { width: 1200, height: 800, bytes: 50_000 });
    const outcome = await bluesky().publish(owner, mediaPost('A kite over the bay', [url], ['A red kite against a blue sky']));
    expect(outcome).toMatchObject({ status: 'published' });
    const item = onlyPost(owner);
    expect(item.text).toBe('A kite over the bay');
    expect(item.record.text).not.toContain(env.sandbox.mediaUrl);
    expect(item.media).toMatchObject([{ contentType: 'image/jpeg', receivedBytes: 50_000, altText: 'A red kite against a blue sky', attachedTo: item.id }]);
    expect(item.record.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: [{ image: { $type: 'blob', ref: { $link: item.media[0].id }, mimeType: 'image/jpeg', size: 50_000 }, alt: 'A red kite against a blue sky', aspectRatio: { width: 1200, height: 800 } }],
    });
    expect(requestsOf(env, owner, 'upload')).toBe(1);
  });

  it('embeds four images, the most an images embed takes, in order (an image without alt text gets an empty alt)', async () => {
    const owner = mediaAccount(env, 'bluesky');
    const urls = ['a.jpg', 'b.png', 'c.webp', 'd.jpg'].map((file) => mediaUrl(env, file));
    const outcome = await bluesky().publish(owner, mediaPost('', urls, ['first', null, 'third', 'fourth']));
    expect(outcome.status).toBe('published');
    const item = onlyPost(owner);
    expect(item.media.map((upload) => [upload.contentType, upload.altText])).toEqual([
      ['image/jpeg', 'first'],
      ['image/png', null],
      ['image/webp', 'third'],
      ['image/jpeg', 'fourth'],
    ]);
    expect((item.record.embed.images as Array<{ alt: string }>).map((image) => image.alt)).toEqual(['first', '', 'third', 'fourth']);
    expect(requestsOf(env, owner, 'upload')).toBe(4);
  });

  it('publishes an mp4 through uploadBlob and app.bsky.embed.video, with its alt text and aspect ratio', async () => {
    const owner = mediaAccount(env, 'bluesky');
    const url = mediaUrl(env, 'launch.mp4', { seconds: 45, width: 1920, height: 1080, bytes: 300_000 });
    const outcome = await bluesky().publish(owner, mediaPost('Launch video', [url], ['The rocket lifting off']));
    expect(outcome.status).toBe('published');
    const item = onlyPost(owner);
    expect(item.media).toMatchObject([{ contentType: 'video/mp4', receivedBytes: 300_000, altText: 'The rocket lifting off' }]);
    expect(item.record.embed).toMatchObject({ $type: 'app.bsky.embed.video', video: { mimeType: 'video/mp4', size: 300_000 }, alt: 'The rocket lifting off', aspectRatio: { width: 1920, height: 1080 } });
  });

  it.each([
    ['five images (an images embed takes 4)', () => mediaPost('x', ['1', '2', '3', '4', '5'].map((n) => mediaUrl(env, `${n}.jpg`))), 'media_not_supported'],
    ['an image over 2,000,000 bytes (the image blob maxSize)', () => mediaPost('x', [mediaUrl(env, 'big.jpg', { bytes: 2_000_001 })]), 'media_too_large'],
    ['a GIF (an images embed shows only its first frame)', () => mediaPost('x', [mediaUrl(env, 'loop.gif')]), 'media_type_not_allowed'],
    ['a WebM video (the video blob accepts video/mp4)', () => mediaPost('x', [mediaUrl(env, 'clip.webm')]), 'media_type_not_allowed'],
    ['a video over 3 minutes', () => mediaPost('x', [mediaUrl(env, 'long.mp4', { seconds: 181 })]), 'media_not_supported'],
    ['a video with an image (one embed per post)', () => mediaPost('x', [mediaUrl(env, 'clip.mp4'), mediaUrl(env, 'a.jpg')]), 'media_not_supported'],
    ['an alt text over 2,000 characters', () => mediaPost('x', [mediaUrl(env, 'a.jpg')], ['a'.repeat(2_001)]), 'alt_text_too_long'],
    ['a video alt text over 1,000 graphemes (the video embed alt maxGraphemes)', () => mediaPost('x', [mediaUrl(env, 'clip.mp4')], ['é'.repeat(1_001)]), 'alt_text_too_long'],
    ['a url that is not media', () => mediaPost('x', [mediaUrl(env, 'notes.txt')]), 'media_type_not_allowed'],
  ])('refuses %s before any Bluesky call', (_, request, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'bluesky'), request(), code));

  it('refuses a media url on a private address not in the allow-list without connecting to it', () => expectPrivateMediaRefused(env, mediaAccount(env, 'bluesky')));
});

describe('the sandbox PDS refuses what the lexicons and the PDS refuse', () => {
  const xrpc = (owner: ConnectorAccount, method: string, body: unknown, contentType = 'application/json') =>
    platformCall(env, owner, 'POST', `/xrpc/${method}`, contentType === 'application/json' ? { json: body } : { raw: body as Uint8Array, contentType });

  const jpeg = (size: number) => Uint8Array.from({ length: size }, (_, index) => [0xff, 0xd8, 0xff, 0xe0][index] ?? 0);
  const record = (owner: ConnectorAccount, embed: unknown) => ({
    repo: owner.identity.platformAccountId,
    collection: 'app.bsky.feed.post',
    record: { $type: 'app.bsky.feed.post', text: 'x', createdAt: new Date().toISOString(), embed },
  });

  it('answers uploadBlob with a blob ref, and refuses an embed of 5 images, an oversized image blob, a blob of the wrong type, another repo’s blob', async () => {
    const owner = mediaAccount(env, 'bluesky');
    const small = await xrpc(owner, 'com.atproto.repo.uploadBlob', jpeg(1_000), 'image/jpeg');
    expect(small).toEqual({ status: 200, body: { blob: { $type: 'blob', ref: { $link: expect.stringMatching(/^bafkrei/) }, mimeType: 'image/jpeg', size: 1_000 } } });
    const blob = small.body.blob;
    const five = await xrpc(owner, 'com.atproto.repo.createRecord', record(owner, { $type: 'app.bsky.embed.images', images: Array.from({ length: 5 }, () => ({ image: blob, alt: '' })) }));
    expect(five).toEqual({ status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/embed/images must not have more than 4 elements' } });

    const large = await xrpc(owner, 'com.atproto.repo.uploadBlob', jpeg(2_000_001), 'image/jpeg');
    const tooLarge = await xrpc(owner, 'com.atproto.repo.createRecord', record(owner, { $type: 'app.bsky.embed.images', images: [{ image: large.body.blob, alt: '' }] }));
    expect(tooLarge).toMatchObject({ status: 400, body: { error: 'BlobTooLarge' } });

    const asVideo = await xrpc(owner, 'com.atproto.repo.createRecord', record(owner, { $type: 'app.bsky.embed.video', video: blob }));
    expect(asVideo).toMatchObject({ status: 400, body: { error: 'InvalidMimeType', message: 'Wrong type of file. It is image/jpeg but it must match video/mp4.' } });

    const stranger = mediaAccount(env, 'bluesky');
    const notTheirs = await xrpc(stranger, 'com.atproto.repo.createRecord', record(stranger, { $type: 'app.bsky.embed.images', images: [{ image: blob, alt: '' }] }));
    expect(notTheirs).toMatchObject({ status: 400, body: { error: 'BlobNotFound' } });
    // Blobs are content-addressed: once the other repo uploads the same bytes, the cid is its own too.
    expect((await xrpc(stranger, 'com.atproto.repo.uploadBlob', jpeg(1_000), 'image/jpeg')).body).toEqual(small.body);
    expect((await xrpc(stranger, 'com.atproto.repo.createRecord', record(stranger, { $type: 'app.bsky.embed.images', images: [{ image: blob, alt: '' }] }))).status).toBe(200);
    expect(postsOf(env, owner)).toHaveLength(0);
  });
});
