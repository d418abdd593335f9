import { MEDIA_TYPES, MediaFetcher } from '@app/media';
import type { ConnectorAccount } from '../connector';
import { LINKEDIN_API_VERSION } from './linkedin.connector';
import { anonymousRequests, expectPrivateMediaRefused, expectRefusedBeforeAnyCall, mediaAccount, mediaPost, mediaSandbox, mediaUrl, platformCall, postsOf, requestsOf } from './media.test-support';

/**
 * LinkedIn's native media against the sandbox, as documented on
 * learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/:
 * images-api (initializeUpload, PUT the bytes), videos-api (initializeUpload with
 * fileSizeBytes, PUT each 4 MB part, finalizeUpload with the ETags, GET until AVAILABLE),
 * posts-api content.media {id, altText} and multiimage-post-api content.multiImage (2 to 20).
 */
const env = mediaSandbox();
const linkedin = () => env.connectors.get('linkedin');
let organizations = 1000;

/** An organization its administrator posts for (it owns what it uploads, as a member does). */
function organization(): ConnectorAccount {
  return mediaAccount(env, 'linkedin', { kind: 'organization', platformAccountId: `urn:li:organization:${++organizations}` });
}

describe('LinkedIn native media', () => {
  it('uploads one image through the Images API and posts it as content.media with its alt text; the text carries no url', async () => {
    const owner = organization();
    const outcome = await linkedin().publish(owner, mediaPost('Our new office (finally)', [mediaUrl(env, 'office.png', { bytes: 80_000 })], ['The open-plan office at dawn']));
    expect(outcome).toMatchObject({ status: 'published', platformPostId: expect.stringMatching(/^urn:li:share:/) });
    const [item] = postsOf(env, owner);
    expect(item.text).toBe('Our new office (finally)');
    expect(item.media).toMatchObject([{ id: expect.stringMatching(/^urn:li:image:/), contentType: 'image/png', receivedBytes: 80_000, altText: 'The open-plan office at dawn', attachedTo: item.id }]);
    expect(item.owner).toBe(owner.identity.platformAccountId);
    // initializeUpload and the PUT of the bytes, then the one post.
    expect(requestsOf(env, owner, 'upload')).toBe(2);
    expect(requestsOf(env, owner, 'publish')).toBe(1);
  });

  it('posts twenty images, the most a MultiImage post takes, in order with their alt texts', async () => {
    const owner = mediaAccount(env, 'linkedin');
    const urls = Array.from({ length: 20 }, (_, index) => mediaUrl(env, `slide-${index}.${index % 2 ? 'png' : 'jpg'}`));
    const alts = urls.map((_, index) => (index === 3 ? null : `slide ${index}`));
    const outcome = await linkedin().publish(owner, mediaPost('The whole deck', urls, alts));
    // Failing, it prints the whole outcome: why it was not published.
    expect(outcome).toEqual(expect.objectContaining({ status: 'published' }));
    const [item] = postsOf(env, owner);
    expect(item.media.map((upload) => upload.altText)).toEqual(alts);
    expect(item.media.map((upload) => upload.contentType)).toEqual(urls.map((_, index) => (index % 2 ? 'image/png' : 'image/jpeg')));
    expect(requestsOf(env, owner, 'upload')).toBe(40);
  });

  it('uploads a video in 4 MB parts, finalizes it with their ETags, waits while it is PROCESSING, then posts it (its alt text dropped: no field)', async () => {
    const owner = mediaAccount(env, 'linkedin');
    // 9,000,000 bytes: three parts (4,194,304 + 4,194,304 + 611,392); 40 s of video: 600 ms of sandbox processing.
    const url = mediaUrl(env, 'launch.mp4', { bytes: 9_000_000, seconds: 40, width: 1920, height: 1080 });
    const outcome = await linkedin().publish(owner, mediaPost('Launch day', [url], ['ignored: a LinkedIn video has no alt text']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(env, owner);
    expect(item.media).toMatchObject([{ id: expect.stringMatching(/^urn:li:video:/), contentType: 'video/mp4', declaredBytes: 9_000_000, receivedBytes: 9_000_000, durationSeconds: 40, state: 'ready', altText: null }]);
    // initializeUpload, finalizeUpload (the three part PUTs go to pre-signed urls, without the token)
    expect(requestsOf(env, owner, 'upload')).toBe(2);
    expect(anonymousRequests(env, 'linkedin', 'upload')).toBeGreaterThanOrEqual(3);
    expect(requestsOf(env, owner, 'upload_status')).toBeGreaterThanOrEqual(2);
    expect(requestsOf(env, owner, 'publish')).toBe(1);
  });

  it('fails with media_processing_failed, and posts nothing, when LinkedIn cannot process the video', async () => {
    const owner = mediaAccount(env, 'linkedin');
    const outcome = await linkedin().publish(owner, mediaPost('Broken clip', [mediaUrl(env, 'no-picture.mp4', { bytes: 100_000, width: 0, height: 0 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', message: expect.stringContaining('no readable MP4 video track'), retryable: false } });
    expect(requestsOf(env, owner, 'publish')).toBe(0);
  });

  it('gives up with media_processing_timeout once the bounded wait is over, and posts nothing', async () => {
    const owner = mediaAccount(env, 'linkedin');
    // 20 minutes of video take the sandbox 18 s; the impatient clock passes the 10-minute bound after a few polls.
    const outcome = await env.impatient.get('linkedin').publish(owner, mediaPost('Long film', [mediaUrl(env, 'film.mp4', { bytes: 100_000, seconds: 1_200 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(env.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(10 * 60_000);
    expect(requestsOf(env, owner, 'upload_status')).toBeGreaterThanOrEqual(1);
    expect(requestsOf(env, owner, 'publish')).toBe(0);
  });

  it.each([
    ['21 images (a MultiImage post takes 20)', () => mediaPost('x', Array.from({ length: 21 }, (_, index) => mediaUrl(env, `${index}.jpg`))), 'media_not_supported'],
    ['a WebP image (JPG, GIF and PNG only)', () => mediaPost('x', [mediaUrl(env, 'a.webp')]), 'media_type_not_allowed'],
    ['an image over 5 MB', () => mediaPost('x', [mediaUrl(env, 'huge.jpg', { bytes: 5 * 1024 * 1024 + 1 })]), 'media_too_large'],
    ['an image of 36,152,320 pixels or more', () => mediaPost('x', [mediaUrl(env, 'wide.png', { width: 6_100, height: 6_000 })]), 'media_too_large'],
    ['a video shorter than 3 seconds', () => mediaPost('x', [mediaUrl(env, 'blink.mp4', { bytes: 100_000, seconds: 2 })]), 'media_not_supported'],
    ['a video longer than 30 minutes', () => mediaPost('x', [mediaUrl(env, 'epic.mp4', { bytes: 100_000, seconds: 1_801 })]), 'media_not_supported'],
    ['a video under 75 KB', () => mediaPost('x', [mediaUrl(env, 'tiny.mp4', { bytes: 70_000 })]), 'media_not_supported'],
    ['a QuickTime video (MP4 only)', () => mediaPost('x', [mediaUrl(env, 'clip.mov', { bytes: 100_000 })]), 'media_type_not_allowed'],
    ['a video with an image', () => mediaPost('x', [mediaUrl(env, 'clip.mp4', { bytes: 100_000 }), mediaUrl(env, 'a.jpg')]), 'media_not_supported'],
    ['an alt text over 4,086 characters', () => mediaPost('x', [mediaUrl(env, 'a.jpg')], ['a'.repeat(4_087)]), 'alt_text_too_long'],
  ])('refuses %s before any LinkedIn call', (_, request, code) => expectRefusedBeforeAnyCall(env, mediaAccount(env, 'linkedin'), request(), code));

  it('refuses a media url on a private address not in the allow-list without connecting to it', () => expectPrivateMediaRefused(env, mediaAccount(env, 'linkedin')));
});

describe('the sandbox refuses what the LinkedIn documentation refuses', () => {
  const rest = (owner: ConnectorAccount, method: 'GET' | 'POST', path: string, body?: unknown) =>
    platformCall(env, owner, method, path, body === undefined ? undefined : { json: body }, { 'LinkedIn-Version': LINKEDIN_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' });
  /** A media host file's bytes, fetched as the connectors fetch them (the media host's CA is the fetcher's to trust). */
  async function mediaBytes(url: string): Promise<ArrayBuffer> {
    const fetcher = new MediaFetcher({ allowedHosts: [new URL(env.sandbox.mediaUrl).host] });
    return fetcher.withMedia([url], { types: MEDIA_TYPES, maxBytes: 1_000_000 }, async ([file]) => (await file.blob()).arrayBuffer());
  }
  const author = (owner: ConnectorAccount) => owner.identity.platformAccountId;
  const postWith = (owner: ConnectorAccount, content: unknown) => ({
    author: author(owner),
    commentary: 'x',
    visibility: 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    content,
    lifecycleState: 'PUBLISHED',
  });

  it('refuses to post a video still PROCESSING, and a video outside 75 KB to 500 MB at initializeUpload', async () => {
    const owner = mediaAccount(env, 'linkedin');
    const mp4 = await mediaBytes(mediaUrl(env, 'fresh.mp4', { bytes: 100_000, seconds: 60 }));
    const init = await rest(owner, 'POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: author(owner), fileSizeBytes: mp4.byteLength } });
    const { video, uploadToken, uploadInstructions } = init.body.value;
    expect(uploadInstructions).toEqual([{ uploadUrl: expect.any(String), firstByte: 0, lastByte: 99_999 }]);
    const part = await fetch(uploadInstructions[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: mp4 });
    const etag = part.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await rest(owner, 'POST', '/rest/videos?action=finalizeUpload', { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: [etag] } })).status).toBe(200);
    expect((await rest(owner, 'GET', `/rest/videos/${encodeURIComponent(video)}`)).body).toMatchObject({ id: video, status: 'PROCESSING' });
    const early = await rest(owner, 'POST', '/rest/posts', postWith(owner, { media: { id: video } }));
    expect(early).toMatchObject({ status: 422, body: { message: `ERROR :: /content/media/id :: ${video} is not AVAILABLE (status PROCESSING)` } });
    expect(postsOf(env, owner)).toHaveLength(0);

    const small = await rest(owner, 'POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: author(owner), fileSizeBytes: 75 * 1024 - 1 } });
    const large = await rest(owner, 'POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: author(owner), fileSizeBytes: 500 * 1024 * 1024 + 1 } });
    expect([small.status, large.status]).toEqual([400, 400]);
  });

  it('refuses a multiImage of 21 images, and media the author does not own', async () => {
    const owner = mediaAccount(env, 'linkedin');
    const init = await rest(owner, 'POST', '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: author(owner) } });
    const { uploadUrl, image } = init.body.value;
    const jpeg = await mediaBytes(mediaUrl(env, 'one.jpg'));
    const put = await fetch(uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${owner.credentials.accessToken}`, 'content-type': 'application/octet-stream' }, body: jpeg });
    expect(put.status).toBe(201);
    const many = await rest(owner, 'POST', '/rest/posts', postWith(owner, { multiImage: { images: Array.from({ length: 21 }, () => ({ id: image })) } }));
    expect(many).toMatchObject({ status: 422, body: { message: expect.stringContaining('a MultiImage post takes 2 to 20 images, got 21') } });
    const other = mediaAccount(env, 'linkedin');
    const notOwned = await rest(other, 'POST', '/rest/posts', postWith(other, { media: { id: image } }));
    expect(notOwned.status).toBe(422);
    expect(postsOf(env, owner)).toHaveLength(0);
    expect(postsOf(env, other)).toHaveLength(0);
  });
});
