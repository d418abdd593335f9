import { usePostsStack } from './posts-fixture';

/**
 * A partial post fixed and retried (issue 20): X refuses the text (content_too_long: X counts 280
 * weighted characters, https://docs.x.com/fundamentals/counting-characters), Mastodon publishes it;
 * the X override is changed with PATCH, and POST /retry sends the new text to X only. Through HTTP,
 * the posts service, the publisher and the platform sandbox.
 */
describe('fixing a partial post: PATCH the failed account\'s override, then retry', () => {
  const posts = usePostsStack('fix');
  const { account, create, sandbox } = posts;
  const request = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => posts.stack.request(method, path, { key: posts.key, body, headers });
  const textOn = (token: string) => sandbox().published({ account: token, kind: 'post' }).map((item) => item.text);
  // 400 characters: fine for Mastodon (500), too long for X (280).
  const long = `${'A long announcement. '.repeat(19)}The end!!!`.slice(0, 400);

  async function partialPost() {
    const [x, mastodon] = [await account('x'), await account('mastodon')];
    const response = await create({ content: long, accounts: [x.ref, mastodon.ref], publishNow: true });
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('partial');
    expect(response.body.results.find((r: { accountId: string }) => r.accountId === x.id)).toMatchObject({ success: false, error: { code: 'content_too_long' } });
    return { x, mastodon, id: response.body.post.id as string };
  }

  it('X fails with content_too_long; its override is patched; the retry publishes the new text on X and nothing again on Mastodon', async () => {
    const { x, mastodon, id } = await partialPost();
    expect(textOn(x.token)).toEqual([]);
    expect(textOn(mastodon.token)).toEqual([long]);

    const patched = await request('PATCH', `/api/v1/posts/${id}`, { overrides: { x: { content: 'Shorter, for X: the long story is on our blog.' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.post.status).toBe('partial');
    const detail = await request('GET', `/api/v1/posts/${id}`);
    expect(detail.body.post).toMatchObject({ status: 'partial', content: long, overrides: { x: { content: 'Shorter, for X: the long story is on our blog.' } } });

    const retried = await request('POST', `/api/v1/posts/${id}/retry`);
    expect(retried.status).toBe(201);
    expect(retried.body.post.status).toBe('published');
    const [onX] = sandbox().published({ account: x.token, kind: 'post' });
    expect(onX.text).toBe('Shorter, for X: the long story is on our blog.');
    expect(retried.body.results.find((r: { accountId: string }) => r.accountId === x.id)).toMatchObject({ success: true, postId: onX.id });
    // Mastodon published once, on the first attempt; the retry never called it.
    expect(textOn(mastodon.token)).toEqual([long]);
    expect(sandbox().requestCount({ account: mastodon.token, operation: 'publish' })).toBe(1);
  });

  it('refuses an edit that would change a published account, or any field but the overrides, with a stable code and nothing appended', async () => {
    const { mastodon, id } = await partialPost();
    const before = await posts.stack.eventCount();
    const cases: Array<[unknown, string, unknown]> = [
      [{ overrides: { mastodon: { content: 'Changed after the fact' } } }, 'account_already_published', { accountIds: [mastodon.id] }],
      [{ overrides: { [mastodon.ref]: { firstComments: ['Late comment'] } } }, 'account_already_published', { accountIds: [mastodon.id] }],
      [{ content: 'A new text for everyone' }, 'post_not_editable', { fields: ['content'] }],
      [{ overrides: { x: { content: 'x'.repeat(300) } } }, 'override_not_publishable', expect.objectContaining({ override: 'x', reason: 'content_too_long' })],
    ];
    for (const [body, code, details] of cases) {
      const refused = await request('PATCH', `/api/v1/posts/${id}`, body);
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: code === 'override_not_publishable' ? 400 : 409, error: expect.objectContaining({ code, details }) });
    }
    expect(await posts.stack.eventCount()).toBe(before);
    expect((await request('GET', `/api/v1/posts/${id}`)).body.post).not.toHaveProperty('overrides');
  });

  it('keeps If-Match on the fix: a stale version is refused (412), nothing appended', async () => {
    const { id } = await partialPost();
    const current = await request('GET', `/api/v1/posts/${id}`);
    const before = await posts.stack.eventCount();
    const stale = await request('PATCH', `/api/v1/posts/${id}`, { overrides: { x: { content: 'Short' } } }, { 'if-match': `"${current.body.post.version - 1}"` });
    expect(stale.status).toBe(412);
    expect(await posts.stack.eventCount()).toBe(before);
  });
});
