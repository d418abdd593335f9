import { retryingFetch } from './retrying-fetch';

/** The retrying fetch against a scripted server: which answers it retries, how long it waits, what it never sends twice. */
describe('retryingFetch', () => {
  function server(...answers: Array<{ status: number; headers?: Record<string, string> }>) {
    const sent: Request[] = [];
    const send = async (request: Request) => {
      sent.push(request);
      const next = answers[Math.min(sent.length - 1, answers.length - 1)];
      return new Response(JSON.stringify({ attempt: sent.length, body: request.body ? await request.text() : null }), { status: next.status, headers: next.headers });
    };
    return { sent, send };
  }
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  beforeEach(() => (waits.length = 0));

  it('retries a GET answered 429 after the Retry-After it names, then answers the success', async () => {
    const { sent, send } = server({ status: 429, headers: { 'retry-after': '7' } }, { status: 200 });
    const response = await retryingFetch(send, { sleep })(new Request('http://api.test/api/v1/posts'));
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([7000]);
  });

  it('retries a POST with an Idempotency-Key, sending the same key and body again', async () => {
    const { sent, send } = server({ status: 503 }, { status: 201 });
    const response = await retryingFetch(send, { sleep, baseDelayMs: 10 })(new Request('http://api.test/api/v1/posts', { method: 'POST', headers: { 'idempotency-key': 'k-1' }, body: '{"content":"hi"}' }));
    expect(response.status).toBe(201);
    expect(sent.map((request) => request.headers.get('idempotency-key'))).toEqual(['k-1', 'k-1']);
    expect(await response.json()).toEqual({ attempt: 2, body: '{"content":"hi"}' });
    expect(waits).toEqual([10]);
  });

  it('never retries a POST without an Idempotency-Key (a reply sent twice is two replies)', async () => {
    const { sent, send } = server({ status: 503, headers: { 'retry-after': '1' } }, { status: 201 });
    const response = await retryingFetch(send, { sleep })(new Request('http://api.test/api/v1/comments/reply', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(503);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a 429 without Retry-After (x_quota_exhausted is not a "later"), nor other errors', async () => {
    for (const status of [429, 500, 400]) {
      const { sent, send } = server({ status }, { status: 200 });
      expect((await retryingFetch(send, { sleep })(new Request('http://api.test/x'))).status).toBe(status);
      expect(sent).toHaveLength(1);
    }
  });

  it('gives up after maxAttempts, and answers a Retry-After longer than maxDelayMs at once', async () => {
    const always = server({ status: 503, headers: { 'retry-after': '2' } });
    expect((await retryingFetch(always.send, { sleep, maxAttempts: 3 })(new Request('http://api.test/x'))).status).toBe(503);
    expect(always.sent).toHaveLength(3);
    expect(waits).toEqual([2000, 2000]);
    const long = server({ status: 429, headers: { 'retry-after': '120' } }, { status: 200 });
    expect((await retryingFetch(long.send, { sleep, maxDelayMs: 60_000 })(new Request('http://api.test/x'))).status).toBe(429);
    expect(long.sent).toHaveLength(1);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const { send } = server({ status: 429, headers: { 'retry-after': new Date(Date.now() + 3_000).toUTCString() } }, { status: 200 });
    await retryingFetch(send, { sleep })(new Request('http://api.test/x'));
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });
});
