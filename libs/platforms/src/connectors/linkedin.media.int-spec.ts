import { MEDIA_TYPES, MediaFetcher, mediaRefs } from '@app/media';
import { RunningPlatformSandbox, startPlatformSandbox } from '../../../../apps/platform-sandbox/src/sandbox';
import { provisionConnectorAccount } from '../../../../apps/platform-sandbox/src/sandbox-accounts';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry, PlatformClientOptions } from '../registry';
import { LINKEDIN_API_VERSION } from './linkedin.connector';

/**
 * LinkedIn's native media against the sandbox, as documented on
 * learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/:
 * images-api (initializeUpload, PUT the bytes), videos-api (initializeUpload with
 * fileSizeBytes, PUT each 4 MB part, finalizeUpload with the ETags, GET until AVAILABLE),
 * posts-api content.media {id, altText} and multiimage-post-api content.multiImage (2 to 20).
 */
let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
let sequence = 0;

const options = (extra: Partial<PlatformClientOptions> = {}): PlatformClientOptions => ({
  endpoints: sandboxEndpoints(sandbox.url),
  retry: { baseDelayMs: 10, maxDelayMs: 50, requestTimeoutMs: 10_000 },
  media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  ...extra,
});

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
  connectors = new ConnectorRegistry(options());
});

afterAll(() => sandbox.close());

/** A member, or an organization its administrator posts for (both own what they upload). */
function account(kind: 'person' | 'organization' = 'person'): ConnectorAccount {
  const key = `li-media-${++sequence}`;
  const platformAccountId = kind === 'person' ? `urn:li:person:${key}` : `urn:li:organization:${1000 + sequence}`;
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, { platform: 'linkedin', handle: '@brand', key, kind: kind === 'organization' ? 'organization' : undefined, platformAccountId });
  return { accountId, platform, identity, credentials };
}

function mediaUrl(file: string, params: Record<string, number> = {}): string {
  const query = new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]));
  return `${sandbox.mediaUrl}/media/${file}${query.size ? `?${query}` : ''}`;
}

function post(content: string, urls: string[], altTexts: Array<string | null> = []): PublishRequest {
  return { content, media: mediaRefs(urls, altTexts), idempotencyKey: `post-${++sequence}` };
}

const count = (owner: ConnectorAccount, operation: string) => sandbox.control.requestCount({ platform: 'linkedin', account: owner.accountId, operation });
const posts = (owner: ConnectorAccount) => sandbox.control.published({ platform: 'linkedin', account: owner.accountId, kind: 'post' });

