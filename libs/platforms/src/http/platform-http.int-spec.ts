import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformOutcomeUnknown, PlatformRequest } from './platform-http';
import { RetryPolicy } from './retry-policy';

/**
 * PlatformHttp against a real HTTP server on loopback: what reaches the wire (bodies and
 * their lengths), the whole-call timeout (a body that arrives too slowly included), and how
 * each network failure is classified — the irreversible call must never be resent when it
 * may have reached the platform.
 */
type Handler = (request: IncomingMessage, body: Buffer, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let received: Array<{ headers: IncomingMessage['headers']; body: Buffer }>;
let sleeps: number[];
let dir: string;

const TIMEOUT_MS = 200;
const policy = (): RetryPolicy => ({
  maxAttempts: 3,
  baseDelayMs: 1,
  maxDelayMs: 4,
  maxRateLimitWaitMs: 1_000,
  requestTimeoutMs: TIMEOUT_MS,
  sleep: async (ms) => void sleeps.push(ms),
  now: () => Date.now(),
});
const http = () => new PlatformHttp((response) => ({ code: codeForStatus(response.status), message: 'refused', retryable: isTransientStatus(response.status) }), policy());
const post = (extra: Partial<PlatformRequest> = {}): PlatformRequest => ({ method: 'POST', url: `${baseUrl}/publish`, json: { text: 'hi' }, ...extra });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-http-'));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ headers: request.headers, body });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
  sleeps = [];
  handler = (_request, _body, response) => response.end(JSON.stringify({ id: '1' }));
});

describe('bodies on the wire', () => {
  it('streams a file-backed Blob with its content-length, not chunked, bytes intact', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    bytes.write('ftyp', 4);
    await writeFile(join(dir, 'clip.mp4'), bytes);
    const blob = await openAsBlob(join(dir, 'clip.mp4'));
    await http().send(post({ json: undefined, raw: { body: blob, contentType: 'video/mp4' } }));
    expect(received[0].headers).toMatchObject({ 'content-length': '300000', 'content-type': 'video/mp4' });
    expect(received[0].headers['transfer-encoding']).toBeUndefined();
    expect(received[0].body.equals(bytes)).toBe(true);
  });

  it('sends a multipart FormData built with the global class, file part and filename included, with its length', async () => {
    const bytes = Buffer.alloc(50_000, 3);
    await writeFile(join(dir, 'photo.png'), bytes);
    const form = new FormData();
    form.append('description', 'a photo');
    form.append('file', await openAsBlob(join(dir, 'photo.png'), { type: 'image/png' }), 'photo.png');
    await http().send(post({ json: undefined, multipart: form }));
    const { headers, body } = received[0];
    expect(Number(headers['content-length'])).toBe(body.length);
    const parsed = await new Response(body, { headers: { 'content-type': String(headers['content-type']) } }).formData();
    expect(parsed.get('description')).toBe('a photo');
    const file = parsed.get('file') as File;
    expect({ name: file.name, type: file.type }).toEqual({ name: 'photo.png', type: 'image/png' });
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('sends json and form bodies with their types; reads answer headers and keeps 2xx bytes for expect: bytes', async () => {
    handler = (_request, _body, response) => {
      response.setHeader('x-restli-id', 'urn:li:share:9');
      response.end(Buffer.from([0, 1, 2]));
    };
    const answer = await http().send(post({ json: undefined, form: { a: 'b c' }, expect: 'bytes' }));
    expect(received[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received[0].body.toString()).toBe('a=b+c');
    expect(answer.headers.get('x-restli-id')).toBe('urn:li:share:9');
    expect(answer.body).toEqual(new Uint8Array([0, 1, 2]));
    handler = (_request, _body, response) => response.end('{"id":"2"}');
    expect((await http().send(post())).body).toEqual({ id: '2' });
    expect(received[1].headers['content-type']).toBe('application/json');
    expect(received[1].body.toString()).toBe('{"text":"hi"}');
  });

  it('names the client, and follows no redirect: a 3xx is an answer, the call not resent elsewhere', async () => {
    handler = (request, _body, response) => {
      response.writeHead(request.url === '/publish' ? 307 : 200, { location: '/moved' });
      response.end();
    };
    await expect(http().send(post({ irreversible: true }))).rejects.toMatchObject({ error: { code: 'platform_rejected', retryable: false } });
    expect(received).toHaveLength(1);
    expect(received[0].headers['user-agent']).toBe('social-publishing/1');
  });
});

describe('the whole-call timeout', () => {
  /** Headers at once, then one byte of body every 50 ms: each chunk in time, the whole body not. */
  const dribble: Handler = (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 50);
    response.on('close', () => clearInterval(timer));
  };

  it('abandons a body that arrives too slowly: the irreversible call is unknown and sent once', async () => {
    handler = dribble;
    const started = Date.now();
    await expect(http().send(post({ irreversible: true }))).rejects.toBeInstanceOf(PlatformOutcomeUnknown);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    expect(received).toHaveLength(1);
  });

  it('retries a safe call whose body is too slow, then fails it as a retryable timeout', async () => {
    handler = dribble;
    await expect(http().send(post())).rejects.toMatchObject({ error: { code: 'timeout', message: 'request timed out', retryable: true } });
    expect(received).toHaveLength(3);
  });

  it('abandons a call with no answer at all', async () => {
    handler = () => undefined;
    await expect(http().send(post({ irreversible: true }))).rejects.toThrow(/request timed out/);
    expect(received).toHaveLength(1);
  });
});

describe('network failures', () => {
  it('retries a refused connection even for the irreversible call (nothing was sent), then fails it as network_error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await http()
      .send(post({ url: `http://127.0.0.1:${port}/publish`, irreversible: true }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformCallFailed);
    expect((failure as PlatformCallFailed).error).toMatchObject({ code: 'network_error', retryable: true, message: expect.stringMatching(/^ECONNREFUSED/) });
    expect(sleeps).toHaveLength(2);
  });

  it('treats a connection dropped after the request arrived as possibly published: unknown, sent once', async () => {
    handler = (request) => request.socket.destroy();
    await expect(http().send(post({ irreversible: true }))).rejects.toBeInstanceOf(PlatformOutcomeUnknown);
    expect(received).toHaveLength(1);
  });

  it('resends a dropped idempotent irreversible call, the platform deduplicating it', async () => {
    let drops = 1;
    handler = (request, _body, response) => (drops-- > 0 ? request.socket.destroy() : response.end('{"id":"1"}'));
    await expect(http().send(post({ irreversible: true, idempotent: true }))).resolves.toMatchObject({ status: 200, body: { id: '1' } });
    expect(received).toHaveLength(2);
  });
});
