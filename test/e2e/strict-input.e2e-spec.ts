import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@app/contracts';
import { TestStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

type Answer = { status: number; body: { error: { code: string; message: string; details?: any } } };

/**
 * Issue 20, "a first hour without traps": a misspelt field or query parameter is
 * refused (never ignored, which silently made a draft of {"publish_now": true}),
 * with its path and a did-you-mean hint, at any depth of the DTOs, on every
 * operation; a body comes as application/json or is 415. Every refusal appends nothing.
 */
describe('strict input: unknown fields and query parameters, JSON bodies only', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let key: string;
  let accountId: string;
  let draftId: string;
  let webhookId: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.start({ overrides: { webhookAllowedHosts: [receiver.host] } });
    const workspace = await stack.workspace(['read', 'write', 'publish', 'engage', 'accounts', 'webhooks']);
    key = workspace.key;
    accountId = (await stack.connect(workspace.workspaceId, 'mastodon', '@strict')).id;
    const draft = await stack.request('POST', '/api/v1/posts', { key, body: { content: 'draft', accounts: [accountId] } });
    expect(draft.status).toBe(201);
    draftId = draft.body.post.id;
    const webhook = await stack.request('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events: ['post.published'] } });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id;
  });
  afterAll(async () => {
    await stack.stop();
    await receiver.close();
  });

  /** Sends the request as given (body bytes and headers untouched) and checks the refusal: its status, code, the one error shape, and no event appended. */
  async function refused(method: string, path: string, init: { body?: RequestInit['body']; headers?: Record<string, string> }, status: number, code: keyof typeof ERROR_CODES): Promise<Answer['body']['error']> {
    const before = await stack.eventCount();
    const response = await fetch(`${stack.baseUrl}${path}`, { method, body: init.body, headers: { authorization: `Bearer ${key}`, ...init.headers } });
    const answer = (await response.json()) as Answer['body'];
    expect({ status: response.status, code: answer.error.code, message: typeof answer.error.message }).toEqual({ status, code, message: 'string' });
    expect(ERROR_CODES[code].status).toBe(status);
    expect(await stack.eventCount()).toBe(before);
    return answer.error;
  }
  /** A path of the tables, with the ids of the fixtures put in. */
  const at = (path: string) => path.replace('{draft}', draftId).replace('{webhook}', webhookId).replace('{uuid}', randomUUID());
  const json = (method: string, path: string, body: unknown) => refused(method, path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }, 400, 'unknown_field');

  describe('unknown body fields: 400 unknown_field with the path and a hint, nothing created', () => {
    it('{"publish_now": true} is refused, not a draft, with "did you mean publishNow?"', async () => {
      const postsBefore = (await stack.request('GET', '/api/v1/posts', { key })).body.posts.length;
      const error = await json('POST', '/api/v1/posts', { content: 'Launch!', accounts: [accountId], publish_now: true });
      expect(error.details).toEqual({ field: 'publish_now', suggestion: 'publishNow', allowed: expect.arrayContaining(['content', 'accounts', 'publishNow', 'scheduledAt']) });
      expect(error.message).toContain('did you mean publishNow?');
      expect((await stack.request('GET', '/api/v1/posts', { key })).body.posts).toHaveLength(postsBefore);
    });

    it('names every unknown field in the message, the first in details; no hint when nothing is close', async () => {
      const error = await json('POST', '/api/v1/posts', { content: 'x', accounts: [accountId], scheduled_at: '2030-01-01T00:00:00Z', colour: 'red' });
      expect(error.message).toBe('unknown fields scheduled_at (did you mean scheduledAt?), colour');
      expect(error.details).toMatchObject({ field: 'scheduled_at', suggestion: 'scheduledAt' });
      const alone = await json('POST', '/api/v1/posts', { content: 'x', accounts: [accountId], colour: 'red' });
      expect(alone.details).toMatchObject({ field: 'colour', suggestion: null });
      expect(alone.message).toMatch(/^unknown field colour; the fields taken here are content, accounts, accountIds, /);
    });

    it('an unknown field wins over the type errors it likely explains (a required field misspelt)', async () => {
      const error = await json('POST', '/api/v1/comments/reply', { platform: 'x', comment_id: '123', message: 'hi' });
      expect(error.details).toMatchObject({ field: 'comment_id', suggestion: 'commentId' });
    });

    it.each([
      ['a thread part', { thread: [{ content: 'one' }, { contnet: 'two' }] }, 'thread[1].contnet', 'content', ['content', 'mediaUrls', 'altText']],
      ['an override', { overrides: { mastodon: { content: 'ok', first_comments: ['x'] } } }, 'overrides.mastodon.first_comments', 'firstComments', ['content', 'mediaUrls', 'altText', 'firstComments']],
      ['an override keyed by account', { overrides: { 'mastodon:@strict': { mediaURLs: [] } } }, 'overrides.mastodon:@strict.mediaURLs', 'mediaUrls', ['content', 'mediaUrls', 'altText', 'firstComments']],
    ])('at any depth: %s, on create and on edit', async (_name, nested, field, suggestion, allowed) => {
      for (const [method, path] of [['POST', '/api/v1/posts'], ['PATCH', `/api/v1/posts/${draftId}`]]) {
        const error = await json(method, path, { content: 'x', accounts: [accountId], ...nested });
        expect(error.details).toEqual({ field, suggestion, allowed });
      }
    });

    it('nested fields keep their types: null or a wrong type in a part or an override is invalid_body, an array is no override', async () => {
      for (const nested of [{ thread: [{ content: null }] }, { thread: [[{ content: 'x' }]] }, { overrides: { mastodon: { content: 1 } } }, { overrides: { mastodon: { altText: null } } }, { overrides: { mastodon: [] } }, { overrides: [] }]) {
        const error = await refused('POST', '/api/v1/posts', { body: JSON.stringify({ content: 'x', accounts: [accountId], ...nested }), headers: { 'content-type': 'application/json' } }, 400, 'invalid_body');
        expect(error.message).toMatch(/^(thread|overrides)/);
      }
    });

    it.each([
      ['PATCH', '/api/v1/posts/{draft}', { contnet: 'x' }, 'contnet', 'content'],
      ['POST', '/api/v1/comments/reply', { platform: 'x', commentId: '1', message: 'hi', account_id: 'a' }, 'account_id', 'accountId'],
      ['POST', '/api/v1/comments/hide', { platform: 'x', commentId: '1', accountID: 'a' }, 'accountID', 'accountId'],
      ['POST', '/api/v1/comments/unhide', { platform: 'x', commentID: '1' }, 'commentID', 'commentId'],
      ['POST', '/api/v1/accounts/connect', { platform: 'x', redirect_uri: 'https://app.example/back' }, 'redirect_uri', 'redirectUri'],
      ['POST', '/api/v1/accounts', { platform: 'mastodon', access_token: 't' }, 'access_token', 'accessToken'],
      ['POST', '/api/v1/accounts/connect/complete', { connection_id: 'c', verifier: 'v' }, 'connection_id', 'connectionId'],
      ['POST', '/api/v1/webhooks', { url: 'https://hooks.example/x', event: ['post.published'] }, 'event', 'events'],
      ['PATCH', '/api/v1/webhooks/{webhook}', { enable: false }, 'enable', 'enabled'],
      ['POST', '/api/v1/webhooks/{webhook}/replay', { after_position: '0' }, 'after_position', 'afterPosition'],
    ])('%s %s', async (method, path, body, field, suggestion) => {
      const error = await json(method, at(path), body);
      expect(error.details).toMatchObject({ field, suggestion });
    });

    it('an operation that takes no body refuses one with fields (an empty {} passes)', async () => {
      const error = await json('POST', `/api/v1/posts/${draftId}/publish`, { accounts: [accountId] });
      expect(error.details).toEqual({ field: 'accounts', suggestion: null, allowed: [] });
      expect(error.message).toBe('unknown field accounts; this operation takes no field');
      await json('DELETE', `/api/v1/posts/${draftId}`, { force: true });
      await json('POST', `/api/v1/webhooks/${webhookId}/rotate-secret`, { secret: 'mine' });
      expect((await stack.request('GET', `/api/v1/posts/${draftId}`, { key })).body.post.status).toBe('draft');
      // {} reaches the operation: a draft has nothing to retry.
      const retried = await stack.request('POST', `/api/v1/posts/${draftId}/retry`, { key, body: {} });
      expect({ status: retried.status, code: retried.body.error.code }).toEqual({ status: 409, code: 'post_not_retryable' });
    });

    it('the deprecated accountIds still works, and so does every documented field', async () => {
      const created = await stack.request('POST', '/api/v1/posts', {
        key,
        body: { content: 'Old client', accountIds: [accountId], firstComments: ['first'], thread: [{ content: 'two' }], overrides: { mastodon: { content: 'For Mastodon' } }, platformOptions: { mastodon: { visibility: 'unlisted' } }, autoSplit: false, altText: null, scheduledAt: null, publishNow: null },
      });
      expect(created.status).toBe(201);
      const post = (await stack.request('GET', `/api/v1/posts/${created.body.post.id}`, { key })).body.post;
      expect(post).toMatchObject({ status: 'draft', content: 'Old client', accounts: [{ accountId }], firstComments: ['first'] });
      const edited = await stack.request('PATCH', `/api/v1/posts/${created.body.post.id}`, { key, body: { accountIds: [accountId], overrides: { [`mastodon:@strict`]: { firstComments: ['edited'] } } } });
      expect(edited.status).toBe(200);
    });
  });

  describe('unknown query parameters: 400 unknown_query_parameter, on every operation', () => {
    it.each([
      ['GET', '/api/v1/posts?stauts=draft', 'stauts', 'status'],
      ['GET', '/api/v1/posts?status=draft&sort=asc', 'sort', null],
      ['GET', '/api/v1/comments?sentimnet=negative', 'sentimnet', 'sentiment'],
      ['GET', '/api/v1/comments?q=refund', 'q', null],
      ['GET', '/api/v1/webhooks/{webhook}/deliveries?statuss=failed', 'statuss', 'status'],
    ])('%s %s (a list: its own parameters are the allowed ones)', async (method, path, field, suggestion) => {
      const error = await refused(method, at(path), {}, 400, 'unknown_query_parameter');
      expect(error.details).toMatchObject({ field, suggestion, allowed: expect.arrayContaining(['limit', 'cursor']) });
    });

    it.each([
      ['GET', '/api/v1/posts/{draft}?include=accounts'],
      ['GET', '/api/v1/accounts?platform=x'],
      ['GET', '/api/v1/webhooks?enabled=true'],
      ['GET', '/api/v1/me?verbose=1'],
      ['DELETE', '/api/v1/posts/{draft}?force=true'],
      ['POST', '/api/v1/posts/{draft}/publish?dryRun=1'],
      ['GET', '/api/v1/comments/x/{uuid}/replies?limit=5'],
    ])('%s %s (an operation that takes none)', async (method, path) => {
      const error = await refused(method, at(path), {}, 400, 'unknown_query_parameter');
      expect(error.details).toMatchObject({ suggestion: null, allowed: [] });
      expect(error.message).toContain('this operation takes no query parameter');
    });

    it('the documented parameters still work', async () => {
      for (const path of ['/api/v1/posts?status=draft&limit=5', '/api/v1/comments?platform=x&sentiment=negative&unreplied=1&limit=5', `/api/v1/webhooks/${webhookId}/deliveries?status=failed&limit=5`]) {
        expect((await stack.request('GET', path, { key })).status).toBe(200);
      }
    });

    it("the sign-in callback takes whatever the platform adds (Google's scope and authuser): its state is what is judged", async () => {
      const response = await fetch(`${stack.baseUrl}/api/v1/accounts/connect/callback?state=abc.def&code=x&scope=email&authuser=0&error_reason=none`, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as Answer['body']).error.code).toBe('connect_state_invalid');
    });
  });

  describe('a body is application/json or 415 unsupported_media_type, nothing created', () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ content: 'typed nowhere', accounts: ['@strict'] }));

    it.each([
      ['no Content-Type (JSON bytes)', { body: bytes }],
      ['no Content-Type and no body', {}],
      ['text/plain', { body: JSON.stringify({ content: 'x', accounts: ['@strict'] }), headers: { 'content-type': 'text/plain' } }],
      ['application/x-www-form-urlencoded', { body: 'content=x&accounts=%40strict', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['multipart/form-data', { body: '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nx\r\n--b--\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' } }],
      ['application/xml', { body: '<post/>', headers: { 'content-type': 'application/xml' } }],
    ])('POST /api/v1/posts with %s', async (_name, init) => {
      const error = await refused('POST', '/api/v1/posts', init, 415, 'unsupported_media_type');
      expect(error.message).toMatch(/application\/json|Unsupported Media Type/i);
    });

    it.each([
      ['PATCH', '/api/v1/posts/{draft}'],
      ['POST', '/api/v1/comments/reply'],
      ['POST', '/api/v1/comments/hide'],
      ['POST', '/api/v1/accounts/connect'],
      ['POST', '/api/v1/accounts'],
      ['POST', '/api/v1/accounts/connect/complete'],
      ['POST', '/api/v1/webhooks'],
      ['PATCH', '/api/v1/webhooks/{webhook}'],
      ['POST', '/api/v1/webhooks/{webhook}/replay'],
    ])('%s %s without a Content-Type, with text/plain or a form', async (method, path) => {
      await refused(method, at(path), { body: new TextEncoder().encode('{"platform":"x"}') }, 415, 'unsupported_media_type');
      await refused(method, at(path), { body: '{"platform":"x"}', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type');
      await refused(method, at(path), { body: 'platform=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'unsupported_media_type');
    });

    it('application/json with a charset, in any case, is JSON', async () => {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        const response = await fetch(`${stack.baseUrl}/api/v1/posts`, { method: 'POST', body: bytes, headers: { authorization: `Bearer ${key}`, 'content-type': type } });
        expect({ type, status: response.status }).toEqual({ type, status: 201 });
      }
    });
  });
});
