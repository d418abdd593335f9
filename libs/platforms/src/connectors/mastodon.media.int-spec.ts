import { mediaRefs } from '@app/media';
import { startPlatformSandbox, RunningPlatformSandbox } from '../../../../apps/platform-sandbox/src/sandbox';
import { provisionConnectorAccount } from '../../../../apps/platform-sandbox/src/sandbox-accounts';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry } from '../registry';

/**
 * Mastodon native media against the sandbox, which plays the account's instance as
 * documented: "Upload media as an attachment (async)" and "Get media attachment"
 * (https://docs.joinmastodon.org/methods/media/), statuses with media_ids
 * (https://docs.joinmastodon.org/methods/statuses/#create) and the attachment limits of
 * "Posting to your profile" (https://docs.joinmastodon.org/user/posting/#media).
 * The processing waits run on a virtual clock (each pause is recorded and slept 20 ms at most).
 */
let sandbox: RunningPlatformSandbox;
let connectors: ConnectorRegistry;
let clock = Date.now();
const waits: number[] = [];
let sequence = 0;

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
  connectors = new ConnectorRegistry({
    endpoints: sandboxEndpoints(sandbox.url),
    retry: {
      baseDelayMs: 1,
      maxDelayMs: 4,
      requestTimeoutMs: 10_000,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
        await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20)));
      },
    },
    media: { allowedHosts: [new URL(sandbox.mediaUrl).host] },
  });
});

afterAll(() => sandbox.close());
beforeEach(() => {
  waits.length = 0;
});

const mastodon = () => connectors.get('mastodon');
const media = (name: string, query = ''): string => `${sandbox.mediaUrl}/media/${name}${query}`;
const post = (content: string, urls: string[], altTexts: Array<string | null> = []): PublishRequest => ({
  content,
  media: mediaRefs(urls, altTexts),
  idempotencyKey: `mastodon-media-${++sequence}`,
});

/** An account on the sandbox's instance (identity.instanceUrl is where its calls go). */
function account(): ConnectorAccount {
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, { platform: 'mastodon', handle: '@brand', key: `mastodon-media-${++sequence}` });
  return { accountId, platform, identity, credentials };
}

const requests = (who: ConnectorAccount, operation?: string) => sandbox.control.requestCount({ platform: 'mastodon', account: who.accountId, operation });
const postsOf = (who: ConnectorAccount) => sandbox.control.published({ platform: 'mastodon', account: who.accountId, kind: 'post' });

