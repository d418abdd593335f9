import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxMediaHost, startMediaHost } from '@app/platform-sandbox';
import type { MediaFile, MediaLimits } from './media-file';
import { MediaFetcher, MediaFetcherOptions } from './media-fetcher';
import { MediaRefused } from './media-refused';
import type { MediaResolver } from './guarded-agent';

/**
 * The media pipeline against the sandbox's HTTPS media host (libs/platform-sandbox/src/media-host.ts),
 * which counts requests and TLS connections: "refused" below always means nothing reached it.
 */
const ANY: MediaLimits = { maxBytes: 300 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'] };

let media: SandboxMediaHost;
const fetchers: MediaFetcher[] = [];

beforeAll(async () => {
  media = await startMediaHost();
});
afterAll(async () => {
  await Promise.all(fetchers.map((fetcher) => fetcher.close()));
  await media.close();
});
beforeEach(() => media.reset());

function fetcher(options: MediaFetcherOptions): MediaFetcher {
  const made = new MediaFetcher({ timeoutMs: 10_000, ...options });
  fetchers.push(made);
  return made;
}

/** The fetcher tests use for the media host itself: allowed by host:port. */
const allowed = () => fetcher({ allowedHosts: [`127.0.0.1:${media.port}`] });

async function refusal(promise: Promise<unknown>): Promise<MediaRefused> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof MediaRefused)) throw new Error(`expected a MediaRefused, got ${String(error)}`);
  return error;
}

/** A resolver answering `answers` in turn (the last one from then on), counting its calls. */
function resolver(...answers: string[][]): MediaResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[Math.min(calls.length, answers.length) - 1];
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

const one = async (from: MediaFetcher, url: string, limits: MediaLimits = ANY): Promise<Omit<MediaFile, 'blob' | 'stream' | 'chunks'>> =>
  from.withMedia([url], limits, async ([file]) => ({ url: file.url, contentType: file.contentType, kind: file.kind, size: file.size, width: file.width, height: file.height, durationSeconds: file.durationSeconds }));

describe('MediaFetcher: what a file is', () => {
  it('takes type, size and dimensions from the bytes of each image format', async () => {
    const from = allowed();
    expect(await one(from, `${media.url}/media/a.jpg?width=1600&height=900&bytes=50000`)).toMatchObject({ contentType: 'image/jpeg', kind: 'image', size: 50_000, width: 1600, height: 900, durationSeconds: null });
    expect(await one(from, `${media.url}/media/a.png?width=640&height=480`)).toMatchObject({ contentType: 'image/png', kind: 'image', width: 640, height: 480 });
    expect(await one(from, `${media.url}/media/a.gif?width=320&height=200`)).toMatchObject({ contentType: 'image/gif', kind: 'gif', width: 320, height: 200 });
    expect(await one(from, `${media.url}/media/a.webp?width=1080&height=1350`)).toMatchObject({ contentType: 'image/webp', kind: 'image', width: 1080, height: 1350 });
  });

  it('reads the duration and size of a faststart mp4 and mov; WebM stays unmeasured', async () => {
    const from = allowed();
    expect(await one(from, `${media.url}/media/clip.mp4?seconds=42&width=1080&height=1920&bytes=3000000`)).toMatchObject({ contentType: 'video/mp4', kind: 'video', size: 3_000_000, width: 1080, height: 1920, durationSeconds: 42 });
    expect(await one(from, `${media.url}/media/clip.mov?seconds=7`)).toMatchObject({ contentType: 'video/quicktime', durationSeconds: 7, width: 1200, height: 800 });
    expect(await one(from, `${media.url}/media/clip.webm`)).toMatchObject({ contentType: 'video/webm', width: null, height: null, durationSeconds: null });
  });

  it('sniffs the type from the bytes whatever the Content-Type header says', async () => {
    const from = allowed();
    expect(await one(from, `${media.url}/media/photo.png?contentType=text/html`)).toMatchObject({ contentType: 'image/png' });
    const text = await refusal(one(from, `${media.url}/media/notes.txt?contentType=image/jpeg`));
    expect(text.code).toBe('media_type_not_allowed');
    const notHere = await refusal(one(from, `${media.url}/media/clip.mp4`, { maxBytes: 1_000_000, types: ['image/jpeg', 'image/png'] }));
    expect(notHere).toMatchObject({ code: 'media_type_not_allowed', retryable: false });
    expect(notHere.message).toContain('is video/mp4; allowed here: image/jpeg, image/png');
  });

  it('gives back the same bytes through blob(), stream() and chunks()', async () => {
    const from = allowed();
    await from.withMedia([`${media.url}/media/a.png?bytes=10000`], ANY, async ([file]) => {
      const whole = Buffer.from(await (await file.blob()).arrayBuffer());
      expect(whole.length).toBe(10_000);
      expect(whole.subarray(1, 4).toString()).toBe('PNG');
      const range: Buffer[] = [];
      for await (const chunk of file.stream(100, 200)) range.push(chunk as Buffer);
      expect(Buffer.concat(range)).toEqual(whole.subarray(100, 200));
      const chunks: Array<{ index: number; offset: number; length: number }> = [];
      const joined: Uint8Array[] = [];
      for await (const chunk of file.chunks(4096)) {
        chunks.push({ index: chunk.index, offset: chunk.offset, length: chunk.bytes.byteLength });
        joined.push(chunk.bytes);
      }
      expect(chunks).toEqual([
        { index: 0, offset: 0, length: 4096 },
        { index: 1, offset: 4096, length: 4096 },
        { index: 2, offset: 8192, length: 1808 },
      ]);
      expect(Buffer.concat(joined)).toEqual(whole);
    });
  });
});

