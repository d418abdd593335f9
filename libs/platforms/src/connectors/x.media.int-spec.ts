import { mediaRefs } from '@app/media';
import { startPlatformSandbox, RunningPlatformSandbox } from '../../../../apps/platform-sandbox/src/sandbox';
import { provisionConnectorAccount } from '../../../../apps/platform-sandbox/src/sandbox-accounts';
import type { ConnectorAccount, PublishRequest } from '../connector';
import { sandboxEndpoints } from '../endpoints';
import { ConnectorRegistry } from '../registry';

/**
 * X native media against the sandbox, which plays X's media upload v2 as documented:
 * "Upload media" (https://docs.x.com/x-api/media/upload-media) for images, the chunked
 * initialize / append / finalize flow with STATUS polling for GIFs and videos
 * (https://docs.x.com/x-api/media/quickstart/media-upload-chunked), alt text through
 * "Create Media metadata" (https://docs.x.com/x-api/media/create-media-metadata), and the
 * limits of "Best practices" (https://docs.x.com/x-api/media/quickstart/best-practices).
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

const x = () => connectors.get('x');
const media = (name: string, query = ''): string => `${sandbox.mediaUrl}/media/${name}${query}`;
const post = (content: string, urls: string[], altTexts: Array<string | null> = []): PublishRequest => ({ content, media: mediaRefs(urls, altTexts), idempotencyKey: `x-media-${++sequence}` });

function account(): ConnectorAccount {
  const { accountId, platform, identity, credentials } = provisionConnectorAccount(sandbox, { platform: 'x', handle: '@brand', key: `x-media-${++sequence}` });
  return { accountId, platform, identity, credentials };
}

const requests = (who: ConnectorAccount, operation?: string) => sandbox.control.requestCount({ platform: 'x', account: who.accountId, operation });
const postsOf = (who: ConnectorAccount) => sandbox.control.published({ platform: 'x', account: who.accountId, kind: 'post' });

describe('x connector, native media', () => {
  it('uploads one image in one request with its alt text, and the Post carries it with the text alone', async () => {
    const who = account();
    const url = media('sunrise.png', '?width=1600&height=900');
    const outcome = await x().publish(who, post('Sunrise over the bay', [url], ['A red sun rising over calm water']));
    expect(outcome).toMatchObject({ status: 'published' });
    const [item] = postsOf(who);
    expect(item.text).toBe('Sunrise over the bay');
    expect(item.text).not.toContain(sandbox.mediaUrl);
    expect(item.media).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 1600, height: 900, altText: 'A red sun rising over calm water', state: 'ready', attachedTo: item.id }),
    ]);
    // One upload, one metadata call, no chunked session.
    expect(requests(who, 'upload')).toBe(2);
    expect(requests(who, 'upload_status')).toBe(0);
  });

  it('attaches four images (the most a Post takes) in the order given, each with its own alt text', async () => {
    const who = account();
    const names = ['one.jpg', 'two.png', 'three.webp', 'four.jpg'];
    const outcome = await x().publish(who, post('', names.map((name) => media(name)), ['first', null, 'third', 'fourth']));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.text).toBe('');
    expect(item.media.map((upload) => [upload.extra.fileName, upload.altText])).toEqual([
      ['one.jpg', 'first'],
      ['two.png', null],
      ['three.webp', 'third'],
      ['four.jpg', 'fourth'],
    ]);
  });

  it('uploads a video in segments, waits while X processes it, then publishes it', async () => {
    const who = account();
    const bytes = 9_000_000; // three segments of at most 4 MiB
    const outcome = await x().publish(who, post('Launch clip', [media('launch.mp4', `?bytes=${bytes}&seconds=12&width=1280&height=720`)]));
    expect(outcome.status).toBe('published');
    const [item] = postsOf(who);
    expect(item.media).toEqual([expect.objectContaining({ contentType: 'video/mp4', declaredBytes: bytes, receivedBytes: bytes, durationSeconds: 12, state: 'ready' })]);
    expect(JSON.parse(item.media[0].extra.segments)).toEqual({ 0: 4 * 1024 * 1024, 1: 4 * 1024 * 1024, 2: bytes - 8 * 1024 * 1024 });
    // The processing was waited for (STATUS read until succeeded), with pauses on the policy's clock.
    expect(requests(who, 'upload_status')).toBeGreaterThanOrEqual(1);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('uploads an animated GIF through the chunked flow as tweet_gif', async () => {
    const who = account();
    const outcome = await x().publish(who, post('Looping', [media('loop.gif')], ['A cat chasing its tail']));
    expect(outcome.status).toBe('published');
    expect(postsOf(who)[0].media).toEqual([expect.objectContaining({ contentType: 'image/gif', altText: 'A cat chasing its tail', extra: expect.objectContaining({ category: 'tweet_gif' }) })]);
  });

  it('fails with media_processing_failed, without publishing, when X cannot process the video', async () => {
    const who = account();
    const outcome = await x().publish(who, post('Broken clip', [media('fail-processing.mp4')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_failed', retryable: false } });
    expect(requests(who, 'publish')).toBe(0);
  });

  it('gives up with a retryable media_processing_timeout, without publishing, when processing outlasts the bounded wait', async () => {
    const who = account();
    // The sandbox processes 15 ms per second of video: 10 minutes take 9 s, past the connector's 5 virtual minutes.
    const outcome = await x().publish(who, post('Long clip', [media('long.mp4', '?seconds=600')]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_processing_timeout', retryable: true } });
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(5 * 60_000);
    expect(requests(who, 'publish')).toBe(0);
  });

  describe('refuses what X does not take before any call to X', () => {
    const longAlt = 'a'.repeat(1_001);
    it.each([
      ['five images', () => ['1', '2', '3', '4', '5'].map((n) => media(`${n}.jpg`)), [], 'media_not_supported'],
      ['a video with an image', () => [media('clip.mp4'), media('photo.jpg')], [], 'media_not_supported'],
      ['two GIFs', () => [media('a.gif'), media('b.gif')], [], 'media_not_supported'],
      ['an image over 5 MB', () => [media('huge.png', '?bytes=6000000')], [], 'media_too_large'],
      ['a GIF over 15 MB', () => [media('huge.gif', '?bytes=16000000')], [], 'media_too_large'],
      ['a video over 20 minutes', () => [media('film.mp4', '?seconds=1300')], [], 'media_not_supported'],
      ['a video shorter than half a second', () => [media('blink.mp4', '?seconds=0')], [], 'media_not_supported'],
      ['a video wider than 3:1', () => [media('banner.mp4', '?width=4000&height=1000')], [], 'media_not_supported'],
      ['a WebM video', () => [media('clip.webm')], [], 'media_type_not_allowed'],
      ['a text file', () => [media('notes.txt')], [], 'media_type_not_allowed'],
      ['an alt text over 1,000 characters', () => [media('photo.jpg')], [longAlt], 'alt_text_too_long'],
    ])('%s', async (_label, urls, altTexts, code) => {
      const who = account();
      const outcome = await x().publish(who, post('Refused', urls(), altTexts as string[]));
      expect(outcome).toMatchObject({ status: 'failed', error: { code, retryable: false } });
      expect(requests(who)).toBe(0);
      expect(postsOf(who)).toHaveLength(0);
    });
  });

  it('refuses a media url on a private address not in the allow-list without connecting to it (media_address_refused)', async () => {
    const who = account();
    const connections = sandbox.media.connections();
    // localhost resolves to a loopback address; only 127.0.0.1:<port> is allowed.
    const outcome = await x().publish(who, post('Private', [`https://localhost:${sandbox.media.port}/media/private.png`]));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'media_address_refused' } });
    expect(sandbox.media.requests('private.png')).toBe(0);
    expect(sandbox.media.connections()).toBe(connections);
    expect(requests(who)).toBe(0);
  });
});

describe('the sandbox plays X media as documented', () => {
  const call = async (who: ConnectorAccount, path: string, init: { json?: unknown; form?: FormData }) => {
    const headers: Record<string, string> = { authorization: `Bearer ${who.credentials.accessToken}` };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${sandbox.url}/x${path}`, { method: 'POST', headers, body: init.form ?? JSON.stringify(init.json) });
    return { status: response.status, body: (await response.json()) as { data: { id: string; processing_info?: unknown } } };
  };

  it('refuses a Post naming a video X is still processing: "Your media IDs are invalid."', async () => {
    const who = account();
    // An mp4's ftyp box, then padding: what X's processing starts from.
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(2_000)]);
    const init = await call(who, '/2/media/upload/initialize', { json: { media_type: 'video/mp4', total_bytes: bytes.length, media_category: 'tweet_video' } });
    const id = init.body.data.id;
    const segment = new FormData();
    segment.append('media', new Blob([bytes]), 'fresh.mp4');
    segment.append('segment_index', '0');
    expect((await call(who, `/2/media/upload/${id}/append`, { form: segment })).status).toBe(200);
    const finalized = await call(who, `/2/media/upload/${id}/finalize`, {});
    expect(finalized.body.data.processing_info).toMatchObject({ state: 'in_progress', check_after_secs: 1 });
    const refused = await call(who, '/2/tweets', { json: { text: 'too soon', media: { media_ids: [id] } } });
    expect(refused).toEqual({
      status: 400,
      body: expect.objectContaining({ errors: [{ parameters: { 'media.media_ids': [id] }, message: 'Your media IDs are invalid.' }], type: 'https://api.twitter.com/2/problems/invalid-request' }),
    });
    expect(postsOf(who)).toHaveLength(0);
  });

  it('refuses segments that do not add up to total_bytes at finalize', async () => {
    const who = account();
    const init = await call(who, '/2/media/upload/initialize', { json: { media_type: 'video/mp4', total_bytes: 10_000, media_category: 'tweet_video' } });
    const finalized = await call(who, `/2/media/upload/${init.body.data.id}/finalize`, {});
    expect(finalized).toEqual({ status: 400, body: expect.objectContaining({ detail: 'Segments do not add up to provided total file size.' }) });
  });
});
