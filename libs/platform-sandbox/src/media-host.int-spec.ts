import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { RunningPlatformSandbox, startPlatformSandbox } from './sandbox';
import { sandboxTlsFile } from './sandbox-tls';

/** A GET on a connection of its own, verified against the sandbox's CA only (not the global trust store). */
function getMedia(url: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { ca: readFileSync(sandboxTlsFile('ca.crt')), agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

let sandbox: RunningPlatformSandbox;
beforeAll(async () => {
  sandbox = await startPlatformSandbox();
});
afterAll(() => sandbox.close());

describe('the sandbox media host', () => {
  it('serves HTTPS with a certificate of the sandbox CA for 127.0.0.1 and localhost', async () => {
    expect(sandbox.mediaUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const byAddress = await getMedia(`${sandbox.mediaUrl}/media/photo.jpg?bytes=70000`);
    expect(byAddress.status).toBe(200);
    expect(byAddress.headers['content-type']).toBe('image/jpeg');
    expect(byAddress.headers['content-length']).toBe('70000');
    expect(byAddress.body).toHaveLength(70_000);
    expect([...byAddress.body.subarray(0, 4)]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
    expect((await getMedia(`https://localhost:${sandbox.media.port}/media/photo.png`)).body.subarray(12, 16).toString()).toBe('IHDR');
  });

  it('writes real headers: mp4 ftyp then moov/mvhd with the duration, PNG IHDR with the size', async () => {
    const mp4 = (await getMedia(`${sandbox.mediaUrl}/media/clip.mp4?seconds=12&bytes=2000`)).body;
    expect(mp4.subarray(4, 12).toString('latin1')).toBe('ftypisom');
    const mvhd = mp4.indexOf('mvhd');
    expect(mp4.readUInt32BE(mvhd + 16)).toBe(1000);
    expect(mp4.readUInt32BE(mvhd + 20)).toBe(12_000);
    expect((await getMedia(`${sandbox.mediaUrl}/media/clip.mov`)).body.subarray(8, 12).toString('latin1')).toBe('qt  ');
    const png = (await getMedia(`${sandbox.mediaUrl}/media/a.png?width=300&height=200`)).body;
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([300, 200]);
  });

  it('lies in Content-Type, answers errors, redirects, and streams without Content-Length on request', async () => {
    expect((await getMedia(`${sandbox.mediaUrl}/media/a.png?contentType=text/html`)).headers['content-type']).toBe('text/html');
    expect((await getMedia(`${sandbox.mediaUrl}/media/a.png?status=503`)).status).toBe(503);
    const hop = await getMedia(`${sandbox.mediaUrl}/media/a.png?redirect=2&width=9`);
    expect(hop.status).toBe(302);
    expect(new URL(hop.headers.location ?? '').search).toBe('?redirect=1&width=9');
    expect((await getMedia(`${sandbox.mediaUrl}/media/a.png?location=${encodeURIComponent('https://10.0.0.1/x.png')}`)).headers.location).toBe('https://10.0.0.1/x.png');
    const chunked = await getMedia(`${sandbox.mediaUrl}/media/a.gif?chunked=1&bytes=100000`);
    expect(chunked.headers['content-length']).toBeUndefined();
    expect(chunked.body).toHaveLength(100_000);
    expect((await getMedia(`${sandbox.mediaUrl}/media/notes.txt`)).body.toString()).toContain('sandbox text file notes');
    expect((await getMedia(`${sandbox.mediaUrl}/elsewhere`)).status).toBe(404);
  });

  it('counts requests per file name and connections, in process and over the control API, until a reset', async () => {
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    expect(sandbox.media.requests('counted.jpg')).toBe(0);
    await getMedia(`${sandbox.mediaUrl}/media/counted.jpg`);
    await getMedia(`${sandbox.mediaUrl}/media/counted.jpg?redirect=1`);
    expect(sandbox.media.requests('counted.jpg')).toBe(2);
    expect(sandbox.media.bytesSent('counted.jpg')).toBe(4096);
    const answer = (await (await fetch(`${sandbox.url}/_sandbox/media-requests?name=counted.jpg`)).json()) as { count: number; connections: number };
    expect(answer.count).toBe(2);
    expect(answer.connections).toBe(2);
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    expect([sandbox.media.requests('counted.jpg'), sandbox.media.connections()]).toEqual([0, 0]);
    expect((await fetch(`${sandbox.url}/_sandbox/media-requests`)).status).toBe(400);
  });
});