describe('LinkedIn native media', () => {
  it('uploads one image through the Images API and posts it as content.media with its alt text; the text carries no url', async () => {
    const owner = account('organization');
    const outcome = await connectors.get('linkedin').publish(owner, post('Our new office (finally)', [mediaUrl('office.png', { bytes: 80_000 })], ['The open-plan office at dawn']));
    expect(outcome).toMatchObject({ status: 'published', platformPostId: expect.stringMatching(/^urn:li:share:/) });
    const [item] = posts(owner);
    expect(item.text).toBe('Our new office (finally)');
    expect(item.media).toMatchObject([{ id: expect.stringMatching(/^urn:li:image:/), contentType: 'image/png', receivedBytes: 80_000, altText: 'The open-plan office at dawn', attachedTo: item.id }]);
    expect(item.owner).toBe(owner.identity.platformAccountId);
    // initializeUpload and the PUT of the bytes, then the one post.
    expect(count(owner, 'upload')).toBe(2);
    expect(count(owner, 'publish')).toBe(1);
  });

  it('posts twenty images, the most a MultiImage post takes, in order with their alt texts', async () => {
    const owner = account();
    const urls = Array.from({ length: 20 }, (_, index) => mediaUrl(`slide-${index}.${index % 2 ? 'png' : 'jpg'}`));
    const alts = urls.map((_, index) => (index === 3 ? null : `slide ${index}`));
    const outcome = await connectors.get('linkedin').publish(owner, post('The whole deck', urls, alts));
    expect(outcome.status).toBe('published');
    const [item] = posts(owner);
    expect(item.media.map((upload) => upload.altText)).toEqual(alts);
    expect(item.media.map((upload) => upload.contentType)).toEqual(urls.map((_, index) => (index % 2 ? 'image/png' : 'image/jpeg')));
    expect(count(owner, 'upload')).toBe(40);
  });

  it('uploads a video in 4 MB parts, finalizes it with their ETags, waits while it is PROCESSING, then posts it (its alt text dropped: no field)', async () => {
    const owner = account();
    // 9,000,000 bytes: three parts (4,194,304 + 4,194,304 + 611,392); 40 s of video: 600 ms of sandbox processing.
    const url = mediaUrl('launch.mp4', { bytes: 9_000_000, seconds: 40, width: 1920, height: 1080 });
    const outcome = await connectors.get('linkedin').publish(owner, post('Launch day', [url], ['ignored: a LinkedIn video has no alt text']));
    expect(outcome.status).toBe('published');
    const [item] = posts(owner);
    expect(item.media).toMatchObject([{ id: expect.stringMatching(/^urn:li:video:/), contentType: 'video/mp4', declaredBytes: 9_000_000, receivedBytes: 9_000_000, durationSeconds: 40, state: 'ready', altText: null }]);
    // initializeUpload, finalizeUpload (the three part PUTs go to pre-signed urls, without the token)
    expect(count(owner, 'upload')).toBe(2);
    expect(sandbox.control.requestCount({ platform: 'linkedin', account: 'anonymous', operation: 'upload' })).toBeGreaterThanOrEqual(3);
    expect(count(owner, 'upload_status')).toBeGreaterThanOrEqual(2);
    expect(count(owner, 'publish')).toBe(1);
  });

  it('fails with media_processing_failed, and posts nothing, when LinkedIn cannot process the video', async () => {
    const owner = account();
    const outcome = await connectors.get('linkedin').publish(owner, post('Broken clip', [mediaUrl('no-picture.mp4', { bytes: 100_000, width: 0, height: 0 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', message: expect.stringContaining('no readable MP4 video track'), retryable: false } });
    expect(count(owner, 'publish')).toBe(0);
  });

  it('gives up with media_processing_timeout once the bounded wait is over, and posts nothing', async () => {
    let clock = Date.now();
    // Every reading of the retry clock is a minute later: the 10-minute bound passes after a few polls.
    const impatient = new ConnectorRegistry(options({ retry: { baseDelayMs: 1, maxDelayMs: 2, requestTimeoutMs: 10_000, now: () => (clock += 60_000) } }));
    const owner = account();
    const outcome = await impatient.get('linkedin').publish(owner, post('Long film', [mediaUrl('film.mp4', { bytes: 100_000, seconds: 1_200 })]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(count(owner, 'upload_status')).toBeGreaterThanOrEqual(1);
    expect(count(owner, 'publish')).toBe(0);
  });

  it.each([
    ['21 images (a MultiImage post takes 20)', () => post('x', Array.from({ length: 21 }, (_, index) => mediaUrl(`${index}.jpg`))), 'media_not_supported'],
    ['a WebP image (JPG, GIF and PNG only)', () => post('x', [mediaUrl('a.webp')]), 'media_type_not_allowed'],
    ['an image over 5 MB', () => post('x', [mediaUrl('huge.jpg', { bytes: 5 * 1024 * 1024 + 1 })]), 'media_too_large'],
    ['an image of 36,152,320 pixels or more', () => post('x', [mediaUrl('wide.png', { width: 6_100, height: 6_000 })]), 'media_too_large'],
    ['a video shorter than 3 seconds', () => post('x', [mediaUrl('blink.mp4', { bytes: 100_000, seconds: 2 })]), 'media_not_supported'],
    ['a video longer than 30 minutes', () => post('x', [mediaUrl('epic.mp4', { bytes: 100_000, seconds: 1_801 })]), 'media_not_supported'],
    ['a video under 75 KB', () => post('x', [mediaUrl('tiny.mp4', { bytes: 70_000 })]), 'media_not_supported'],
    ['a QuickTime video (MP4 only)', () => post('x', [mediaUrl('clip.mov', { bytes: 100_000 })]), 'media_type_not_allowed'],
    ['a video with an image', () => post('x', [mediaUrl('clip.mp4', { bytes: 100_000 }), mediaUrl('a.jpg')]), 'media_not_supported'],
    ['an alt text over 4,086 characters', () => post('x', [mediaUrl('a.jpg')], ['a'.repeat(4_087)]), 'alt_text_too_long'],
  ])('refuses %s before any LinkedIn call', async (_, request, code) => {
    const owner = account();
    const outcome = await connectors.get('linkedin').publish(owner, request());
    expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
    expect(sandbox.control.requestCount({ platform: 'linkedin', account: owner.accountId })).toBe(0);
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it', async () => {
    const guarded = new ConnectorRegistry(options({ media: {} }));
    const owner = account();
    const before = sandbox.media.connections();
    const outcome = await guarded.get('linkedin').publish(owner, post('x', [mediaUrl('private.jpg')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(sandbox.media.connections()).toBe(before);
    expect(sandbox.media.requests('private.jpg')).toBe(0);
    expect(sandbox.control.requestCount({ platform: 'linkedin', account: owner.accountId })).toBe(0);
  });
});

describe('the sandbox refuses what the LinkedIn documentation refuses', () => {
  async function rest(owner: ConnectorAccount, method: string, path: string, body?: unknown) {
    const response = await fetch(`${sandbox.url}/linkedin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${owner.credentials.accessToken}`,
        'content-type': 'application/json',
        'LinkedIn-Version': LINKEDIN_API_VERSION,
        'X-Restli-Protocol-Version': '2.0.0',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as Record<string, any> };
  }
  /** A media host file's bytes, fetched as the connectors fetch them (the media host's CA is the fetcher's to trust). */
  async function mediaBytes(url: string): Promise<ArrayBuffer> {
    const fetcher = new MediaFetcher({ allowedHosts: [new URL(sandbox.mediaUrl).host] });
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
    const owner = account();
    const mp4 = await mediaBytes(mediaUrl('fresh.mp4', { bytes: 100_000, seconds: 60 }));
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
    expect(posts(owner)).toHaveLength(0);

    const small = await rest(owner, 'POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: author(owner), fileSizeBytes: 75 * 1024 - 1 } });
    const large = await rest(owner, 'POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: author(owner), fileSizeBytes: 500 * 1024 * 1024 + 1 } });
    expect([small.status, large.status]).toEqual([400, 400]);
  });

  it('refuses a multiImage of 21 images, and media the author does not own', async () => {
    const owner = account();
    const init = await rest(owner, 'POST', '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: author(owner) } });
    const { uploadUrl, image } = init.body.value;
    const jpeg = await mediaBytes(mediaUrl('one.jpg'));
    const put = await fetch(uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${owner.credentials.accessToken}`, 'content-type': 'application/octet-stream' }, body: jpeg });
    expect(put.status).toBe(201);
    const many = await rest(owner, 'POST', '/rest/posts', postWith(owner, { multiImage: { images: Array.from({ length: 21 }, () => ({ id: image })) } }));
    expect(many).toMatchObject({ status: 422, body: { message: expect.stringContaining('a MultiImage post takes 2 to 20 images, got 21') } });
    const other = account();
    const notOwned = await rest(other, 'POST', '/rest/posts', postWith(other, { media: { id: image } }));
    expect(notOwned.status).toBe(422);
    expect(posts(owner)).toHaveLength(0);
    expect(posts(other)).toHaveLength(0);
  });
});