describe('MediaFetcher: temporary files', () => {
  it('spools into a private directory, removed after use, and when use throws', async () => {
    const spoolDir = await mkdtemp(join(tmpdir(), 'media-spec-'));
    try {
      const from = fetcher({ allowedHosts: [`127.0.0.1:${media.port}`], spoolDir });
      await from.withMedia([`${media.url}/media/one.jpg`, `${media.url}/media/two.png`], ANY, async (files) => {
        const [batch] = await readdir(spoolDir);
        expect((await stat(join(spoolDir, batch))).mode & 0o777).toBe(0o700);
        const spooled = await readdir(join(spoolDir, batch));
        expect(spooled).toHaveLength(2);
        for (const name of spooled) expect((await stat(join(spoolDir, batch, name))).mode & 0o777).toBe(0o600);
        expect(files.map((file) => file.size)).toEqual([4096, 4096]);
      });
      expect(await readdir(spoolDir)).toEqual([]);

      await expect(
        from.withMedia([`${media.url}/media/one.jpg`], ANY, async () => {
          expect(await readdir(spoolDir)).toHaveLength(1);
          throw new Error('the platform said no');
        }),
      ).rejects.toThrow('the platform said no');
      expect(await readdir(spoolDir)).toEqual([]);

      await refusal(from.withMedia([`${media.url}/media/one.jpg`, `${media.url}/media/gone.jpg?status=404`], ANY, async () => undefined));
      expect(await readdir(spoolDir)).toEqual([]);
    } finally {
      await rm(spoolDir, { recursive: true, force: true });
    }
  });

  it('fails the batch with the first refusal in url order, once every fetch has settled, without calling use', async () => {
    let used = false;
    const refused = await refusal(
      allowed().withMedia([`${media.url}/media/first.jpg?status=404`, `${media.url}/media/second.jpg?bytes=9000`, `${media.url}/media/third.jpg`], { ...ANY, maxBytes: 5000 }, async () => {
        used = true;
      }),
    );
    expect(used).toBe(false);
    expect(refused).toMatchObject({ code: 'media_unreachable' });
    expect(refused.message).toContain('first.jpg?status=404 answered HTTP 404');
    expect([media.requests('first.jpg'), media.requests('second.jpg'), media.requests('third.jpg')]).toEqual([1, 1, 1]);
  });
});

