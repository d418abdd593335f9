import Fastify from 'fastify';
import { FILE_HEAD_BYTES, isSandboxFilePart, registerMultipart } from './multipart';

describe('sandbox multipart bodies', () => {
  it('hands a handler text fields as strings and file parts as {filename, contentType, head, size}, a repeated field as an array', async () => {
    const app = Fastify();
    await registerMultipart(app, 1024 * 1024);
    app.post('/upload', async (request) => {
      const body = request.body as Record<string, unknown>;
      const media = body.media;
      return {
        category: body.media_category,
        tags: body.tag,
        media: isSandboxFilePart(media) ? { filename: media.filename, contentType: media.contentType, text: media.head.toString('latin1'), size: media.size } : null,
      };
    });
    const form = new FormData();
    form.append('media_category', 'tweet_image');
    form.append('tag', 'a');
    form.append('tag', 'b');
    form.append('media', new Blob([Buffer.from('\x89PNG bytes', 'latin1')], { type: 'image/png' }), 'photo.png');
    const request = new Request('http://sandbox.test/upload', { method: 'POST', body: form });
    const answer = await app.inject({ method: 'POST', url: '/upload', headers: Object.fromEntries(request.headers), payload: Buffer.from(await request.arrayBuffer()) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ category: 'tweet_image', tags: ['a', 'b'], media: { filename: 'photo.png', contentType: 'image/png', text: '\x89PNG bytes', size: 10 } });
    await app.close();
  });

  it('counts a large file part as it streams, holding only its head', async () => {
    const app = Fastify();
    await registerMultipart(app, 8 * 1024 * 1024);
    app.post('/upload', async (request) => {
      const media = (request.body as Record<string, unknown>).media;
      return isSandboxFilePart(media) ? { head: media.head.length, first: media.head[0], size: media.size } : null;
    });
    const bytes = Buffer.alloc(3 * FILE_HEAD_BYTES + 5, 7);
    bytes[0] = 0x89;
    const form = new FormData();
    form.append('media', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
    const request = new Request('http://sandbox.test/upload', { method: 'POST', body: form });
    const answer = await app.inject({ method: 'POST', url: '/upload', headers: Object.fromEntries(request.headers), payload: Buffer.from(await request.arrayBuffer()) });
    expect(answer.json()).toEqual({ head: FILE_HEAD_BYTES, first: 0x89, size: bytes.length });
    await app.close();
  });

  it('refuses a file part over the limit with 413', async () => {
    const app = Fastify();
    await registerMultipart(app, 8);
    app.post('/upload', async () => ({ ok: true }));
    const form = new FormData();
    form.append('media', new Blob([Buffer.alloc(64)], { type: 'image/png' }), 'big.png');
    const request = new Request('http://sandbox.test/upload', { method: 'POST', body: form });
    const answer = await app.inject({ method: 'POST', url: '/upload', headers: Object.fromEntries(request.headers), payload: Buffer.from(await request.arrayBuffer()) });
    expect(answer.statusCode).toBe(413);
    await app.close();
  });
});
