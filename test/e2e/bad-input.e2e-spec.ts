import { connect as connectTcp } from 'node:net';
import { ERROR_CODES } from '@app/contracts';
import { TestStack } from '../support/test-stack';
import { metaSignature } from '../../apps/gateway/src/comments/meta-webhook';
import { API_BODY_LIMIT_BYTES, MAX_JSON_DEPTH, MAX_URL_CHARS } from '../../apps/gateway/src/http/request-bounds';
import { CommentsWorld, META_APP_SECRET, startCommentsStack, TestAccount } from './comments-fixture';

/**
 * The reproductions of issue 16's bad-input findings, each answered 4xx in the
 * one error shape with nothing stored: strings PostgreSQL cannot hold, bodies too
 * deep or too large, ids and urls too long, headers too large, broken HTTP, a
 * reply that must not go out, a webhook entry out of range, and the scopes a
 * publishNow misses.
 */
describe('bad input: never a 5xx, always the documented error', () => {
  let stack: TestStack;
  let world: CommentsWorld;
  let key: string;
  let workspaceId: string;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startCommentsStack();
    world = new CommentsWorld(stack);
    ({ key, workspaceId } = await stack.workspace());
    account = await world.account(workspaceId, 'facebook');
  });
  afterAll(() => stack.stop());

  /** A raw request (the body sent as given), answered in the one error shape with the code's own status, and no event appended. */
  async function expectRefused(method: string, path: string, body: string | undefined, status: number, code: keyof typeof ERROR_CODES, headers: Record<string, string> = {}) {
    const before = await stack.eventCount();
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    });
    const answer = (await response.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
    expect({ status: response.status, code: answer.error.code, message: typeof answer.error.message }).toEqual({ status, code, message: 'string' });
    expect(ERROR_CODES[code].status).toBe(status);
    expect(await stack.eventCount()).toBe(before);
    return answer.error;
  }

  const post = (content: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ content, accounts: [account.id], ...extra });

  describe('strings storage cannot hold are refused with invalid_body naming the field (not normalised)', () => {
    it.each([
      ['a lone surrogate in content', () => post('\uD800'), 'content'],
      ['NUL in content', () => post('a\u0000b'), 'content'],
      ['a lone low surrogate in an account reference', () => JSON.stringify({ content: 'hi', accounts: ['@a\uDC00'] }), 'accounts[0]'],
      ['NUL in a first comment', () => post('hi', { firstComments: ['ok', 'x\u0000'] }), 'firstComments[1]'],
      ['NUL in an unknown field', () => post('hi', { extra: { deeper: 'x\u0000' } }), 'extra.deeper'],
      ['NUL in a key', () => post('hi', { 'bad\u0000key': 1 }), '(key) bad\\u0000key'],
    ])('POST /api/v1/posts with %s', async (_name, body, field) => {
      const error = await expectRefused('POST', '/api/v1/posts', body(), 400, 'invalid_body');
      expect(error.details).toEqual({ field, reason: expect.any(String) });
    });

    it('keeps emoji (surrogate pairs) and every other character as sent', async () => {
      const content = 'Launch 🚀 — naïve café 中文 \u200d';
      const response = await stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: [account.id] } });
      expect(response.status).toBe(201);
      const stored = await stack.request('GET', `/api/v1/posts/${response.body.post.id}`, { key });
      expect(stored.body.post.content).toBe(content);
    });

    it('PATCH /api/v1/posts/:id with NUL in content', async () => {
      const created = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'draft', accounts: [account.id] } });
      const error = await expectRefused('PATCH', `/api/v1/posts/${created.body.post.id}`, JSON.stringify({ content: 'x\u0000' }), 400, 'invalid_body');
      expect(error.details).toMatchObject({ field: 'content' });
    });

    it('a query parameter with NUL is invalid_query', async () => {
      const error = await expectRefused('GET', '/api/v1/posts?status=draft%00', undefined, 400, 'invalid_query');
      expect(error.details).toMatchObject({ field: 'status' });
    });
  });

  describe('path parameters storage cannot hold are refused with invalid_query naming the parameter, on every route', () => {
    const someId = '00000000-0000-4000-8000-000000000000';
    it.each([
      ['GET', '/api/v1/webhooks/%00', 'id'],
      ['PATCH', '/api/v1/webhooks/a%00b', 'id'],
      ['DELETE', '/api/v1/webhooks/%00', 'id'],
      ['POST', '/api/v1/webhooks/%00/rotate-secret', 'id'],
      ['POST', '/api/v1/webhooks/%00/test', 'id'],
      ['GET', '/api/v1/webhooks/%00/deliveries', 'id'],
      ['POST', `/api/v1/webhooks/${someId}/deliveries/%00/redeliver`, 'deliveryId'],
      ['POST', '/api/v1/webhooks/%00/replay', 'id'],
      ['GET', '/api/v1/comments/x/%00/replies', 'commentId'],
      ['GET', '/api/v1/comments/x%00/1/replies', 'platform'],
      ['DELETE', '/api/v1/comments/facebook/1_2/replies/%00', 'replyId'],
      ['GET', '/api/v1/accounts/%00/boards', 'id'],
      ['DELETE', '/api/v1/accounts/%00', 'id'],
      ['GET', '/api/v1/posts/%00', 'id'],
    ])('%s %s', async (method, path, field) => {
      const { key: everyScope } = await stack.workspace(['read', 'write', 'publish', 'engage', 'accounts', 'webhooks']);
      const body = ['PATCH', 'POST'].includes(method) ? '{}' : undefined;
      const error = await expectRefused(method, path, body, 400, 'invalid_query', { authorization: `Bearer ${everyScope}` });
      expect(error.details).toEqual({ field, in: 'path', reason: 'contains the NUL character (U+0000)' });
    });
  });

  describe('depth and size are bounded before parsing', () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it.each([
      ['an unknown field', `{"content":"hi","accounts":["${'@a'}"],"junk":${deep(10_000)}}`],
      ['mediaUrls', `{"content":"hi","accounts":["@a"],"mediaUrls":${deep(10_000)}}`],
      ['content', `{"content":${deep(10_000)},"accounts":["@a"]}`],
      ['objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ])('a body nested 10,000 deep in %s: 400 invalid_body with the bound', async (_name, body) => {
      const error = await expectRefused('POST', '/api/v1/posts', body, 400, 'invalid_body');
      expect(error.details).toEqual({ maxDepth: MAX_JSON_DEPTH });
    });

    it('the same on PATCH and on the Meta webhook', async () => {
      await expectRefused('PATCH', '/api/v1/posts/7d6c2f0e-5b8a-4c1e-9f3a-2b4d6e8f0a1c', `{"content":${deep(5_000)}}`, 400, 'invalid_body');
      const body = `{"object":"page","entry":${deep(5_000)}}`;
      await expectRefused('POST', '/webhooks/meta', body, 400, 'invalid_body', { 'x-hub-signature-256': metaSignature(body, META_APP_SECRET) });
    });

    it('a body just under 1 MB: 413 payload_too_large with the limit, declared or streamed', async () => {
      const body = post('x'.repeat(1_000_000 - 100));
      const declared = await expectRefused('POST', '/api/v1/posts', body, 413, 'payload_too_large');
      expect(declared.details).toEqual({ limitBytes: API_BODY_LIMIT_BYTES });
      // Chunked, with no Content-Length: counted as it arrives.
      const before = await stack.eventCount();
      const streamed = await fetch(`${stack.baseUrl}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toEqual({ error: { code: 'payload_too_large', message: expect.any(String), details: { limitBytes: API_BODY_LIMIT_BYTES } } });
      expect(await stack.eventCount()).toBe(before);
    });

    it('a body at the limit is read (and judged by its rules)', async () => {
      const body = post('x'.repeat(API_BODY_LIMIT_BYTES - 200));
      await expectRefused('POST', '/api/v1/posts', body, 400, 'content_too_long');
    });
  });

  describe('ids, urls and headers', () => {
    it.each([
      ['GET', 'a'.repeat(101)],
      ['GET', 'a'.repeat(5_000)],
      ['PATCH', 'b'.repeat(150)],
      ['DELETE', 'c'.repeat(300)],
      ['POST', `${'d'.repeat(200)}/publish`],
      ['GET', '%E0%A4%A'],
      ['GET', 'not-a-uuid'],
    ])('%s /api/v1/posts/<%s> is 404 not_found', async (method, id) => {
      await expectRefused(method, `/api/v1/posts/${id}`, method === 'PATCH' ? '{"content":"x"}' : undefined, 404, 'not_found');
    });

    it('a request target over the limit is 414 uri_too_long with the limit', async () => {
      const error = await expectRefused('GET', `/api/v1/posts?status=${'x'.repeat(MAX_URL_CHARS)}`, undefined, 414, 'uri_too_long');
      expect(error.details).toEqual({ limitChars: MAX_URL_CHARS });
    });

    /** What the server writes back to raw bytes: node answers these before any framework sees a request. */
    function rawExchange(request: string): Promise<{ status: number; body: unknown }> {
      const { port } = new URL(stack.baseUrl);
      return new Promise((resolve, reject) => {
        const socket = connectTcp(Number(port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('error', () => undefined); // the server closes the connection after its answer
        socket.on('close', () => {
          const [head, body] = received.split('\r\n\r\n');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
          if (!status) return reject(new Error(`no HTTP answer: ${received.slice(0, 200)}`));
          resolve({ status, body: JSON.parse(body) });
        });
        socket.write(request);
      });
    }

    it('a 100 KB header is 431 headers_too_large in the error shape', async () => {
      const answer = await rawExchange(`GET /api/v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
      expect(answer).toEqual({ status: 431, body: { error: { code: 'headers_too_large', message: expect.any(String) } } });
    });

    it('a request that is not HTTP is 400 malformed_request in the error shape', async () => {
      const answer = await rawExchange('GARBAGE \x01\x02\r\n\r\n');
      expect(answer).toEqual({ status: 400, body: { error: { code: 'malformed_request', message: expect.any(String) } } });
    });
  });

  it('insufficient_scope lists every missing scope', async () => {
    const body = post('now', { publishNow: true });
    const cases: [string[], string[]][] = [
      [['read'], ['write', 'publish']],
      [['read', 'write'], ['publish']],
      [['read', 'publish'], ['write']],
    ];
    for (const [scopes, missing] of cases) {
      const { key: limited } = await stack.workspace(scopes as never);
      const before = await stack.eventCount();
      const response = await stack.request('POST', '/api/v1/posts', { key: limited, body });
      expect({ scopes, status: response.status, error: response.body.error }).toEqual({
        scopes,
        status: 403,
        error: { code: 'insufficient_scope', message: expect.any(String), details: { missing } },
      });
      expect(await stack.eventCount()).toBe(before);
    }
  });

  it('a reply with NUL or a lone surrogate is refused before the platform is called', async () => {
    const item = await world.publish(key, account);
    const commentId = world.comment('facebook', item, 'Do you ship to Norway?').id;
    await world.untilListed(key, [commentId]);
    const calls = () => stack.sandbox!.control.requestCount({ platform: 'facebook', operation: 'comment' });
    const callsBefore = calls();
    for (const message of ['a\u0000b', 'a\uD800', '\uDFFF']) {
      const error = await expectRefused('POST', '/api/v1/comments/reply', JSON.stringify({ platform: 'facebook', commentId, message }), 400, 'invalid_body');
      expect(error.details).toMatchObject({ field: 'message' });
    }
    expect(calls()).toBe(callsBefore);
  });

  it("a reply naming another workspace's account is unknown_account and sends nothing; one of exactly 2,200 characters is sent", async () => {
    const item = await world.publish(key, account);
    const commentId = world.comment('facebook', item, 'Is this in stock?').id;
    await world.untilListed(key, [commentId]);
    const theirs = await world.account((await stack.workspace()).workspaceId, 'facebook');
    const calls = () => stack.sandbox!.control.requestCount({ platform: 'facebook', operation: 'comment' });
    const callsBefore = calls();
    await expectRefused('POST', '/api/v1/comments/reply', JSON.stringify({ platform: 'facebook', commentId, message: 'hi', accountId: theirs.id }), 400, 'unknown_account');
    expect(calls()).toBe(callsBefore);
    const atLimit = await stack.request('POST', '/api/v1/comments/reply', { key, body: { platform: 'facebook', commentId, message: 'r'.repeat(2_200) } });
    expect(atLimit.status).toBe(200);
    expect(calls()).toBe(callsBefore + 1);
  });

  it('a signed Meta webhook with created_time -1e20 skips that entry and ingests the others (200, as Meta expects)', async () => {
    const item = await world.publish(key, account);
    const change = (id: string, extra: Record<string, unknown> = {}) => ({
      field: 'feed',
      value: { item: 'comment', verb: 'add', comment_id: id, post_id: item.platformPostId, message: `comment ${id}`, from: { name: 'Ann' }, created_time: 1_700_000_000, ...extra },
    });
    const suffix = Math.random().toString(36).slice(2, 8);
    const [before, bad, nul, after] = [`${suffix}_1`, `${suffix}_2`, `${suffix}_3`, `${suffix}_4`];
    const payload = { object: 'page', entry: [{ id: '1', changes: [change(before), change(bad, { created_time: -1e20 }), change(nul, { message: 'x\u0000' }), change(after)] }] };
    const raw = JSON.stringify(payload);
    const response = await stack.request('POST', '/webhooks/meta', { body: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, META_APP_SECRET) } });
    expect(response).toMatchObject({ status: 200, body: { received: 2 } });
    const listed = await world.untilListed(key, [before, after]);
    expect(listed.map((comment) => comment.platformCommentId).sort()).toEqual([before, after].sort());
    const { rows } = await stack.db.pool.query(`SELECT 1 FROM events WHERE type = 'CommentReceived' AND data->>'platformCommentId' = ANY($1)`, [[bad, nul]]);
    expect(rows).toEqual([]);
  });
});
