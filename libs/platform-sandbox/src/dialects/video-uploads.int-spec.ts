import type { Platform } from '@app/contracts';
import { RunningPlatformSandbox, startPlatformSandbox } from '../sandbox';

/**
 * The sandbox's TikTok, YouTube and Pinterest upload endpoints refuse what their documentation
 * says the platforms refuse, called directly (not through our connectors):
 * - TikTok "Media Transfer Guide" (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide);
 * - YouTube "Resumable Uploads" (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol);
 * - Pinterest "Create Pin" (https://developers.pinterest.com/docs/api/v5/pins-create) and the media upload of
 *   "Creating Pins" (https://developers.pinterest.com/docs/content/update/).
 */

let sandbox: RunningPlatformSandbox;
let sequence = 0;

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
});
afterAll(() => sandbox.close());

const MB = 1024 * 1024;

function tokenFor(platform: Platform): string {
  return sandbox.control.provisionAccount({ platform, handle: `uploader${++sequence}` }).accessToken;
}

async function call(platform: Platform, path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string>; body?: Uint8Array | FormData }) {
  const response = await fetch(path.startsWith('http') ? path : `${sandbox.url}/${platform}${path}`, {
    method: init.method ?? 'POST',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('tiktok FILE_UPLOAD', () => {
  const init = (token: string, sourceInfo: Record<string, unknown>) =>
    call('tiktok', '/v2/post/publish/video/init/', { token, json: { post_info: { title: 'clip', privacy_level: 'SELF_ONLY' }, source_info: { source: 'FILE_UPLOAD', ...sourceInfo } } });

  it.each([
    ['a chunk under 5 MB for a larger video', { video_size: 20 * MB, chunk_size: MB, total_chunk_count: 20 }],
    ['a chunk over 64 MB', { video_size: 200 * MB, chunk_size: 100 * MB, total_chunk_count: 2 }],
    ['a video under 5 MB split in chunks', { video_size: 4 * MB, chunk_size: 2 * MB, total_chunk_count: 2 }],
    ['a chunk count other than size / chunk rounded down', { video_size: 50_000_123, chunk_size: 10_000_000, total_chunk_count: 6 }],
    ['a video over 4 GB', { video_size: 5 * 1024 * MB, chunk_size: 64 * MB, total_chunk_count: 80 }],
  ])('refuses %s with invalid_params', async (_label, sourceInfo) => {
    const answer = await init(tokenFor('tiktok'), sourceInfo);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_params' });
  });

  it('takes chunks in order, 206 until the last and 201 for it, and refuses one out of order', async () => {
    const token = tokenFor('tiktok');
    const size = 10 * MB + 5;
    const started = await init(token, { video_size: size, chunk_size: 5 * MB, total_chunk_count: 2 });
    expect(started.status).toBe(200);
    const uploadUrl: string = started.body.data.upload_url;
    const put = (first: number, last: number) =>
      call('tiktok', uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${size}` }, body: new Uint8Array(last - first + 1) });

    expect((await put(5 * MB, size - 1)).body.error).toMatchObject({ code: 'invalid_params', message: 'file chunks must be uploaded sequentially' });
    expect((await put(0, 5 * MB - 1)).status).toBe(206);
    expect((await put(5 * MB, size - 1)).status).toBe(201);
    const status = await call('tiktok', '/v2/post/publish/status/fetch/', { token, json: { publish_id: started.body.data.publish_id } });
    // Every byte arrived and processing began: it lasts 150 ms for bytes with no known duration and ends
    // FAILED (zeros are no video), so a slow machine may already read its end.
    expect(status.body.data).toMatchObject({ uploaded_bytes: size });
    expect(['PROCESSING_UPLOAD', 'FAILED']).toContain(status.body.data.status);
  });

  it('refuses a chunk PUT with a forged upload token', async () => {
    const started = await init(tokenFor('tiktok'), { video_size: 1000, chunk_size: 1000, total_chunk_count: 1 });
    const url = new URL(started.body.data.upload_url);
    url.searchParams.set('upload_token', 'forged');
    const answer = await call('tiktok', url.toString(), { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-999/1000' }, body: new Uint8Array(1000) });
    expect(answer.status).toBe(404);
  });
});

describe('youtube resumable upload', () => {
  async function session(token: string, length: number) {
    const started = await call('youtube', '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', {
      token,
      json: { snippet: { title: 'clip' } },
      headers: { 'x-upload-content-type': 'video/mp4', 'x-upload-content-length': String(length) },
    });
    return started.headers.get('location')!;
  }

  it('answers 308 with the Range held, tells it again on a status query, and refuses a chunk that is no multiple of 256 KiB', async () => {
    const token = tokenFor('youtube');
    const size = 3 * 256 * 1024;
    const uploadUrl = await session(token, size);
    const put = (range: string, bytes: number) => call('youtube', uploadUrl, { method: 'PUT', token, headers: { 'content-type': 'video/mp4', 'content-range': range }, body: new Uint8Array(bytes) });

    const uneven = await put(`bytes 0-999/${size}`, 1000);
    expect(uneven.status).toBe(400);
    expect(uneven.body.error.errors[0].reason).toBe('badRequest');
    const first = await put(`bytes 0-${256 * 1024 - 1}/${size}`, 256 * 1024);
    expect(first.status).toBe(308);
    expect(first.headers.get('range')).toBe(`bytes=0-${256 * 1024 - 1}`);
    const asked = await put(`bytes */${size}`, 0);
    expect([asked.status, asked.headers.get('range')]).toEqual([308, `bytes=0-${256 * 1024 - 1}`]);
    const last = await put(`bytes ${256 * 1024}-${size - 1}/${size}`, size - 256 * 1024);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ kind: 'youtube#video', status: { uploadStatus: 'uploaded' } });
  });

  it('refuses a session for a type that is no video', async () => {
    const answer = await call('youtube', '/upload/youtube/v3/videos?uploadType=resumable&part=snippet', {
      token: tokenFor('youtube'),
      json: { snippet: { title: 'clip' } },
      headers: { 'x-upload-content-type': 'image/png', 'x-upload-content-length': '10' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors[0].reason).toBe('badContent');
  });
});

describe('pinterest pins and media upload', () => {
  const pin = (token: string, extra: Record<string, unknown>) => call('pinterest', '/v5/pins', { token, json: { board_id: 'board-1', ...extra } });

  it('refuses a carousel of 6 images, one of 1, and alt text over 500 characters', async () => {
    const token = tokenFor('pinterest');
    const items = (count: number) => Array.from({ length: count }, (_, index) => ({ url: `https://cdn.example.com/${index}.jpg` }));
    expect((await pin(token, { media_source: { source_type: 'multiple_image_urls', items: items(6) } })).body).toEqual({ code: 1, message: 'multiple_image_urls takes 2 to 5 items' });
    expect((await pin(token, { media_source: { source_type: 'multiple_image_urls', items: items(1) } })).status).toBe(400);
    const alt = await pin(token, { alt_text: 'x'.repeat(501), media_source: { source_type: 'image_url', url: 'https://cdn.example.com/a.jpg' } });
    expect(alt.body).toEqual({ code: 1, message: 'alt_text takes at most 500 characters' });
  });

  it('refuses an image url of the media host that is no image, or over 20 MB', async () => {
    const token = tokenFor('pinterest');
    for (const url of [`${sandbox.mediaUrl}/media/notes.txt`, `${sandbox.mediaUrl}/media/big.jpg?bytes=${20 * MB + 1}`, `${sandbox.mediaUrl}/media/gone.jpg?status=404`]) {
      expect((await pin(token, { media_source: { source_type: 'image_url', url } })).status).toBe(400);
    }
  });

  it("answers an upload whose signature is not the registered one with S3's XML AccessDenied", async () => {
    const registered = await call('pinterest', '/v5/media', { token: tokenFor('pinterest'), json: { media_type: 'video' } });
    const form = new FormData();
    for (const [name, value] of Object.entries(registered.body.upload_parameters as Record<string, string>)) form.append(name, name === 'x-amz-signature' ? 'forged' : value);
    form.append('file', new Blob([new Uint8Array(10)]), 'clip.mp4');
    const answer = await call('pinterest', registered.body.upload_url, { body: form });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('<Code>AccessDenied</Code>');
  });
});
