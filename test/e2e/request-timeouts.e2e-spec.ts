import { connect, Socket } from 'node:net';
import { Server } from 'node:http';
import { TestStack } from '../support/test-stack';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1_200;
const CONNECTION_TIMEOUT_MS = 5_000;
/** What node may add to a timeout: its check runs every quarter of the headers timeout; the rest is a loaded machine. */
const SLACK_MS = HEADERS_TIMEOUT_MS / 4 + 1_500;

/** What a raw client saw: every byte received until the server closed, and when it closed. */
interface Outcome {
  received: string;
  closedAfterMs: number;
}

/**
 * A client over a plain socket that sends `head` at once, then `drip` one character every
 * `everyMs` (never finishing the request, but never silent), until the server closes.
 */
function trickle(url: string, head: string, drip: string, everyMs: number): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(Number(port), hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after 30 s; received ${JSON.stringify(received)}`));
    }, 30_000);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(head);
      let i = 0;
      timer = setInterval(() => socket.writable && socket.write(drip[i++ % drip.length]), everyMs);
    });
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ received, closedAfterMs: Date.now() - started });
    });
  });
}

const expect408 = (outcome: Outcome) => {
  const [head, body] = outcome.received.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(head).toContain('Connection: close');
  expect(JSON.parse(body)).toEqual({ error: { code: 'request_timeout', message: expect.any(String) } });
};

/** Issue 21: a client that declares a body and trickles it (or its headers) is answered 408 and cut off, not held open. */
describe('request timeouts (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_CONNECTION_TIMEOUT_MS)', () => {
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      apps: ['gateway'],
      overrides: { httpHeadersTimeoutMs: HEADERS_TIMEOUT_MS, httpRequestTimeoutMs: REQUEST_TIMEOUT_MS, httpConnectionTimeoutMs: CONNECTION_TIMEOUT_MS },
    });
    ({ key } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  it('sets them on the gateway server', () => {
    const server = stack.app('gateway').getHttpServer() as Server;
    expect({ headers: server.headersTimeout, request: server.requestTimeout, connection: server.timeout }).toEqual({
      headers: HEADERS_TIMEOUT_MS,
      request: REQUEST_TIMEOUT_MS,
      connection: CONNECTION_TIMEOUT_MS,
    });
  });

  it('a body declared 100,000 bytes long, 12 sent and then one byte every 100 ms: 408 request_timeout after the request timeout, connection closed', async () => {
    const before = await stack.eventCount();
    const head = `POST /api/v1/posts HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"content":"`;
    expect(Buffer.byteLength(head.slice(head.indexOf('\r\n\r\n') + 4))).toBe(12);
    const outcome = await trickle(stack.baseUrl, head, 'x', 100);
    expect408(outcome);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(await stack.eventCount()).toBe(before);
  });

  it('headers that never end, one byte every 50 ms: 408 request_timeout after the headers timeout, connection closed', async () => {
    const outcome = await trickle(stack.baseUrl, `GET /api/v1/posts HTTP/1.1\r\nHost: gateway\r\nX-Slow: `, 'y', 50);
    expect408(outcome);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(outcome.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
  });

  it('a request that arrives in time is served as usual, a slow but whole body included', async () => {
    const body = JSON.stringify({ content: 5, accounts: ['@someone'] });
    const head = `POST /api/v1/posts HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const { hostname, port } = new URL(stack.baseUrl);
    const received = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(head);
        // Half the body now, the rest well within the request timeout.
        socket.write(body.slice(0, 5));
        setTimeout(() => socket.write(body.slice(5)), REQUEST_TIMEOUT_MS / 4);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
    });
    // Read and judged by its rules, not timed out: content must be text.
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received).toContain('"code":"invalid_body"');
  });
});
