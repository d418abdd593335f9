import { startPlatformSandbox, RunningPlatformSandbox } from './sandbox';

/** The /_sandbox JSON API, as a process outside the sandbox (the demo, e2e tests) uses it. */
let sandbox: RunningPlatformSandbox;

beforeAll(async () => {
  sandbox = await startPlatformSandbox();
});
afterAll(() => sandbox.close());

interface ControlAnswer {
  status: number;
  body: { items?: unknown[]; count?: number } | null;
}
const json = async (path: string, init: RequestInit = {}): Promise<ControlAnswer> => {
  const headers: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${sandbox.url}${path}`, { ...init, headers });
  return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as ControlAnswer['body']) };
};
const tweet = (token: string, text: string) =>
  fetch(`${sandbox.url}/x/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

/** Signs an account in on the sandbox through its control API: the access token its platform issued. */
const signIn = async (platform: string, handle: string, key: string): Promise<string> => {
  const answer = await fetch(`${sandbox.url}/_sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform, handle, key }) });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { accessToken: string }).accessToken;
};

it('injects a fault, counts requests, lists what was published, adds a comment and resets', async () => {
  const token = await signIn('x', '@brand', 'tok');
  const created = await json('/_sandbox/faults', {
    method: 'POST',
    body: JSON.stringify({ platform: 'x', account: 'tok', fault: { type: 'error', status: 503, message: 'over capacity' } }),
  });
  expect(created.status).toBe(201);

  const refused = await tweet(token, 'first');
  expect(refused.status).toBe(503);
  expect(await refused.json()).toMatchObject({ status: 503, detail: 'over capacity', title: 'Service Unavailable' });

  const accepted = await tweet(token, 'second');
  expect(accepted.status).toBe(201);
  const { data } = (await accepted.json()) as { data: { id: string } };

  expect((await json('/_sandbox/requests?platform=x&account=tok&operation=publish')).body).toEqual({ count: 2 });
  expect((await json('/_sandbox/published?platform=x')).body?.items).toMatchObject([{ id: data.id, text: 'second', kind: 'post' }]);

  const comment = await json('/_sandbox/comments', { method: 'POST', body: JSON.stringify({ platform: 'x', parentId: data.id, text: 'nice', author: 'fan' }) });
  expect(comment.status).toBe(201);
  const search = await fetch(`${sandbox.url}/x/2/tweets/search/recent?query=conversation_id:${data.id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await search.json()) as { data: Array<{ text: string }> }).data.map((post) => post.text)).toEqual(['nice']);

  expect((await json('/_sandbox/reset', { method: 'POST' })).status).toBe(204);
  expect((await json('/_sandbox/published')).body?.items).toEqual([]);
});

it('holds a request unanswered, and makes nothing, until the test removes the hold', async () => {
  const token = await signIn('x', '@held', 'held');
  const hold = await json('/_sandbox/faults', { method: 'POST', body: JSON.stringify({ platform: 'x', account: 'held', fault: { type: 'hold' } }) });
  expect(hold.status).toBe(201);
  let answered = false;
  const sending = tweet(token, 'held back').then((answer) => ((answered = true), answer));
  while ((await json('/_sandbox/requests?platform=x&account=held&operation=publish')).body?.count !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
  // Arrived and counted, but neither handled nor answered while held.
  expect((await json('/_sandbox/published?platform=x&account=held')).body?.items).toEqual([]);
  expect(answered).toBe(false);

  expect((await json(`/_sandbox/faults/${(hold.body as unknown as { id: string }).id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await sending).status).toBe(201);
  expect((await json('/_sandbox/published?platform=x&account=held')).body?.items).toMatchObject([{ text: 'held back' }]);
});

it('answers a request without a token in the platform error shape', async () => {
  const response = await fetch(`${sandbox.url}/mastodon/api/v1/statuses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"hi"}' });
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: expect.any(String) });
});

it('refuses a token it never issued, an expired one and a revoked one', async () => {
  const refused = (token: string) => tweet(token, 'hi').then((answer) => answer.status);
  expect(await refused('made-up')).toBe(401);
  const expiring = await signIn('x', '@expiring', 'expiring');
  expect(await refused(expiring)).toBe(201);
  expect((await json('/_sandbox/clock', { method: 'POST', body: JSON.stringify({ advanceSeconds: 3 * 3600 }) })).status).toBe(204);
  expect(await refused(expiring)).toBe(401);
  const revoked = await signIn('x', '@revoked', 'revoked');
  expect((await json('/_sandbox/accounts/revoked/revoke', { method: 'POST' })).status).toBe(204);
  expect(await refused(revoked)).toBe(401);
});

it('refuses a comment on a platform without a comments API, and on an unknown item', async () => {
  expect((await json('/_sandbox/comments', { method: 'POST', body: JSON.stringify({ platform: 'tiktok', parentId: '1', text: 'x' }) })).status).toBe(400);
  expect((await json('/_sandbox/comments', { method: 'POST', body: JSON.stringify({ platform: 'x', parentId: '404', text: 'x' }) })).status).toBe(404);
});

it("tells a comment's moderation state: hidden through X's hide replies endpoint, then deleted by its author", async () => {
  const token = await signIn('x', '@moderator', 'moderator');
  const posted = await tweet(token, 'launch');
  const { data } = (await posted.json()) as { data: { id: string } };
  const comment = await json('/_sandbox/comments', { method: 'POST', body: JSON.stringify({ platform: 'x', parentId: data.id, text: 'spam', author: 'spammer' }) });
  const commentId = (comment.body as unknown as { platformCommentId: string }).platformCommentId;
  const state = async () => (await json(`/_sandbox/comments/x/${commentId}`)).body;
  expect(await state()).toMatchObject({ hidden: false, deleted: false, item: { id: commentId, text: 'spam' } });

  // Hide replies (https://docs.x.com/x-api/posts/hide-replies/introduction): PUT /2/tweets/:id/hidden {"hidden": true}.
  const hidden = await fetch(`${sandbox.url}/x/2/tweets/${commentId}/hidden`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"hidden":true}' });
  expect(await hidden.json()).toEqual({ data: { hidden: true } });
  expect(await state()).toMatchObject({ hidden: true, deleted: false });

  // Only the author deletes a post (https://developer.x.com/en/docs/x-api/tweets/manage-tweets/api-reference/delete-tweets-id).
  const refused = await fetch(`${sandbox.url}/x/2/tweets/${commentId}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  expect(refused.status).toBe(403);
  expect(await state()).toMatchObject({ deleted: false });

  expect((await json('/_sandbox/comments/x/404')).status).toBe(404);
  expect((await json('/_sandbox/comments/myspace/1')).status).toBe(400);
});
