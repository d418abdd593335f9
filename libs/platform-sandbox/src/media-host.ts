import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { sandboxTlsFile } from './sandbox-tls';

/**
 * The sandbox's media host: an HTTPS server standing in for the CDN a post's mediaUrls
 * point at. `GET /media/<name>.<ext>?bytes=N&width=W&height=H&seconds=S` streams N bytes
 * of the format the extension names, with real headers (JPEG SOF0, PNG IHDR, GIF logical
 * screen, WebP VP8X, mp4/mov ftyp + moov/mvhd/tkhd, WebM EBML) so a fetcher sniffing the
 * bytes sees that type, size and duration; the rest is zero padding, generated while
 * streaming (never more than one 64 KB chunk in memory), so a 200 MB video costs nothing.
 *
 * Further parameters, for the refusal paths:
 *   contentType=...  the Content-Type header says this instead (the bytes stay what the extension names)
 *   status=503       answers that status with a short text body
 *   redirect=N       answers 302 to the same url with redirect=N-1 (0: the file)
 *   location=<url>   answers 302 to that url
 *   chunked=1        no Content-Length (the size shows only while streaming)
 *   stallMs=N        waits N ms after the headers before the body
 * `.txt` serves text (not media). Its TLS certificate is the sandbox's own (libs/platform-sandbox/tls),
 * trusted by the fetcher through NODE_EXTRA_CA_CERTS.
 */
export interface SandboxMediaHost {
  /** e.g. https://127.0.0.1:4011 */
  readonly url: string;
  readonly port: number;
  /** GET requests that arrived for this file name (e.g. 'photo.jpg'), redirects and errors included. */
  requests(name: string): number;
  /** Body bytes handed to the sockets for this file name: shows a fetch that stopped early did stop. */
  bytesSent(name: string): number;
  /** TLS connections accepted since start (or the last reset): proves that a refused url was never dialled. */
  connections(): number;
  reset(): void;
  close(): Promise<void>;
}

/** What a media url of this host holds, as a platform that pulls media by url would find it. */
export interface SandboxMediaDescription {
  /** The type of the bytes (from the extension; the contentType parameter only changes the header). */
  contentType: string;
  bytes: number;
  /** Pixel size the bytes declare (images, and videos through mp4/mov tkhd); null for text. */
  width: number | null;
  height: number | null;
  /** Duration of a video; null for images and text. */
  seconds: number | null;
  /** The HTTP status the url answers (200 unless status= asks for another). */
  status: number;
}


const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  txt: 'text/plain',
};

/** How long the media host keeps an idle connection open (see startMediaHost). */
const MEDIA_HOST_KEEP_ALIVE_MS = 60_000;
const MEDIA_PATH = /^\/media\/([A-Za-z0-9._-]+)\.([a-z0-9]+)$/;
const PADDING = Buffer.alloc(64 * 1024);

interface MediaQuery {
  name: string;
  ext: string;
  bytes: number;
  width: number;
  height: number;
  seconds: number;
}

/** Tells what a media url of the sandbox's media host holds, without fetching it; null for any other url. */
export function describeSandboxMedia(url: string): SandboxMediaDescription | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const media = parseMediaQuery(parsed);
  if (!media) return null;
  const contentType = CONTENT_TYPES[media.ext];
  const isVideo = contentType.startsWith('video/');
  const isText = media.ext === 'txt';
  return {
    contentType,
    bytes: media.bytes,
    width: isText ? null : media.width,
    height: isText ? null : media.height,
    seconds: isVideo ? media.seconds : null,
    status: positiveInt(parsed.searchParams.get('status')) ?? 200,
  };
}