describe('mastodon connector, native media', () => {
  it('uploads an image with its description (alt text) on the account instance, and the status carries it with the text alone', async () => {
    const who = account();
    expect(who.identity.instanceUrl).toBe(`${sandbox.url}/mastodon`);
    const outcome = await mastodon().publish(who, post('Fresh bread today', [media('bread.jpg', '?width=1200&height=1200')], ['A loaf of sourdough on a board']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.text).toBe('Fresh bread today');
    expect(item.text).not.toContain(sandbox.mediaUrl);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'image/jpeg', width: 1200, height: 1200, altText: 'A loaf of sourdough on a board', attachedTo: item.id })]);
    // An image is processed at once (200): one upload, no status read, no wait.
    expect(requests(who, 'upload')).toBe(1);
    expect(requests(who, 'upload_status')).toBe(0);
  });

  it('attaches four images (the most a status takes) in the order given', async () => {
    const who = account();
    const names = ['a.png', 'b.jpg', 'c.webp', 'd.png'];
    const outcome = await mastodon().publish(who, post('', names.map((name) => media(name)), [null, 'second', null, 'fourth']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.media.map((upload) => [upload.extra.fileName, upload.altText])).toEqual([
      ['a.png', null],
      ['b.jpg', 'second'],
      ['c.webp', null],
      ['d.png', 'fourth'],
    ]);
  });

  it('waits while the instance processes a video (202, then 206 until processed) before posting the status', async () => {
    const who = account();
    const outcome = await mastodon().publish(who, post('Behind the scenes', [media('scenes.mp4', '?bytes=3000000&seconds=20')], ['The team at work']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', receivedBytes: 3_000_000, durationSeconds: 20, altText: 'The team at work', state: 'ready' })]);
    expect(requests(who, 'upload_status')).toBeGreaterThanOrEqual(2);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('lets an animated GIF share a status with images (it becomes a gifv, not a video)', async () => {
    const who = account();
    const outcome = await mastodon().publish(who, post('Mixed', [media('dance.gif'), media('still.png')]));
    expect(outcome.status).toBe('published');
    expect(postsOf(who)[0].media.map((upload) => upload.contentType)).toEqual(['image/gif', 'image/png']);
  });

  it('fails with media_processing_failed, without posting, when the instance cannot process the video', async () => {
    const who = account();
    const outcome = await mastodon().publish(who, post('Broken', [media('fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requests(who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout, without posting, when processing outlasts the bounded wait', async () => {
    const who = account();
    const outcome = await mastodon().publish(who, post('Long', [media('long.mp4', '?seconds=600')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requests(who, 'publish')).toBe(0);
  });

  describe('refuses what Mastodon does not take before any call to the instance', () => {
    it.each([
      ['five images', () => ['1', '2', '3', '4', '5'].map((n) => media(`${n}.png`)), [], 'media_not_supported'],
      ['a video with an image', () => [media('clip.mp4'), media('photo.jpg')], [], 'media_not_supported'],
      ['an image over 16 MB', () => [media('huge.jpg', '?bytes=17000000')], [], 'media_too_large'],
      ['a text file', () => [media('notes.txt')], [], 'media_type_not_allowed'],
      ['a description over 1,500 characters', () => [media('photo.jpg')], ['a'.repeat(1_501)], 'alt_text_too_long'],
    ])('%s', async (_label, urls, altTexts, code) => {
      const who = account();
      const outcome = await mastodon().publish(who, post('Refused', urls(), altTexts as string[]));
      expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
      expect(requests(who)).toBe(0);
      expect(postsOf(who)).toHaveLength(0);
    });
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', async () => {
    const who = account();
    const connections = sandbox.media.connections();
    const outcome = await mastodon().publish(who, post('Private', [`https://localhost:${sandbox.media.port}/media/private.jpg`]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(sandbox.media.requests('private.jpg')).toBe(0);
    expect(sandbox.media.connections()).toBe(connections);
    expect(requests(who)).toBe(0);
  });

  it('resends a status whose answer was lost with the same Idempotency-Key: one status, carrying the media', async () => {
    const who = account();
    sandbox.control.addFault({ platform: 'mastodon', account: who.accountId, operation: 'publish', fault: { type: 'drop' }, times: 1 });
    const outcome = await mastodon().publish(who, post('Once', [media('once.png')]));
    const stored = postsOf(who);
    expect(stored).toHaveLength(1);
    expect(outcome).toMatchObject({ status: 'published', platformPostId: stored[0].id });
    expect(stored[0].media).toHaveLength(1);
    expect(requests(who, 'publish')).toBe(2);
  });
});

describe('the sandbox plays Mastodon media as documented', () => {
  const call = async (who: ConnectorAccount, method: 'GET' | 'POST', path: string, body?: FormData | object) => {
    const headers: Record<string, string> = { authorization: `Bearer ${who.credentials.accessToken}` };
    if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    const response = await fetch(`${sandbox.url}/mastodon${path}`, { method, headers, body: body instanceof FormData ? body : body && JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  // An mp4's ftyp box, then padding: what the instance's transcoding starts from.
  const video = () => new Blob([Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(2_000)])]);

  it('answers 202 with a null url, 206 while processing, and refuses a status naming it until processed', async () => {
    const who = account();
    const form = new FormData();
    form.append('file', video(), 'fresh.mp4');
    const uploaded = await call(who, 'POST', '/api/v2/media', form);
    expect(uploaded).toMatchObject({ status: 202, body: { type: 'video', url: null } });
    expect(await call(who, 'GET', `/api/v1/media/${uploaded.body.id}`)).toEqual({ status: 206, body: null });
    const refused = await call(who, 'POST', '/api/v1/statuses', { status: 'too soon', media_ids: [uploaded.body.id] });
    expect(refused).toEqual({ status: 422, body: { error: 'Cannot attach files that have not finished processing. Try again in a moment!' } });
    expect(postsOf(who)).toHaveLength(0);
  });

  it('refuses a file that is not media with 422 "File content type is invalid"', async () => {
    const who = account();
    const form = new FormData();
    form.append('file', new Blob(['just text']), 'notes.txt');
    expect(await call(who, 'POST', '/api/v2/media', form)).toEqual({ status: 422, body: { error: 'Validation failed: File content type is invalid, File is invalid' } });
  });
});
