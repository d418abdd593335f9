import { Platform } from '@app/contracts';
import { XPool } from '@app/quotas';
import { TestStack, tokenOf } from '../support/test-stack';

/** publishNow through HTTP, the posts service, the publisher and the platform sandbox. */
describe('POST /api/v1/posts with publishNow', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true, overrides: { publisherAckWaitMs: 2_000, publisherMaxDeliver: 3, xPoolMonthlyPosts: 2, publishWaitMs: 8_000 } });
  });
  afterAll(() => stack.stop());
  beforeEach(async () => {
    stack.sandbox!.control.clearFaults();
    ({ key, workspaceId } = await stack.workspace());
  });

  const sandbox = () => stack.sandbox!.control;
  async function account(platform: Platform, prefix: string = platform) {
    const handle = `@${prefix}${++seq}${Math.random().toString(36).slice(2, 6)}`;
    const connected = await stack.connect(workspaceId, platform, handle);
    return { id: connected.id, platform, handle: connected.handle, token: tokenOf(connected.handle), ref: `${platform}:${connected.handle}` };
  }
  const publishNow = (refs: string[], extra: Record<string, unknown> = {}) =>
    stack.request('POST', '/api/v1/posts', { key, body: { content: `Hello ${++seq}`, accounts: refs, publishNow: true, ...extra } });
  const resultOf = (body: { results: Array<{ accountId: string }> }, accountId: string) => body.results.find((r) => r.accountId === accountId);

  it('all accounts succeed: 201 published, one result per account with the platform id and url, one publication each', async () => {
    const [x, facebook] = [await account('x'), await account('facebook')];
    const response = await publishNow([x.ref, facebook.ref]);
    expect(response.status).toBe(201);
    expect(response.body.post).toMatchObject({ status: 'published', platforms: ['x', 'facebook'] });
    for (const a of [x, facebook]) {
      const [item] = sandbox().published({ account: a.token, kind: 'post' });
      expect(sandbox().published({ account: a.token, kind: 'post' })).toHaveLength(1);
      expect(resultOf(response.body, a.id)).toEqual({ platform: a.platform, accountId: a.id, accountLabel: expect.any(String), success: true, postId: item.id, url: expect.stringMatching(/^https:\/\//) });
    }
    expect(typeof response.body.note).toBe('string');
    // Read-your-writes: the list already shows it published, with its time and one outcome per account.
    const [listed] = (await stack.request('GET', '/api/v1/posts?limit=1', { key })).body.posts;
    expect(listed).toMatchObject({ id: response.body.post.id, status: 'published', errorMessage: null });
    expect(Number.isNaN(Date.parse(listed.publishedAt))).toBe(false);
    expect(listed.results).toHaveLength(2);
  });

  it('one account failing: 201 partial, the failed entry carries the error, the other result is intact', async () => {
    const [mastodon, facebook] = [await account('mastodon'), await account('facebook')];
    sandbox().addFault({ platform: 'facebook', account: facebook.token, fault: { type: 'error', status: 400, code: '506', message: 'Duplicate status message' } });
    const response = await publishNow([mastodon.ref, facebook.ref]);
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('partial');
    expect(resultOf(response.body, mastodon.id)).toMatchObject({ success: true, postId: sandbox().published({ account: mastodon.token })[0].id });
    expect(resultOf(response.body, facebook.id)).toEqual({
      platform: 'facebook', accountId: facebook.id, accountLabel: expect.any(String), success: false,
      error: { code: 'duplicate_post', message: expect.any(String), retryable: false },
    });
    const list = await stack.request('GET', `/api/v1/posts/${response.body.post.id}`, { key });
    expect(list.body.post).toMatchObject({ status: 'partial', results: expect.arrayContaining([expect.objectContaining({ accountId: facebook.id, success: false })]) });
  });

  it('every account failing: 201 failed', async () => {
    const [a, b] = [await account('mastodon'), await account('bluesky')];
    sandbox().addFault({ platform: 'mastodon', account: a.token, fault: { type: 'error', status: 422, message: 'Validation failed' } });
    sandbox().addFault({ platform: 'bluesky', account: b.token, fault: { type: 'error', status: 400, code: 'InvalidRequest', message: 'bad record' } });
    const response = await publishNow([a.ref, b.ref]);
    expect(response.status).toBe(201);
    expect(response.body.post.status).toBe('failed');
    expect(response.body.results.map((r: { success: boolean }) => r.success)).toEqual([false, false]);
  });

  it('two accounts on one platform give two entries with the same platform', async () => {
    const [one, two] = [await account('mastodon', 'one'), await account('mastodon', 'two')];
    const response = await publishNow([one.ref, two.ref]);
    expect(response.status).toBe(201);
    expect(response.body.results).toHaveLength(2);
    expect(response.body.results.map((r: { platform: string; accountId: string }) => [r.platform, r.accountId]).sort()).toEqual([['mastodon', one.id], ['mastodon', two.id]].sort());
    expect(sandbox().published({ platform: 'mastodon', kind: 'post' }).filter((i) => [one.token, two.token].includes(i.account))).toHaveLength(2);
  });

  it('posts the first comments in order under the live item', async () => {
    const mastodon = await account('mastodon');
    const response = await publishNow([mastodon.ref], { firstComments: ['one', 'two', 'three'] });
    expect(response.status).toBe(201);
    const [post] = sandbox().published({ account: mastodon.token, kind: 'post' });
    const deadline = Date.now() + 5_000;
    while (sandbox().published({ account: mastodon.token, kind: 'comment' }).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(sandbox().published({ account: mastodon.token, kind: 'comment' }).map((c) => [c.text, c.parentId])).toEqual([['one', post.id], ['two', post.id], ['three', post.id]]);
  });

  it("shows each first comment's outcome per account: the platform id and url, or the error (and the later ones skipped)", async () => {
    const [ok, failing] = [await account('mastodon', 'ok'), await account('mastodon', 'failing')];
    // The failing account's first comment is refused by Mastodon (once); its second is then skipped, never posted out of order.
    sandbox().addFault({ platform: 'mastodon', account: failing.token, operation: 'comment', times: 1, fault: { type: 'error', status: 422, message: 'Validation failed: Text character limit of 500 exceeded' } });
    const response = await publishNow([ok.ref, failing.ref], { firstComments: ['first', 'second'] });
    expect(response.status).toBe(201);
    const postId = response.body.post.id;
    const detail = async () => (await stack.request('GET', `/api/v1/posts/${postId}`, { key })).body.post;
    const deadline = Date.now() + 10_000;
    let post = await detail();
    while ([ok, failing].some((a) => (post.firstCommentResults?.[a.id] ?? []).length < 2) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      post = await detail();
    }
    const comments = sandbox().published({ account: ok.token, kind: 'comment' });
    expect(post.firstCommentResults[ok.id]).toEqual(
      comments.map((c, index) => ({ index, status: 'posted', platformCommentId: c.id, url: expect.stringContaining(c.id) })),
    );
    expect(comments.map((c) => c.text)).toEqual(['first', 'second']);
    expect(post.firstCommentResults[failing.id]).toEqual([
      { index: 0, status: 'failed', error: { code: expect.any(String), message: expect.stringContaining('500'), retryable: false } },
      { index: 1, status: 'failed', error: expect.objectContaining({ code: 'first_comment_skipped' }) },
    ]);
    expect(sandbox().published({ account: failing.token, kind: 'comment' })).toEqual([]);
    // Both posts went out: the first comments' failure leaves the post's own outcome alone.
    expect(post.status).toBe('published');
  });

  it('draws X posts from the pool, refunds a rejected one, and fails an account with x_quota_exhausted once it is used up', async () => {
    const pool = new XPool(stack.db.pool, 2);
    const [x1, x2, x3] = [await account('x'), await account('x'), await account('x')];
    sandbox().addFault({ platform: 'x', account: x2.token, fault: { type: 'error', status: 403, message: 'You are not allowed to create a Tweet with duplicate content.' } });
    const first = await publishNow([x1.ref, x2.ref]);
    expect(first.body.post.status).toBe('partial');
    expect(await pool.used(workspaceId)).toBe(1);
    const second = await publishNow([x2.ref, x3.ref]);
    expect(await pool.used(workspaceId)).toBe(2);
    const exhausted = second.body.results.filter((r: { success: boolean }) => !r.success);
    expect(exhausted).toHaveLength(1);
    expect(exhausted[0].error).toEqual({ code: 'x_quota_exhausted', message: expect.any(String), retryable: true });
    const starved = [x2, x3].find((a) => a.id === exhausted[0].accountId)!;
    expect(sandbox().requestCount({ platform: 'x', account: starved.token, operation: 'publish' })).toBe(starved === x2 ? 1 : 0);
  });
});