export async function startMediaHost(options: { host?: string; port?: number } = {}): Promise<SandboxMediaHost> {
  const requestsByName = new Map<string, number>();
  const bytesByName = new Map<string, number>();
  const add = (counts: Map<string, number>, name: string, amount: number) => counts.set(name, (counts.get(name) ?? 0) + amount);
  let connections = 0;
  const server: Server = createServer({ key: readFileSync(sandboxTlsFile('server.key')), cert: readFileSync(sandboxTlsFile('server.crt')) }, (request, response) => {
    const url = new URL(request.url ?? '/', `https://${request.headers.host ?? 'localhost'}`);
    const match = MEDIA_PATH.exec(url.pathname);
    const name = match ? `${match[1]}.${match[2]}` : url.pathname;
    add(requestsByName, name, 1);
    serve(url, request, response, (bytes) => add(bytesByName, name, bytes)).catch(() => response.destroy());
  });
  // Idle connections stay open as a CDN keeps them (nginx: 75 s), not Node's 5 s: a fetcher reuses an idle
  // connection, and on a stalled machine the server's 5 s close could land after the reused request was
  // sent, resetting it (ECONNRESET, media_unreachable). Clients take the Keep-Alive: timeout hint.
  server.keepAliveTimeout = MEDIA_HOST_KEEP_ALIVE_MS;
  server.on('secureConnection', () => connections++);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `https://${urlHost}:${port}`,
    port,
    requests: (name) => requestsByName.get(name) ?? 0,
    bytesSent: (name) => bytesByName.get(name) ?? 0,
    connections: () => connections,
    reset: () => {
      requestsByName.clear();
      bytesByName.clear();
      connections = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Clients under test may hold keep-alive sockets; they must not delay the sandbox's close.
        server.closeAllConnections();
      }),
  };
}

async function serve(url: URL, request: IncomingMessage, response: ServerResponse, sent: (bytes: number) => void): Promise<void> {
  const media = request.method === 'GET' || request.method === 'HEAD' ? parseMediaQuery(url) : null;
  if (!media) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not a sandbox media url (GET /media/<name>.<ext>)');
    return;
  }
  const status = positiveInt(url.searchParams.get('status'));
  if (status && status !== 200) {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(`sandbox media answered ${status}`);
    return;
  }
  const location = url.searchParams.get('location');
  const hops = positiveInt(url.searchParams.get('redirect'));
  if (location || hops) {
    const next = new URL(url);
    if (hops) next.searchParams.set('redirect', String(hops - 1));
    response.writeHead(302, { location: location ?? next.toString() }).end();
    return;
  }
  const headers: Record<string, string | number> = { 'content-type': url.searchParams.get('contentType') ?? CONTENT_TYPES[media.ext] };
  if (url.searchParams.get('chunked') !== '1') headers['content-length'] = media.bytes;
  response.writeHead(200, headers);
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const stall = positiveInt(url.searchParams.get('stallMs'));
  if (stall) await new Promise((resolve) => setTimeout(resolve, stall));
  // Small read-ahead: the generator advances only as the client reads, so a client that stops stops it.
  const body = Readable.from(mediaBytes(media), { highWaterMark: 1 });
  body.on('data', (chunk: Buffer) => sent(chunk.length));
  await pipeline(body, response);
}

function parseMediaQuery(url: URL): MediaQuery | null {
  const match = MEDIA_PATH.exec(url.pathname);
  if (!match || !CONTENT_TYPES[match[2]]) return null;
  const number = (name: string, fallback: number) => positiveInt(url.searchParams.get(name)) ?? fallback;
  return { name: match[1], ext: match[2], bytes: number('bytes', 4096), width: number('width', 1200), height: number('height', 800), seconds: number('seconds', 10) };
}

function positiveInt(raw: string | null): number | null {
  if (raw === null || raw === '') return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** The file's bytes: its format's header, then zero padding up to `bytes` (the header cut short if `bytes` is smaller). */
function* mediaBytes(media: MediaQuery): Generator<Buffer> {
  const head = headerOf(media);
  if (head.length >= media.bytes) {
    yield head.subarray(0, media.bytes);
    return;
  }
  yield head;
  for (let left = media.bytes - head.length; left > 0; left -= PADDING.length) yield PADDING.subarray(0, Math.min(left, PADDING.length));
}

function headerOf(media: MediaQuery): Buffer {
  switch (media.ext) {
    case 'jpg':
    case 'jpeg':
      return jpegHead(media.width, media.height);
    case 'png':
      return pngHead(media.width, media.height);
    case 'gif':
      return gifHead(media.width, media.height);
    case 'webp':
      return webpHead(media.width, media.height, media.bytes);
    case 'mp4':
      return isoMediaHead('isom', media);
    case 'mov':
      return isoMediaHead('qt  ', media);
    case 'webm':
      return webmHead();
    default:
      return Buffer.from(`sandbox text file ${media.name}\n`);
  }
}

const u16be = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
const u16le = (value: number) => Buffer.from([value & 0xff, (value >> 8) & 0xff]);
const u24le = (value: number) => Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
function u32be(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value >>> 0);
  return buffer;
}
function u32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
}