describe('MediaFetcher: size, status, time', () => {
  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const refused = await refusal(one(allowed(), `${media.url}/media/huge.mp4?bytes=200000000`, { ...ANY, maxBytes: 1_000_000 }));
    expect(refused).toMatchObject({ code: 'media_too_large', retryable: false });
    expect(refused.message).toContain('Content-Length 200000000');
    expect(media.bytesSent('huge.mp4')).toBeLessThan(5_000_000);
  });

  it('stops reading a body without Content-Length once it passes the cap', async () => {
    const refused = await refusal(one(allowed(), `${media.url}/media/endless.mp4?bytes=200000000&chunked=1`, { ...ANY, maxBytes: 1_000_000 }));
    expect(refused).toMatchObject({ code: 'media_too_large' });
    expect(refused.message).toContain('stopped reading there');
    // The host streams only as the client reads: it had sent little more than the cap when the fetch stopped.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(media.bytesSent('endless.mp4')).toBeLessThan(10_000_000);
  });

  it('takes a file of exactly the cap', async () => {
    expect(await one(allowed(), `${media.url}/media/exact.jpg?bytes=1000000&chunked=1`, { ...ANY, maxBytes: 1_000_000 })).toMatchObject({ size: 1_000_000 });
  });

  it('refuses an HTTP error (retryable when the host may recover) and an empty body', async () => {
    const from = allowed();
    expect(await refusal(one(from, `${media.url}/media/a.jpg?status=503`))).toMatchObject({ code: 'media_unreachable', retryable: true });
    expect(await refusal(one(from, `${media.url}/media/a.jpg?status=404`))).toMatchObject({ code: 'media_unreachable', retryable: false });
    expect(await refusal(one(from, `${media.url}/media/a.jpg?bytes=0`))).toMatchObject({ code: 'media_type_not_allowed' });
  });

  it('gives up on a host slower than the timeout (retryable)', async () => {
    const slow = fetcher({ allowedHosts: [`127.0.0.1:${media.port}`], timeoutMs: 300 });
    const started = Date.now();
    const refused = await refusal(one(slow, `${media.url}/media/slow.jpg?stallMs=3000`));
    expect(refused).toMatchObject({ code: 'media_unreachable', retryable: true });
    expect(refused.message).toContain('did not arrive within 300 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('MediaFetcher: redirects', () => {
  it('follows up to 5 redirects, and refuses a sixth', async () => {
    const from = allowed();
    expect(await one(from, `${media.url}/media/hop.jpg?redirect=5`)).toMatchObject({ contentType: 'image/jpeg' });
    expect(media.requests('hop.jpg')).toBe(6);
    media.reset();
    expect(await refusal(one(from, `${media.url}/media/hop.jpg?redirect=6`))).toMatchObject({ code: 'media_unreachable' });
    expect(media.requests('hop.jpg')).toBe(6);
  });

  it('checks every hop again: a redirect to a private address is refused without connecting to it', async () => {
    const other = await startMediaHost();
    try {
      const from = allowed();
      const target = `${other.url}/media/inside.jpg`;
      const refused = await refusal(one(from, `${media.url}/media/outside.jpg?location=${encodeURIComponent(target)}`));
      expect(refused).toMatchObject({ code: 'media_address_refused', retryable: false });
      expect(refused.message).toContain('127.0.0.1 is a loopback address');
      expect(media.requests('outside.jpg')).toBe(1);
      expect(other.connections()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('refuses a redirect to plain http', async () => {
    const refused = await refusal(one(allowed(), `${media.url}/media/a.jpg?location=${encodeURIComponent('http://cdn.example.com/a.jpg')}`));
    expect(refused.code).toBe('media_address_refused');
    expect(refused.message).toContain('only https urls are fetched');
  });
});

describe('MediaFetcher: addresses (SSRF)', () => {
  it('refuses a loopback IP literal, however spelt, without connecting', async () => {
    const refused = await refusal(one(fetcher({}), `${media.url}/media/a.jpg`));
    expect(refused).toMatchObject({ code: 'media_address_refused', retryable: false });
    // The other spellings of 127.0.0.1 a URL parser normalises to it.
    // And the IPv6 forms that carry it: IPv4-compatible, IPv4-mapped, NAT64, 6to4, Teredo (client = NOT of the last 32 bits).
    for (const host of ['2130706433', '0x7f.1', '127.1', '[::1]', '[0:0:0:0:0:0:0:1]', '[::127.0.0.1]', '[::7f00:1]', '[::ffff:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::1]', '[2001:0:808:808::80ff:fffe]']) {
      expect(await refusal(one(fetcher({}), `https://${host}:${media.port}/media/a.jpg`))).toMatchObject({ code: 'media_address_refused' });
    }
    expect(media.connections()).toBe(0);
  });

  it('refuses a hostname resolving to 127.0.0.1: the resolver is asked, the listening host never reached', async () => {
    const lookup = resolver(['127.0.0.1']);
    const refused = await refusal(one(fetcher({ lookup }), `https://localhost:${media.port}/media/a.jpg`));
    expect(refused.code).toBe('media_address_refused');
    expect(refused.message).toContain('localhost resolves to 127.0.0.1, a loopback address');
    expect(lookup.calls).toEqual(['localhost']);
    expect(media.connections()).toBe(0);
    expect(media.requests('a.jpg')).toBe(0);
  });

  it('refuses IPv4-mapped IPv6 loopback, as a literal and as a resolved address', async () => {
    expect(await refusal(one(fetcher({}), `https://[::ffff:127.0.0.1]:${media.port}/media/a.jpg`))).toMatchObject({ code: 'media_address_refused' });
    const lookup = resolver(['::ffff:127.0.0.1']);
    expect(await refusal(one(fetcher({ lookup }), `https://localhost:${media.port}/media/a.jpg`))).toMatchObject({ code: 'media_address_refused' });
    expect(media.connections()).toBe(0);
  });

  it('refuses a hostname with any private address among its answers', async () => {
    const lookup = resolver(['93.184.215.14', '10.0.0.5']);
    expect(await refusal(one(fetcher({ lookup }), 'https://mixed.example.com/a.jpg'))).toMatchObject({ code: 'media_address_refused' });
  });

  it('refuses the cloud metadata service by name (before any lookup) and by address', async () => {
    const lookup = resolver(['93.184.215.14']);
    const from = fetcher({ lookup });
    const byName = await refusal(one(from, 'https://metadata.google.internal/computeMetadata/v1/'));
    expect(byName).toMatchObject({ code: 'media_address_refused' });
    expect(byName.message).toContain('cloud metadata service');
    expect(lookup.calls).toEqual([]);
    expect(await refusal(one(from, 'https://169.254.169.254/latest/meta-data/'))).toMatchObject({ code: 'media_address_refused' });
    expect(await refusal(one(from, 'https://[fd00:ec2::254]/latest/meta-data/'))).toMatchObject({ code: 'media_address_refused' });
  });

  it('refuses plain http from a host that is not allow-listed, and any other scheme, without resolving anything', async () => {
    const lookup = resolver(['93.184.215.14']);
    const refused = await refusal(one(fetcher({ lookup }), 'http://cdn.example.com/a.jpg'));
    expect(refused.code).toBe('media_address_refused');
    expect(refused.message).toContain('plain http only from MEDIA_ALLOWED_HOSTS (cdn.example.com is not there)');
    expect(await refusal(one(fetcher({ lookup }), 'file:///etc/passwd'))).toMatchObject({ code: 'media_address_refused' });
    expect(lookup.calls).toEqual([]);
  });

  it('connects to the address it checked: a rebinding resolver cannot slip a private address in afterwards', async () => {
    // 127.0.0.2 stands for a public address (allowed by CIDR); 127.0.0.1 on the same port is the private target.
    const publicHost = await startMediaHost({ host: '127.0.0.2' });
    const privateHost = await startMediaHost({ host: '127.0.0.1', port: publicHost.port });
    try {
      const lookup = resolver(['127.0.0.2'], ['127.0.0.1']);
      const url = `https://localhost:${publicHost.port}/media/rebind.jpg`;
      expect(await one(fetcher({ lookup, allowedHosts: ['127.0.0.2/32'] }), url)).toMatchObject({ contentType: 'image/jpeg' });
      // One lookup per connection, and the connection went where that answer pointed.
      expect(lookup.calls).toHaveLength(1);
      expect(publicHost.requests('rebind.jpg')).toBe(1);
      // The next connection asks again, gets the private address, and is refused before dialling it.
      expect(await refusal(one(fetcher({ lookup, allowedHosts: ['127.0.0.2/32'] }), url))).toMatchObject({ code: 'media_address_refused' });
      expect(lookup.calls).toHaveLength(2);
      expect(privateHost.connections()).toBe(0);
    } finally {
      await privateHost.close();
      await publicHost.close();
    }
  });
});

describe('MediaFetcher: MEDIA_ALLOWED_HOSTS', () => {
  it('a host entry opens that hostname on any port, whatever it resolves to', async () => {
    const lookup = resolver(['127.0.0.1']);
    expect(await one(fetcher({ lookup, allowedHosts: ['localhost'] }), `https://localhost:${media.port}/media/a.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
  });

  it('a host:port entry opens that port only', async () => {
    const from = fetcher({ allowedHosts: [`127.0.0.1:${media.port + 1}`] });
    expect(await refusal(one(from, `${media.url}/media/a.jpg`))).toMatchObject({ code: 'media_address_refused' });
    expect(await one(fetcher({ allowedHosts: [`127.0.0.1:${media.port}`] }), `${media.url}/media/a.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
  });

  it('a CIDR entry opens the addresses in it, literal or resolved', async () => {
    const lookup = resolver(['127.0.0.1']);
    const from = fetcher({ lookup, allowedHosts: ['127.0.0.0/8'] });
    expect(await one(from, `${media.url}/media/a.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
    expect(await one(from, `https://localhost:${media.port}/media/b.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
    expect(await refusal(one(fetcher({ lookup, allowedHosts: ['10.0.0.0/8'] }), `https://localhost:${media.port}/media/c.jpg`))).toMatchObject({ code: 'media_address_refused' });
  });

  it('fetches plain http from an allow-listed host', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([10, 0, 20, 0, 0, 0, 0]), Buffer.alloc(100)]);
    const server: Server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/gif' }).end(gif));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const from = fetcher({ allowedHosts: [`127.0.0.1:${port}`] });
      expect(await one(from, `http://127.0.0.1:${port}/a.gif`)).toMatchObject({ contentType: 'image/gif', width: 10, height: 20, size: gif.length });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