/** SOI, a JFIF APP0 segment (as every camera or encoder writes one first), then a baseline SOF0 frame header with the size (ITU T.81 B.2.2). */
function jpegHead(width: number, height: number): Buffer {
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0]), u16be(16), Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]);
  const components = [1, 2, 3].flatMap((id) => [id, id === 1 ? 0x22 : 0x11, id === 1 ? 0 : 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff, 0xc0]), u16be(8 + components.length), Buffer.from([8]), u16be(height), u16be(width), Buffer.from([3, ...components])]);
}

/** The PNG signature and its IHDR chunk (8-bit truecolour), with the chunk's CRC (PNG spec 5.3, 11.2.2). */
function pngHead(width: number, height: number): Buffer {
  const ihdr = Buffer.concat([Buffer.from('IHDR'), u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), u32be(13), ihdr, u32be(crc32(ihdr))]);
}

/** GIF89a header and logical screen descriptor (GIF89a spec, sections 17-18). */
function gifHead(width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from('GIF89a'), u16le(width), u16le(height), Buffer.from([0x00, 0x00, 0x00])]);
}

/** RIFF/WEBP with a VP8X chunk carrying the canvas size minus one (WebP container spec, extended format). */
function webpHead(width: number, height: number, bytes: number): Buffer {
  const vp8x = Buffer.concat([Buffer.from('VP8X'), u32le(10), Buffer.from([0, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(Math.max(bytes, 30) - 8), Buffer.from('WEBP'), vp8x]);
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32be(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

const UNITY_MATRIX = Buffer.concat([0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].map(u32be));

/**
 * ftyp, then moov (mvhd with timescale 1000 and the duration, a trak whose tkhd has the
 * size in 16.16 fixed point) in front of the mdat, as a "faststart" file (ISO/IEC 14496-12
 * 4.3, 8.2.2, 8.3.2; QuickTime File Format for 'qt  ').
 */
function isoMediaHead(brand: 'isom' | 'qt  ', media: MediaQuery): Buffer {
  const timescale = 1000;
  const duration = media.seconds * timescale;
  const ftyp = box('ftyp', Buffer.from(brand, 'latin1'), u32be(0x200), Buffer.from(brand === 'isom' ? 'isomiso2mp41' : 'qt  ', 'latin1'));
  const mvhd = box('mvhd', u32be(0), u32be(0), u32be(0), u32be(timescale), u32be(duration), u32be(0x00010000), u16be(0x0100), Buffer.alloc(10), UNITY_MATRIX, Buffer.alloc(24), u32be(2));
  const tkhd = box('tkhd', u32be(0x00000003), u32be(0), u32be(0), u32be(1), u32be(0), u32be(duration), Buffer.alloc(8), u16be(0), u16be(0), u16be(0), u16be(0), UNITY_MATRIX, u32be(media.width * 0x10000), u32be(media.height * 0x10000));
  const moov = box('moov', mvhd, box('trak', tkhd));
  const mdatSize = Math.max(media.bytes - ftyp.length - moov.length, 8);
  return Buffer.concat([ftyp, moov, u32be(mdatSize), Buffer.from('mdat')]);
}

/** An EBML header with DocType "webm" (RFC 8794; Matroska/WebM DocType). */
function webmHead(): Buffer {
  const docType = Buffer.concat([Buffer.from([0x42, 0x82, 0x84]), Buffer.from('webm')]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | docType.length]), docType]);
}
